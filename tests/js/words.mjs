// The real words for the tests of modules that say things: the catalogues (src/dreizehn/words/locale/<lang>/*.po)
// read as the server reads them, and a fetch that answers /api/words/<lang> and /api/games as the server does.
import { readFileSync } from "node:fs";

const LOCALE = new URL("../../src/dreizehn/words/locale/", import.meta.url);
const GAMES = new URL("../../src/dreizehn/games/", import.meta.url);

/** @param {string} text a quoted .po string */
const unquote = (text) => JSON.parse(text);

/**
 * The templates of a catalogue: key -> template, or [one, many] for a key with plural forms.
 * @param {string} lang
 * @param {string} domain the shared catalogue ("dreizehn"), the web's, or a game's folder ("three_thirteen")
 * @returns {Record<string, string | string[]>}
 */
export function catalogue(lang, domain = "web") {
  const file = ["dreizehn", "web", "tui"].includes(domain) ? new URL(`${lang}/${domain}.po`, LOCALE) : new URL(`${domain}/locale/${lang}.po`, GAMES);
  /** @type {Record<string, string | string[]>} */
  const out = {};
  let key = "";
  /** @type {string[]} */
  let forms = [];
  let plural = false;
  const flush = () => { if (key) out[key] = plural ? forms : forms[0]; };
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const id = line.match(/^msgid (".*")$/);
    const str = line.match(/^msgstr(?:\[\d\])? (".*")$/);
    const more = line.match(/^(".*")$/);
    if (id) { flush(); key = unquote(id[1]); forms = []; plural = false; }
    else if (line.startsWith("msgid_plural")) plural = true;
    else if (str) forms.push(unquote(str[1]));
    else if (more && forms.length) forms[forms.length - 1] += unquote(more[1]);
  }
  flush();
  return out;
}

/**
 * Answer the page's fetches as the server does: the words of `lang` (the shared catalogue, the web's and each
 * game's), and
 * `games` as /api/games.
 * @param {string} lang
 * @param {unknown[]} [games]
 */
export function serve(lang, games = []) {
  const templates = Object.assign({}, ...["dreizehn", "web", "knizia13", "three_thirteen", "holzwurm"].map((d) => catalogue(lang, d)));
  globalThis.fetch = /** @type {any} */ (async (/** @type {string} */ url) => {
    const path = String(url);
    const body = path.startsWith("/api/words/") ? { lang, templates } : path.startsWith("/api/games") ? games : null;
    return { ok: body !== null, status: body === null ? 404 : 200, json: async () => body };
  });
}
