// @ts-check
// Open tables, tables being played, and finished games with their replays.
import { games, get } from "../api.js";
import { fill, h, link } from "../dom.js";
import { t } from "../i18n.js";

/**
 * @typedef {{id: string, game: string, created_at: string, totals?: number[] | null,
 *   seats: {joined: boolean, name: string | null}[]}} TableSummary a table as GET /api/tables lists it
 */

/**
 * @param {HTMLElement} root where the page goes
 * @param {{setTitle: (text: string) => void}} app
 */
export async function tablesPage(root, app) {
  app.setTitle(t("web.tables"));
  const titles = Object.fromEntries((await games()).map((g) => [g.id, g.title]));
  const [open, playing, finished] = await Promise.all(["open", "playing", "finished"].map((s) => get(`/api/tables?status=${s}`)));
  const seatsText = (/** @type {TableSummary} */ table) => table.seats.map((s) => s.joined ? s.name : t("web.free_seat")).join(", ");
  const section = (/** @type {string} */ title, /** @type {TableSummary[]} */ tables, /** @type {(table: TableSummary) => unknown} */ extra) => h("section.table-list", {}, h("h2", {}, title),
    tables.length ? h("ul", {}, tables.map((table) => h("li", { "data-table": table.id }, h("strong", {}, titles[table.game] || table.game),
      " · ", seatsText(table), " · ", h("time", { datetime: table.created_at }, new Date(table.created_at).toLocaleString()), extra(table))))
      : h("p.muted", {}, t("web.none")));
  fill(root, h("h1", {}, t("web.tables")),
    section(t("web.open_tables"), open, () => null),
    section(t("web.playing_tables"), playing, () => null),
    section(t("web.finished_tables"), finished, (/** @type {TableSummary} */ table) => [" · ",
      table.totals ? t("web.totals", { totals: table.totals.join(" : ") }) : "", " ", link(`/replay/${table.id}`, t("web.replay"), "button.small-button")]));
}
