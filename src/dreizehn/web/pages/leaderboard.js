// @ts-check
// A game's leaderboard (docs/ratings.md, rule G4): the top 100 accounts active in the last 30 days, the highest
// rating first, with a picker of the games; the reader's own row highlighted, or shown below when not in the top 100.
import { games, get } from "../api.js";
import { h, fill, link } from "../dom.js";
import { t } from "../i18n.js";
import { rankText, ratingText } from "../ratings.js";

/** @typedef {{rank: number, name: string, rating: number, spread: number, games: number, provisional: boolean}} BoardRow */
/** @typedef {{game: string, since: string, rows: BoardRow[], you: BoardRow | null}} Board */

/**
 * @param {HTMLElement} root where the page goes
 * @param {{setTitle: (text: string) => void}} app
 * @param {string | null} game the game shown (the first one when none is named: /leaderboard)
 */
export async function leaderboardPage(root, app, game) {
  const found = await games();
  const id = game || found[0].id;
  const title = found.find((g) => g.id === id)?.title || id;
  app.setTitle(t("web.board.title", { game: title }));
  /** @type {Board} */
  const board = await get(`/api/leaderboard/${encodeURIComponent(id)}`);
  fill(root, h("section.leaderboard", {},
    h("h1", {}, t("web.board.title", { game: title })),
    h("nav.game-picker", { "aria-label": t("web.board.games") }, found.map((g) =>
      g.id === id ? h("span.picked", { "aria-current": "page" }, g.title) : link(`/leaderboard/${g.id}`, g.title, "button.small-button"))),
    h("p.muted", {}, t("web.board.lead")),
    board.rows.length ? boardTable(board) : h("p.muted.empty-board", {}, t("web.board.empty"))));
}

/**
 * The board's table: rank, name (linked to the player's page), rating ± spread, games; provisional ratings marked;
 * the reader's own row highlighted, or added below the others when it is not among them.
 * @param {Board} board
 */
export function boardTable(board) {
  const you = board.you;
  const inTop = you !== null && board.rows.some((r) => r.name === you.name);
  /** @type {number | undefined} */
  let above;
  const rows = board.rows.map((row) => {
    const made = boardRow(row, rankText(row.rank, above), inTop && row.name === you?.name);
    above = row.rank;
    return made;
  });
  const below = you !== null && !inTop ? [h("tr.gap", {}, h("td", { colspan: 4 }, "⋯")), boardRow(you, String(you.rank), true)] : [];
  return h("table.board", {}, h("thead", {}, h("tr", {}, h("th.num", { scope: "col" }, t("web.board.rank")),
    h("th", { scope: "col" }, t("web.board.name")), h("th.num", { scope: "col" }, t("web.board.rating")),
    h("th.num", { scope: "col" }, t("web.board.games_played")))), h("tbody", {}, rows, below));
}

/**
 * @param {BoardRow} row
 * @param {string} rank as written
 * @param {boolean} mine the reader's own row
 */
function boardRow(row, rank, mine) {
  return h(`tr${mine ? ".mine" : ""}`, mine ? { "aria-current": "true", "data-name": row.name } : { "data-name": row.name },
    h("td.num", {}, rank),
    h("td", {}, h("a", { href: `/players/${encodeURIComponent(row.name)}`, "data-route": "" }, row.name),
      mine ? h("span.tag.you", {}, t("web.daily.you")) : null),
    h("td.num", {}, ratingText(row.rating, row.spread),
      row.provisional ? h("span.tag.provisional", { title: t("web.board.provisional_help") }, t("web.board.provisional")) : null),
    h("td.num", {}, String(row.games)));
}
