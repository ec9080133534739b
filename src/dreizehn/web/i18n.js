// @ts-check
// Words: the templates of a language from /api/words/{lang}, said like the server says them (docs/words.md).
export const LANGUAGES = ["en", "de", "nl"];
/** @type {Record<string, string | string[]>} */
let templates = {};
let current = "en";

/**
 * The language chosen: ?lang=, else the one kept from last time, else the first of the browser's languages (in
 * the order the person set, `navigator.languages`) that the app speaks, else English.
 */
export function chosenLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  const kept = localStorage.getItem("dreizehn.lang");
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  const browser = wanted.map((l) => l.slice(0, 2).toLowerCase()).find((code) => LANGUAGES.includes(code));
  for (const code of [asked, kept, browser]) {
    if (code && LANGUAGES.includes(code)) return code;
  }
  return "en";
}

/**
 * Load the templates of a language and make it the page's language.
 * @param {string} code
 */
export async function loadLanguage(code) {
  const response = await fetch(`/api/words/${code}`);
  const data = await response.json();
  templates = data.templates;
  current = data.lang;
  localStorage.setItem("dreizehn.lang", current);
  document.documentElement.lang = current;
}

export function lang() {
  return current;
}

/**
 * Say `key` with `params`: forms[0] when n == 1 else forms[1]; a param {word, n?} is itself said.
 * @param {string} key
 * @param {Record<string, any>} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  let template = templates[key];
  if (template === undefined) return key;
  if (Array.isArray(template)) template = params.n === 1 ? template[0] : template[1];
  return template.replace(/\{\{|\}\}|\{(\w+)(?:![rsa])?(?::([^}]*))?\}/g, (/** @type {string} */ match, /** @type {string} */ name, /** @type {string | undefined} */ spec) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    let value = params[name];
    if (value && typeof value === "object" && !Array.isArray(value) && value.word) value = t(value.word, value);
    if (value === undefined || value === null) return match;
    if (spec === "g" && typeof value === "number") return String(Number(value.toPrecision(6)));
    return String(value);
  });
}

/**
 * Whether the page's catalogue has `key` (a game's own words where it has them, else the app's).
 * @param {string} key
 */
export function has(key) {
  return templates[key] !== undefined;
}

/**
 * A list said like the server says it: "a, b and c".
 * @param {unknown[]} items
 */
export function join(items) {
  if (items.length === 0) return t("list.none");
  if (items.length === 1) return String(items[0]);
  return t("list.and", { head: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

/**
 * A chance 0..1 as a whole percentage.
 * @param {number} p
 */
export function percent(p) {
  return `${Math.round(p * 100)}%`;
}
