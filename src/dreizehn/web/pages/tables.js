// @ts-check
// The list of tables (/tables): open tables (a free seat taken from here, under a name), tables being played, and
// finished games with when they ended, their results and replays; filtered by game, status and whose (everyone's or,
// signed in, mine), the person's own tables first, a page at a time ("More tables"; the server's cursor). The
// filters are the address's (/tables?status=finished&game=holzwurm&whose=mine): a list can be shared and reloaded.
import { gameFacts, games, getWithHeaders, post } from "../api.js";
import { session } from "../account.js";
import { fill, h, link } from "../dom.js";
import { join, lang, t } from "../i18n.js";
import { standingsOrder } from "../scores.js";
import { botLevel } from "./table/head.js";

/**
 * @typedef {{id: string, game: string, status?: string, created_at: string, finished_at?: string | null,
 *   totals?: number[] | null, winners?: number[] | null, by_bots?: boolean, my_seat?: number | null,
 *   seats: {seat: number, kind: string, bot?: string | null, joined: boolean, name: string | null}[]}} TableSummary
 *   a table as GET /api/tables lists it
 * @typedef {{status: string, game: string, whose: string}} Filters what the list shows ("" game: every game)
 */
/** @typedef {{setTitle: (text: string) => void, go: (path: string) => void}} App */

export const PAGE_SIZE = 20;
const STATUSES = ["open", "playing", "finished"];

/**
 * The filters an address asks for (its query string), each one the list knows or its default; "mine" only for a
 * signed-in person.
 * @param {string} search the address's query string ("?status=finished")
 * @param {string[]} gameIds the games there are
 * @param {boolean} signedIn
 * @returns {Filters}
 */
export function filtersFrom(search, gameIds, signedIn) {
  const asked = new URLSearchParams(search);
  const status = asked.get("status") || "";
  const game = asked.get("game") || "";
  return { status: STATUSES.includes(status) ? status : "open", game: gameIds.includes(game) ? game : "",
    whose: signedIn && asked.get("whose") === "mine" ? "mine" : "all" };
}

/**
 * The query string of filters as the page's address has it: the defaults left out.
 * @param {Filters} filters
 */
export function filtersQuery(filters) {
  const query = new URLSearchParams();
  if (filters.status !== "open") query.set("status", filters.status);
  if (filters.game) query.set("game", filters.game);
  if (filters.whose === "mine") query.set("whose", "mine");
  const text = query.toString();
  return text ? `?${text}` : "";
}

/**
 * The API's address of a page of the list: the filters, the page's size, where it begins.
 * @param {Filters} filters
 * @param {string | null} cursor the server's X-Next-Cursor of the page before (null: the first page)
 */
export function listAddress(filters, cursor) {
  const query = new URLSearchParams({ status: filters.status, whose: filters.whose, limit: String(PAGE_SIZE) });
  if (filters.game) query.set("game", filters.game);
  if (cursor) query.set("cursor", cursor);
  return `/api/tables?${query}`;
}

/**
 * When a listed table was made, or its game finished, in the reader's language.
 * @param {TableSummary} table
 */
export function whenWords(table) {
  const at = table.finished_at || table.created_at;
  const time = new Date(at).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });
  return h("time", { datetime: at }, t(table.finished_at ? "web.list.finished_at" : "web.list.made_at", { time }));
}

/** "finished by bots", with why, where a finished game is listed. */
export function byBotsMark() {
  return h("span.state.by-bots", { title: t("web.list.by_bots_help") }, t("web.list.by_bots"));
}

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
    value: session()?.name || localStorage.getItem("dreizehn.name") || "", placeholder: t("web.your_name"), autocomplete: "nickname" }));
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
 * What a listed table offers: its replay (finished), the person's own seat (theirs), a free seat to take (open),
 * watching (being played). The lobby's open tables offer the same.
 * @param {TableSummary} table
 * @param {App} app
 */
export function tableAction(table, app) {
  if (table.status === "finished") return link(`/replay/${table.id}`, t("web.replay"), "button.small-button");
  if (table.my_seat !== null && table.my_seat !== undefined) {
    return link(`/seat/${table.id}/${table.my_seat}`, t("web.me.play"), "button.small-button.primary");
  }
  return joinForm(table, app) || link(`/watch/${table.id}`, t("web.watch"), "button.small-button");
}

