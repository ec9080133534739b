// @ts-check
// "Your turn" in the browser (docs/notices.md, rules N1, N3): the header's live count of the turn-based games waiting
// for the signed-in person ("2 games wait for you", a link to /me), asked of the server (GET /api/me/waiting) every
// minute and whenever the tab is shown again; and, where the person turned them on in this browser (and the browser
// allowed them), a notification for each game that starts waiting while the tab is in the background, which opens
// the seat when clicked. A guest's page asks nothing.
import { get, Refused } from "./api.js";
import { session } from "./account.js";
import { h } from "./dom.js";
import { join, t } from "./i18n.js";

/** How often the count is asked for (milliseconds) while the page is open. */
export const POLL_MS = 60_000;
/** Where this browser keeps whether the person turned notifications on ("on"; none: off). */
export const NOTIFY_KEY = "dreizehn.notify";

/** @typedef {{table: string, game: string, seat: number, due_at: string, url: string, players: string[]}} WaitingGame */

/** @type {WaitingGame[]} */
let games = [];
/** @type {Set<string> | null} the tables waiting at the last look (null: none yet, nothing to compare with) */
let known = null;
/** @type {ReturnType<typeof setInterval> | null} */
let timer = null;
/** @type {(path: string) => void} */
let go = (path) => { location.href = path; };

const badge = h("a.waiting", { href: "/me", "data-route": "", id: "waiting", hidden: true, "aria-live": "polite" });

/** The header's count (the same element each time the header is drawn), said in the page's language. */
export function waitingBadge() {
  paint();
  return badge;
}

function paint() {
  const n = games.length;
  badge.hidden = n === 0;
  badge.textContent = n ? t("web.notices.waiting", { n }) : "";
}

/**
 * Which of `found` were not waiting at the last look (none at the first look). Pure.
 * @param {Set<string> | null} before
 * @param {WaitingGame[]} found
 */
export function newlyWaiting(before, found) {
  return before === null ? [] : found.filter((g) => !before.has(g.table));
}

/** Whether this browser shows notifications now: turned on here and allowed by the browser. */
export function notifying() {
  return typeof Notification !== "undefined" && Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "on";
}

/** @param {WaitingGame} game */
function notify(game) {
  const note = new Notification(t("web.notices.turn", { game: t(`${game.game}.title`) }),
    { body: t("web.notices.turn_with", { players: join(game.players), n: game.players.length }), tag: `dreizehn-${game.table}` });
  note.onclick = () => { window.focus(); go(game.url); note.close(); };
}

/** Ask the server what waits now; tell of games newly waiting while the tab is hidden. */
export async function refreshWaiting() {
  if (!session()) { games = []; known = null; paint(); return; }
  try {
    /** @type {{count: number, games: WaitingGame[]}} */
    const found = await get("/api/me/waiting");
    const fresh = newlyWaiting(known, found.games);
    games = found.games;
    known = new Set(games.map((g) => g.table));
    if (document.hidden && notifying()) fresh.forEach(notify);
  } catch (err) {
    if (err instanceof Refused && err.status === 401) { games = []; known = null; }
  }
  paint();
}

/**
 * Keep the count: now, every {@link POLL_MS}, and when the tab is shown again.
 * @param {(path: string) => void} goTo the app's router (a notification clicked opens the seat in the app)
 */
export function watchWaiting(goTo) {
  go = goTo;
  if (timer === null) {
    timer = setInterval(refreshWaiting, POLL_MS);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshWaiting(); });
  }
  return refreshWaiting();
}
