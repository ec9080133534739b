// @ts-check
// The HTTP API (docs/server.md): JSON in and out, in the page's language; a refusal throws its message. Every
// request that changes something carries the session's CSRF token (X-CSRF-Token) once the page knows it
// (account.js: SessionOut.csrf).
import { learnFaces } from "./cards.js";
import { lang } from "./i18n.js";

/** @typedef {{code: string, rule: string | null, params: Record<string, unknown>, message: string}} Refusal */

export class Refused extends Error {
  /**
   * @param {number} status the HTTP status
   * @param {Refusal | null} detail the server's refusal
   */
  constructor(status, detail) {
    super(detail && detail.message ? detail.message : `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
  }
}

/** The CSRF token of the session this browser is signed in with (null for a guest). */
/** @type {string | null} */
let csrfToken = null;

/** @param {string | null} token the session's CSRF token (SessionOut.csrf), or null once signed out */
export function setCsrf(token) {
  csrfToken = token;
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body] sent as JSON
 * @returns {Promise<{status: number, data: any, headers: Headers}>}
 */
async function call(method, path, body) {
  const sep = path.includes("?") ? "&" : "?";
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  /** @type {RequestInit} */
  const init = { method, headers };
  if (method !== "GET" && csrfToken) headers["X-CSRF-Token"] = csrfToken;
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(`${path}${sep}lang=${lang()}`, init);
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const detail = data && typeof data.detail === "object" && !Array.isArray(data.detail) ? data.detail : null;
    throw new Refused(response.status, detail);
  }
  return { status: response.status, data, headers: response.headers };
}

export const get = async (/** @type {string} */ path) => (await call("GET", path)).data;
export const post = async (/** @type {string} */ path, /** @type {unknown} */ body) => (await call("POST", path, body)).data;
export const put = async (/** @type {string} */ path, /** @type {unknown} */ body) => (await call("PUT", path, body)).data;
/**
 * @param {string} path
 * @param {unknown} [body] sent as JSON (deleting the account names its password)
 */
export async function del(path, body) {
  return (await call("DELETE", path, body)).data;
}
/** A GET whose answer's headers say more (a list's next page: X-Next-Cursor, X-Total-Count). */
export const getWithHeaders = (/** @type {string} */ path) => call("GET", path);
export const postWithStatus = (/** @type {string} */ path, /** @type {unknown} */ body) => call("POST", path, body);

/** @typedef {{id: string, high_score_wins: boolean, stage_name: string, drawing: boolean, arranges?: boolean,
 *   faces: Record<string, {colour: string, value: string, shape: string, label: string}>, [field: string]: any}} GameFacts */

/** @type {GameFacts[] | null} */
let gamesCache = null;
/** @type {string | null} */
let gamesLang = null;
/** @type {Map<string, GameFacts>} */
const facts = new Map();
/**
 * The games with their options, rules and facts (which way totals win, what a stage is called, every card's face),
 * in the page's language (kept until the language changes). The cards learn their faces from here.
 */
/** @returns {Promise<GameFacts[]>} */
export async function games() {
  const asked = lang();
  if (!gamesCache || gamesLang !== asked) {
    /** @type {GameFacts[]} */
    const found = await get("/api/games");  // asked in `asked`: the language may change while it comes
    [gamesCache, gamesLang] = [found, asked];
    learnFaces(found);
    for (const game of found) facts.set(game.id, game);
    return found;
  }
  return gamesCache;
}

/**
 * The bot levels a game offers at a player count with its usual options, weakest first (the server's
 * `levels_by_players`: `learned` only where its network plays, 13 and Holzwurm at 4 players).
 * @param {GameFacts} game
 * @param {number} players
 * @returns {string[]}
 */
export function levelsAt(game, players) {
  return (game.levels_by_players || {})[String(players)] || game.levels;
}

/** The levels with a line of their own that says what they are (`web.level_about.<level>`). */
export const LEVELS_ABOUT = ["learned"];

/** A game's facts as `/api/games` last gave them (undefined before `games()` has answered). */
/** @param {string} id */
export function gameFacts(id) {
  return facts.get(id);
}
