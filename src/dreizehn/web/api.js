// @ts-check
// The HTTP API (docs/server.md): JSON in and out, in the page's language; a refusal throws its message.
import { learnFaces } from "./cards.js";
import { lang } from "./i18n.js";

export class Refused extends Error {
  constructor(status, detail) {
    super(detail && detail.message ? detail.message : `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
  }
}

async function call(method, path, body) {
  const sep = path.includes("?") ? "&" : "?";
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(`${path}${sep}lang=${lang()}`, init);
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const detail = data && typeof data.detail === "object" && !Array.isArray(data.detail) ? data.detail : null;
    throw new Refused(response.status, detail);
  }
  return { status: response.status, data };
}

export const get = async (path) => (await call("GET", path)).data;
export const post = async (path, body) => (await call("POST", path, body)).data;
export const postWithStatus = (path, body) => call("POST", path, body);

let gamesCache = null;
let gamesLang = null;
const facts = new Map();
/**
 * The games with their options, rules and facts (which way totals win, what a stage is called, every card's face),
 * in the page's language (kept until the language changes). The cards learn their faces from here.
 */
export async function games() {
  const asked = lang();
  if (!gamesCache || gamesLang !== asked) {
    const found = await get("/api/games");  // asked in `asked`: the language may change while it comes
    [gamesCache, gamesLang] = [found, asked];
    learnFaces(found);
    for (const game of found) facts.set(game.id, game);
    return found;
  }
  return gamesCache;
}

/** A game's facts as `/api/games` last gave them (undefined before `games()` has answered). */
export function gameFacts(id) {
  return facts.get(id);
}
