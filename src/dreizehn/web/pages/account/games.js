// @ts-check
// A person's games as the home (/me) and a profile (/players/{name}) list them: games in progress ("your turn"
// first, as the server sorts them), finished games with their results linked to the replays, and the statistics
// per game. The words of a line are pure helpers (tested in tests/js/account-games.test.mjs).
import { gameFacts } from "../../api.js";
import { h, link } from "../../dom.js";
import { has, lang, t } from "../../i18n.js";
import { standingsOrder } from "../../scores.js";
import { botLevel } from "../table/head.js";
import { byBotsMark } from "../tables.js";

/**
 * @typedef {{name: string, account: string | null, bot: string | null, former: boolean}} Player a seat of a game
 * @typedef {{table: string, game: string, seat?: number, players: Player[], status: string, your_turn?: boolean,
 *   invited?: boolean, totals: number[] | null, won?: boolean | null, created_at: string, finished_at: string | null,
 *   url: string, by_bots?: boolean, pace?: string, deadline?: string | null}} MyGame a game as GET /api/me lists it (a profile's without the private parts)
 * @typedef {{game: string, games: number, wins: number, average: number | null, best: number | null,
 *   left_to_bots: number}} GameStats
 */

/**
 * A seat's name as the lists say it: a former player's seat said so, a bot with its level, a free seat said so.
 * @param {Player} p
 */
export function playerName(p) {
  if (p.former) return has("account.former_player") ? t("account.former_player") : t("web.account.former_player");
  if (p.bot) return p.name && p.name !== p.bot ? `${p.name} (${botLevel(p.bot)})` : botLevel(p.bot);
  return p.name || t("web.free_seat");
}

/**
 * Each seat's total, best first ("Ada 12, Bruno 30"); "" when the game has none.
 * @param {MyGame} g
 */
export function totalsWords(g) {
  if (!g.totals) return "";
  const totals = g.totals;
  return standingsOrder(totals, !!gameFacts(g.game)?.high_score_wins).map((i) => `${playerName(g.players[i])} ${totals[i]}`).join(", ");
}

/**
 * A game in progress's state for the person: their turn, an invitation to take up, or waiting.
 * @param {MyGame} g
 * @returns {{key: string, cls: string}}
 */
export function playingState(g) {
  if (g.your_turn) return { key: "web.me.your_turn", cls: "mine" };
  if (g.invited) return { key: "web.me.invited", cls: "invited" };
  return { key: "web.me.waiting", cls: "waiting" };
}

/**
 * A finished game's result for the person: won, lost, or none (a game whose result is not theirs: a profile's).
 * @param {MyGame} g
 */
export function resultKey(g) {
  return g.won === true ? "web.me.won" : g.won === false ? "web.me.lost" : null;
}

/** @param {string | null} iso */
function day(iso) {
  return iso ? new Date(iso).toLocaleDateString(lang(), { year: "numeric", month: "short", day: "numeric" }) : "";
}

/** @param {string} iso a moment: said with its weekday and time */
function when(iso) {
  return new Date(iso).toLocaleString(lang(), { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/**
 * @param {MyGame} g
 * @param {Record<string, string>} titles each game's title
 */
function playingItem(g, titles) {
  const state = playingState(g);
  return h(`li.my-game.${state.cls}`, { "data-table": g.table },
    h("div.game-line", {}, h("strong", {}, titles[g.game] || g.game), h(`span.state.${state.cls}`, {}, t(state.key))),
    h("div.who", {}, g.players.map(playerName).join(", ")),
    h("div.when.muted", {}, t("web.me.started", { date: day(g.created_at) }),
      g.pace === "turn-based" ? ` · ${t("web.pace.turn_based")}` : "",
      g.your_turn && g.deadline ? ` · ${t("web.me.until", { time: when(g.deadline) })}` : ""),
    link(g.url, t(g.invited ? "web.me.take_seat" : "web.me.play"), `button.small-button${g.your_turn ? ".primary" : ""}`));
}

/**
 * @param {MyGame} g
 * @param {Record<string, string>} titles
 */
function finishedItem(g, titles) {
  const result = resultKey(g);
  return h("li.my-game.finished", { "data-table": g.table },
    h("div.game-line", {}, h("strong", {}, titles[g.game] || g.game),
      result ? h(`span.state.${g.won ? "won" : "lost"}`, {}, t(result)) : null, g.by_bots ? byBotsMark() : null),
    h("div.who", {}, totalsWords(g)),
    h("div.when.muted", {}, day(g.finished_at || g.created_at)),
    link(g.url, t("web.replay"), "button.small-button"));
}

/**
 * The list of games in progress.
 * @param {MyGame[]} games
 * @param {Record<string, string>} titles
 */
export function playingList(games, titles) {
  return games.length ? h("ul.my-games", { id: "playing" }, games.map((g) => playingItem(g, titles)))
    : h("p.muted", { id: "playing" }, t("web.me.no_games"), " ", link("/", t("web.me.start_one")));
}

/**
 * The list of finished games.
 * @param {MyGame[]} games
 * @param {Record<string, string>} titles
 */
export function finishedList(games, titles) {
  return games.length ? h("ul.my-games", { id: "finished" }, games.map((g) => finishedItem(g, titles)))
    : h("p.muted", { id: "finished" }, t("web.none"));
}

/**
 * An average score as people read it: one decimal at most, in the page's language; none: "–".
 * @param {number | null} value
 */
export function average(value) {
  return value === null || value === undefined ? "–" : value.toLocaleString(lang(), { maximumFractionDigits: 1 });
}

/**
 * The statistics per game, a table (a game not played yet is left out).
 * @param {GameStats[]} stats
 * @param {Record<string, string>} titles
 */
export function statsTable(stats, titles) {
  const rows = stats.filter((s) => s.games > 0);
  if (!rows.length) return h("p.muted", { id: "stats" }, t("web.none"));
  const heads = ["web.me.game", "web.me.games", "web.me.wins", "web.me.average", "web.me.best", "web.me.left_to_bots"];
  return h("div.table-scroll", {}, h("table.stats", { id: "stats" },
    h("thead", {}, h("tr", {}, heads.map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, rows.map((s) => h("tr", { "data-game": s.game }, h("th", { scope: "row" }, titles[s.game] || s.game),
      [s.games, s.wins, average(s.average), s.best ?? "–", s.left_to_bots].map((value, i) =>
        h("td", { "data-label": t(heads[i + 1]) }, value)))))));
}

/**
 * How often a player left their finished games to bots, over every game ("left 2 of 31 games to bots"); null
 * without finished games.
 * @param {GameStats[]} stats
 */
export function leftShare(stats) {
  const games = stats.reduce((sum, s) => sum + s.games, 0);
  if (!games) return null;
  const left = stats.reduce((sum, s) => sum + s.left_to_bots, 0);
  return t("web.profile.left_share", { left, n: games });
}
