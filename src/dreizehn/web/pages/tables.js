// @ts-check
// Open tables (a free seat taken from here, under a name), tables being played, and finished games with their
// replays.
import { gameFacts, games, get, post } from "../api.js";
import { fill, h, link } from "../dom.js";
import { join, t } from "../i18n.js";
import { standingsOrder } from "../scores.js";
import { botLevel } from "./table/head.js";

/**
 * @typedef {{id: string, game: string, created_at: string, totals?: number[] | null, winners?: number[] | null,
 *   seats: {seat: number, kind: string, bot?: string | null, joined: boolean, name: string | null}[]}} TableSummary
 *   a table as GET /api/tables lists it
 */
/** @typedef {{setTitle: (text: string) => void, go: (path: string) => void}} App */

/**
 * "Join" on an open table with a free person's seat: the name (the one used last), then the seat's own invitation
 * (POST /api/tables/{id}/seats/{seat}) and its table page.
 * @param {TableSummary} table
 * @param {App} app
 */
function joinForm(table, app) {
  const free = table.seats.find((s) => s.kind === "person" && !s.joined);
  if (!free) return null;
  const id = `join-${table.id}`;
  const name = /** @type {HTMLInputElement} */ (h("input", { id, required: true, maxlength: 40,
    value: localStorage.getItem("dreizehn.name") || "", placeholder: t("web.your_name"), autocomplete: "nickname" }));
  const error = h("span.error", { role: "alert" });
  /** @param {Event} e */
  async function submit(e) {
    e.preventDefault();
    try {
      const seat = await post(`/api/tables/${table.id}/seats/${free?.seat}`, { name: name.value });
      localStorage.setItem("dreizehn.name", name.value.trim());
      app.go(`/play/${seat.token}`);
    } catch (err) { fill(error, err instanceof Error ? err.message : String(err)); }
  }
  return h("form.take-seat", { onsubmit: submit, "aria-label": t("web.take_seat_label") },
    h("label.sr-only", { for: id }, t("web.your_name")), name,
    h("button.small-button.primary", { type: "submit" }, t("web.join_table")), error);
}

/**
 * @param {HTMLElement} root where the page goes
 * @param {App} app
 */
export async function tablesPage(root, app) {
  app.setTitle(t("web.tables"));
  const titles = Object.fromEntries((await games()).map((g) => [g.id, g.title]));
  const [open, playing, finished] = await Promise.all(["open", "playing", "finished"].map((s) => get(`/api/tables?status=${s}`)));
  const seatsText = (/** @type {TableSummary} */ table) => table.seats.map(seatLabel).join(", ");
  const section = (/** @type {string} */ title, /** @type {TableSummary[]} */ tables, /** @type {(table: TableSummary) => unknown} */ extra) => h("section.table-list", {}, h("h2", {}, title),
    tables.length ? h("ul", {}, tables.map((table) => h("li", { "data-table": table.id }, h("strong", {}, titles[table.game] || table.game),
      " · ", seatsText(table), " · ", h("time", { datetime: table.created_at }, new Date(table.created_at).toLocaleString()), extra(table))))
      : h("p.muted", {}, t("web.none")));
  fill(root, h("h1", {}, t("web.tables")),
    section(t("web.open_tables"), open, (table) => joinForm(table, app)),
    section(t("web.playing_tables"), playing, (/** @type {TableSummary} */ table) => [" ",
      link(`/watch/${table.id}`, t("web.watch"), "button.small-button")]),
    section(t("web.finished_tables"), finished, (/** @type {TableSummary} */ table) => [finalWords(table), " ",
      link(`/replay/${table.id}`, t("web.replay"), "button.small-button")]));
}

/**
 * A seat as the lists say it: its name, a bot's level beside it in the reader's language, a free seat said so.
 * @param {TableSummary["seats"][number]} s
 */
export function seatLabel(s) {
  if (!s.joined) return t("web.free_seat");
  if (s.kind !== "bot") return s.name || "";
  if (s.name === s.bot) return botLevel(s.bot);  // stored under its level (an older table): "Bot: leicht"
  return `${s.name} (${botLevel(s.bot)})`;
}

/**
 * A finished game's winners and every seat's total, best first ("won by Ada · Ada 12, Bruno 30"); nothing when
 * the server gave no totals.
 * @param {TableSummary} table
 */
export function finalWords(table) {
  const { totals, winners } = table;
  if (!totals) return null;
  const name = (/** @type {number} */ i) => table.seats[i].name || t("web.free_seat");
  const order = standingsOrder(totals, !!gameFacts(table.game)?.high_score_wins);
  return h("span.final", {}, " · ", winners && winners.length ? h("strong.winners", {}, t("web.won_by", { names: join(winners.map(name)) })) : null,
    " · ", h("span.totals", {}, order.map((i) => `${name(i)} ${totals[i]}`).join(", ")));
}
