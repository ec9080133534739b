// @ts-check
// The pure parts of the daily deal's, the leaderboard's and the profile's rating pages (docs/ratings.md): how a rank
// and a rating are written, the geometry of the small box plot of a deal's totals and of the line of a player's
// rating over their games, the guests' seat tokens kept per deal, and a request that carries its own headers
// (X-CSRF-Token, X-Seat-Token).
import { session as signedIn } from "./account.js";
import { Refused } from "./api.js";
import { lang } from "./i18n.js";

/**
 * A rank as the tables write it: the number, or "=" where the row shares the place of the row above it; an
 * unranked row (a guest's play of a deal) gets a dash.
 * @param {number | null} rank
 * @param {number | null} [above] the rank of the row above (undefined for the first row)
 */
export function rankText(rank, above) {
  if (rank === null || rank === undefined) return "–";
  return above === rank ? "=" : String(rank);
}

/**
 * A rating with its uncertainty, both rounded to whole points: "1532 ± 84".
 * @param {number} rating
 * @param {number} spread
 */
export function ratingText(rating, spread) {
  return `${Math.round(rating)} ± ${Math.round(spread)}`;
}

/**
 * A total as the spread writes it: whole, or with one decimal where a median or quartile falls between two.
 * @param {number} value
 */
export function totalText(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** @typedef {{n: number, lowest: number, quartile1: number, median: number, quartile3: number, highest: number}} Spread */

/**
 * The box plot of a deal's totals in a `width`×`height` drawing: the x of each of the five figures (the lowest at
 * the left, `pad` in from the edge), the box between the quartiles, the whiskers out to the lowest and highest, and
 * the x of the person's own total (`null` when they have none). All at the middle when every total is the same.
 * @param {Spread} spread
 * @param {number | null} mine
 * @param {number} width
 * @param {number} height
 * @param {number} [pad]
 */
export function boxPlot(spread, mine, width, height, pad = 12) {
  const span = spread.highest - spread.lowest;
  const x = (/** @type {number} */ v) => span > 0 ? pad + (v - spread.lowest) / span * (width - 2 * pad) : width / 2;
  const mid = height / 2;
  const half = Math.max(4, height / 4);
  return {
    lowest: x(spread.lowest), quartile1: x(spread.quartile1), median: x(spread.median),
    quartile3: x(spread.quartile3), highest: x(spread.highest),
    box: { x: x(spread.quartile1), y: mid - half, width: x(spread.quartile3) - x(spread.quartile1), height: 2 * half },
    mid, mine: mine === null ? null : x(Math.min(spread.highest, Math.max(spread.lowest, mine))),
  };
}

/**
 * The line of a player's rating after each of their rated games (oldest first) in a `width`×`height` drawing: the
 * games evenly spaced from left to right, `pad` in from the edges, the ratings from `low` (bottom) to `high` (top):
 * the lowest and highest rating, widened about their middle to at least `least` points so that a few points'
 * difference does not fill the drawing. One game: a point in the middle.
 * @param {number[]} values
 * @param {number} width
 * @param {number} height
 * @param {number} [pad]
 * @param {number} [least]
 */
export function ratingLine(values, width, height, pad = 8, least = 100) {
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < least) {
    const mid = (low + high) / 2;
    [low, high] = [mid - least / 2, mid + least / 2];
  }
  const x = (/** @type {number} */ i) => values.length > 1 ? pad + i * (width - 2 * pad) / (values.length - 1) : width / 2;
  const y = (/** @type {number} */ v) => pad + (high - v) / (high - low) * (height - 2 * pad);
  const round = (/** @type {number} */ n) => Math.round(n * 10) / 10;
  const at = values.map((v, i) => ({ x: round(x(i)), y: round(y(v)) }));
  return { points: at.map((p) => `${p.x},${p.y}`).join(" "), at, low: Math.round(low), high: Math.round(high),
    last: at[at.length - 1], y: (/** @type {number} */ v) => round(y(v)) };
}

/**
 * The key under which a guest's seat token for a deal is kept (localStorage).
 * @param {string} day
 * @param {string} game
 * @param {number} players
 */
export function tokenKey(day, game, players) {
  return `dreizehn.daily.${day}.${game}.${players}`;
}

/**
 * A request to the API with extra headers, as api.js makes them (JSON, in the page's language); a refusal throws its
 * message.
 * @param {string} method
 * @param {string} path
 * @param {{body?: unknown, headers?: Record<string, string>}} [more]
 * @returns {Promise<any>}
 */
export async function ask(method, path, more = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", ...(more.headers || {}) };
  /** @type {RequestInit} */
  const init = { method, headers };
  if (more.body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(more.body);
  }
  const response = await fetch(`${path}${path.includes("?") ? "&" : "?"}lang=${lang()}`, init);
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const detail = data && typeof data.detail === "object" && !Array.isArray(data.detail) ? data.detail : null;
    throw new Refused(response.status, detail);
  }
  return data;
}

/**
 * Who is signed in on this browser and their CSRF token, as the page learnt it at its start (account.js: a guest's
 * browser asks nothing, so its console shows no 401); `null` for a guest.
 * @returns {Promise<{name: string, csrf: string} | null>}
 */
export async function session() {
  return signedIn();
}