/**
 * One table of the list.
 * @param {TableSummary} table
 * @param {Record<string, string>} titles each game's title
 * @param {App} app
 */
export function tableItem(table, titles, app) {
  const mine = table.my_seat !== null && table.my_seat !== undefined;
  return h(`li.table-row${mine ? ".mine" : ""}`, { "data-table": table.id },
    h("div.game-line", {}, h("strong", {}, titles[table.game] || table.game),
      mine ? h("span.state.mine", {}, t("web.list.yours")) : null, table.by_bots ? byBotsMark() : null),
    h("div.who", {}, table.seats.map(seatLabel).join(", "), finalWords(table)),
    h("div.when.muted", {}, whenWords(table)),
    h("div.row-action", {}, tableAction(table, app)));
}

/**
 * A labelled choice of the filters' form.
 * @param {string} id
 * @param {string} label
 * @param {[string, string][]} choices value and words
 * @param {string} value the one chosen
 */
function choice(id, label, choices, value) {
  return h("label.filter", { for: id }, h("span", {}, label), h("select", { id, name: id.replace("filter-", "") },
    choices.map(([v, words]) => h("option", { value: v, selected: v === value }, words))));
}

/**
 * @param {HTMLElement} root where the page goes
 * @param {App} app
 */
export async function tablesPage(root, app) {
  app.setTitle(t("web.tables"));
  const all = await games();
  const titles = Object.fromEntries(all.map((g) => [g.id, g.title]));
  const signedIn = !!session();
  let filters = filtersFrom(location.search, all.map((g) => g.id), signedIn);
  const list = h("ul.table-rows", { id: "table-list", "aria-live": "polite" });
  const count = h("p.muted.table-count", { id: "table-count", role: "status" });
  const more = /** @type {HTMLButtonElement} */ (h("button.small-button", { type: "button", id: "more-tables", hidden: true }, t("web.list.more")));
  /** @type {string | null} */
  let cursor = null;
  let drawn = 0;  // which filters' list is drawn: an answer for filters changed since is dropped
  /** @param {boolean} fresh the first page of (new) filters */
  async function load(fresh) {
    const mine = fresh ? ++drawn : drawn;
    more.disabled = true;
    const answer = await getWithHeaders(listAddress(filters, fresh ? null : cursor));
    if (mine !== drawn) return;
    cursor = answer.headers.get("x-next-cursor");
    const items = /** @type {TableSummary[]} */ (answer.data).map((table) => tableItem(table, titles, app));
    if (fresh) fill(list, items); else list.append(...items);
    const total = Number(answer.headers.get("x-total-count") || list.children.length);
    fill(count, total ? t("web.list.count", { n: total }) : t("web.none"));
    more.hidden = !cursor;
    more.disabled = false;
  }
  more.addEventListener("click", () => load(false));
  const form = h("form.table-filters", { role: "search", "aria-label": t("web.list.filters"), onchange: (/** @type {Event} */ e) => {
    const field = /** @type {HTMLSelectElement} */ (e.target);
    filters = { ...filters, [field.name]: field.value };
    history.replaceState(null, "", `/tables${filtersQuery(filters)}`);
    load(true);
  }, onsubmit: (/** @type {Event} */ e) => e.preventDefault() },
  choice("filter-status", t("web.list.status"), [["open", t("web.open_tables")], ["playing", t("web.playing_tables")],
    ["finished", t("web.finished_tables")]], filters.status),
  choice("filter-game", t("web.list.game"), [["", t("web.list.all_games")], ...all.map((g) => /** @type {[string, string]} */ ([g.id, g.title]))], filters.game),
  signedIn ? choice("filter-whose", t("web.list.whose"), [["all", t("web.list.everyone")], ["mine", t("web.list.mine")]], filters.whose) : null);
  fill(root, h("h1", {}, t("web.tables")), h("section.table-list", {}, form, count, list, more));
  await load(true);
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
