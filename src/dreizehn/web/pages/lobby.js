// @ts-check
// The lobby (docs/lobby.md, rules L1-L6): "Play now" for a signed-in person (a game, the players, real-time or
// turn-based, rated or not, when bots fill the free seats); while they wait, their place (GET /api/lobby every 3
// seconds: the page's heartbeat, rule L2), the ready check of a real-time table, and their new table's seat once it is
// made. Beside it: who is online, who waits for what, open tables with free seats and tables to watch.
import { del, games, get, levelsAt, post } from "../api.js";
import { session } from "../account.js";
import { fill, h, link } from "../dom.js";
import { t } from "../i18n.js";
import { seatLabel, tableAction } from "./tables.js";

/** @typedef {{setTitle: (text: string) => void, go: (path: string) => void}} App */
/** @typedef {import("../api.js").GameFacts} GameFacts */
/** @typedef {{state: string, game: string, players: number, pace: string, move_time: number | null, rated: boolean,
 *   bot_wait: number | null, bot_level: string, queued_at: string, waiting: number, ready: boolean,
 *   ready_due: string | null, group: string[], bots: number, url: string | null}} Place a person's place (QueueOut) */
/** @typedef {{game: string, players: number, pace: string, move_time: number | null, rated: boolean, count: number}} Waiting */
/** @typedef {import("./tables.js").TableSummary} Table */

const HEARTBEAT_MS = 3000;
const TABLES_MS = 10000;
/** @typedef {{app: App, found: GameFacts[], titles: Record<string, string>, play: HTMLElement, refresh: () => Promise<unknown>,
 *   waited?: boolean, left?: boolean}} Ctx the page: waited, once it showed the person waiting (a table found then is gone
 *   to at once); left, once they left the queue themselves */
const MOVE_TIMES = [3600, 43200, 86400, 259200, 604800];
const BOT_WAITS = ["0", "30", "60", "120", "300", "never"];
const CHOICE = "dreizehn.lobby";

/**
 * @param {HTMLElement} root where the page goes
 * @param {App} app
 */
export async function lobbyPage(root, app) {
  app.setTitle(t("web.lobby.title"));
  const found = await games();
  const titles = Object.fromEntries(found.map((g) => [g.id, g.title]));
  const play = h("section.panel.lobby-play", { "aria-live": "polite" });
  const people = h("div.lobby-people");
  const tables = h("div.lobby-tables");
  fill(root, h("section.lobby", {}, h("h1", {}, t("web.lobby.title")), h("p.lead", {}, t("web.lobby.lead")), play,
    h("div.lobby-overview", {}, people, tables)));
  /** @type {Ctx} */
  const ctx = { app, found, titles, play, refresh: async () => {
    const lobby = await get("/api/lobby");
    fill(people, ...peopleParts(lobby, titles));
    if (session()) showPlace(lobby.me, ctx);
  } };
  if (!session()) fill(play, signInToPlay());
  const listTables = async () => {  // not drawn over a name typed while the list was asked for
    const parts = await tablesParts(titles, app);
    if (!typing(tables)) fill(tables, ...parts);
  };
  await Promise.all([ctx.refresh(), listTables()]);
  const timers = [window.setInterval(() => { ctx.refresh().catch(() => null); }, HEARTBEAT_MS),
    window.setInterval(() => { if (!typing(tables)) listTables().catch(() => null); }, TABLES_MS)];
  return { dispose: () => timers.forEach((id) => window.clearInterval(id)) };
}

/**
 * Whether the person is taking a seat in the list (its field focused, or a name typed there): the list is then not
 * drawn again, which would lose what they typed.
 * @param {HTMLElement} list
 */
function typing(list) {
  const fields = /** @type {HTMLInputElement[]} */ ([...list.querySelectorAll("input")]);
  return list.contains(document.activeElement) || fields.some((f) => f.value !== f.defaultValue);
}

function signInToPlay() {
  const next = `?next=${encodeURIComponent("/lobby")}`;
  return [h("h2", {}, t("web.lobby.play_now")), h("p", {}, t("web.lobby.sign_in")),
    h("div.buttons", {}, link(`/signin${next}`, t("web.account.sign_in"), "button.primary"), link(`/signup${next}`, t("web.account.sign_up"), "button"))];
}

/**
 * The person's place (GET /api/lobby's ``me``: asking is the page's heartbeat): the form when they wait for nothing,
 * else where they stand; their seat's page once their table is made.
 * @param {Place | null} place
 * @param {Ctx} ctx
 */
function showPlace(place, ctx) {
  if (place && place.state === "seated" && place.url && ctx.waited) {  // found while this page waited: to the table
    ctx.app.go(place.url);
    return;
  }
  if (!place) {
    if (ctx.play.querySelector("form")) return;
    const dropped = ctx.waited && !ctx.left;  // not by "Leave the queue": a ready check missed, or the page was away
    ctx.waited = ctx.left = false;
    fill(ctx.play, dropped ? h("p.lobby-dropped", { role: "status" }, t("web.lobby.dropped")) : null, playForm(ctx));
    return;
  }
  fill(ctx.play, placeParts(place, ctx));
}

/**
 * What a person asked for, in words: "Knizia's 13 · 4 players · turn-based, 1 day to move · rated".
 * @param {{game: string, players: number, pace: string, move_time: number | null, rated: boolean}} what
 * @param {Record<string, string>} titles
 */
export function kindText(what, titles) {
  const pace = what.pace === "turn-based" ? `${t("web.lobby.turn_based")}, ${t("web.lobby.to_move", { time: timeText(what.move_time || 0) })}` : t("web.lobby.realtime");
  return [titles[what.game] || what.game, t("web.lobby.n_players", { n: what.players }), pace, what.rated ? t("web.lobby.rated_mark") : null]
    .filter(Boolean).join(" · ");
}

/**
 * A time to move in hours or days: "12 hours", "3 days".
 * @param {number} seconds
 */
export function timeText(seconds) {
  return seconds % 86400 === 0 ? t("web.lobby.days", { n: seconds / 86400 }) : t("web.lobby.hours", { n: Math.round(seconds / 3600) });
}

/**
 * A bot wait as the form offers it: "at once", "after 2 minutes", "never".
 * @param {string} wait seconds, or "never"
 */
function waitText(wait) {
  if (wait === "never") return t("web.lobby.bots_never");
  const s = Number(wait);
  if (s === 0) return t("web.lobby.bots_at_once");
  return s < 60 ? t("web.lobby.after_seconds", { n: s }) : t("web.lobby.after_minutes", { n: s / 60 });
}

/**
 * A labelled select.
 * @param {string} id
 * @param {string} label
 * @param {Array<[string, string]>} options value and text
 * @param {string} value
 * @param {(value: string) => void} [changed]
 */
function choice(id, label, options, value, changed) {
  const select = /** @type {HTMLSelectElement} */ (h("select", { id, name: id, onchange: () => changed && changed(select.value) },
    options.map(([v, text]) => h("option", { value: v }, text))));
  select.value = options.some(([v]) => v === value) ? value : options[0][0];
  return { select, field: h("div.field", {}, h("label", { for: id }, label), select) };
}

/**
 * The levels offered at the players chosen (`learned` only where its network plays), the choice kept where offered.
 * @param {HTMLSelectElement} select
 * @param {string[]} levels
 */
export function offerLevels(select, levels) {
  const was = select.value;
  fill(select, levels.map((l) => h("option", { value: l }, t(`web.level.${l}`))));
  select.value = levels.includes(was) ? was : levels.includes("medium") ? "medium" : levels[0];
}

/**
 * "Play now": the game, players, pace (and time to move), rated, when bots come and at which level; the last
 * choice kept in this browser.
 * @param {Ctx} ctx
 */
function playForm(ctx) {
  /** @type {Record<string, string>} */
  const kept = JSON.parse(localStorage.getItem(CHOICE) || "{}");
  const level = (session()?.settings || {}).bot_level || "medium";
  const form = h("form.lobby-form", {});
  const draw = (/** @type {string} */ gameId) => {
    const game = ctx.found.find((g) => g.id === gameId) || ctx.found[0];
    const counts = Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) => String(game.min_players + i));
    const f = {
      game: choice("lobby-game", t("web.lobby.game"), ctx.found.map((g) => [g.id, g.title]), game.id, draw),
      players: choice("lobby-players", t("web.player_count"), counts.map((n) => [n, n]), kept.players || "4",
        (v) => offerLevels(f.level.select, levelsAt(game, Number(v)))),
      pace: choice("lobby-pace", t("web.lobby.pace"), [["realtime", t("web.lobby.realtime")], ["turn-based", t("web.lobby.turn_based")]], kept.pace || "realtime",
        (v) => { f.move.field.hidden = v !== "turn-based"; }),
      move: choice("lobby-move", t("web.lobby.move_time"), MOVE_TIMES.map((s) => [String(s), timeText(s)]), kept.move || "86400"),
      wait: choice("lobby-wait", t("web.lobby.bot_wait"), BOT_WAITS.map((w) => [w, waitText(w)]), kept.wait || "60"),
      level: choice("lobby-level", t("web.lobby.bot_level"), game.levels.map((/** @type {string} */ l) => [l, t(`web.level.${l}`)]), kept.level || level),
    };
    offerLevels(f.level.select, levelsAt(game, Number(f.players.select.value)));
    f.move.field.hidden = f.pace.select.value !== "turn-based";
    const rated = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id: "lobby-rated", checked: kept.rated === "1" ? true : undefined }));
    const error = h("p.error", { role: "alert" });
    fill(form, h("h2", {}, t("web.lobby.play_now")), h("div.lobby-fields", {}, f.game.field, f.players.field, f.pace.field, f.move.field, f.wait.field, f.level.field),
      h("div.field.check", {}, rated, h("label", { for: "lobby-rated" }, t("web.lobby.rated")), h("p.help", {}, t("web.lobby.rated_help"))),
      error, h("button.primary", { type: "submit" }, t("web.lobby.play_now")));
    form.onsubmit = async (e) => {
      e.preventDefault();
      const picked = { game: f.game.select.value, players: f.players.select.value, pace: f.pace.select.value,
        move: f.move.select.value, wait: f.wait.select.value, level: f.level.select.value, rated: rated.checked ? "1" : "" };
      localStorage.setItem(CHOICE, JSON.stringify(picked));
      try {
        const place = await post("/api/lobby/queue", { game: picked.game, players: Number(picked.players), pace: picked.pace,
          move_time: picked.pace === "turn-based" ? Number(picked.move) : null, rated: rated.checked,
          bot_wait: picked.wait === "never" ? null : Number(picked.wait), bot_level: picked.level });
        fill(ctx.play, placeParts(place, ctx));
        ctx.refresh().catch(() => null);
      } catch (err) { fill(error, err instanceof Error ? err.message : String(err)); }
    };
  };
  draw(kept.game || ctx.found[0].id);
  return form;
}

/**
 * Where the person stands: waiting (for what, with how many, since when), in a ready check, or their table being
 * made; with the way out of the queue.
 * @param {Place} place
 * @param {Ctx} ctx
 */
function placeParts(place, ctx) {
  const leave = h("button", { type: "button", onclick: async () => {
    ctx.left = true;
    await del("/api/lobby/queue").catch(() => null);
    fill(ctx.play, playForm(ctx));
    ctx.refresh().catch(() => null);
  } }, t("web.lobby.leave"));
  const what = h("p.lobby-what", {}, kindText(place, ctx.titles));
  if (place.state !== "seated") ctx.waited = true;
  if (place.state === "seated" && place.url) {  // found before this page was opened (another tab): shown, not gone to
    const again = h("button", { type: "button", onclick: async () => {
      await del("/api/lobby/queue").catch(() => null);
      fill(ctx.play, playForm(ctx));
    } }, t("web.lobby.new_game"));
    return [h("h2", {}, t("web.lobby.table_ready")), what, h("div.buttons", {}, link(place.url, t("web.lobby.open_table"), "button.primary"), again)];
  }
  if (place.state === "ready") {
    const left = Math.max(0, Math.round((Date.parse(place.ready_due || "") - Date.now()) / 1000));
    const names = [place.group.join(", "), place.bots ? t("web.lobby.with_bots", { n: place.bots }) : ""].join(" ").trim();
    const ready = h("button.primary", { type: "button", disabled: place.ready ? true : undefined, onclick: async () => {
      const now = await post("/api/lobby/ready", {});
      if (now.state === "seated" && now.url) ctx.app.go(now.url);
      else fill(ctx.play, placeParts(now, ctx));
    } }, t("web.lobby.ready"));
    return [h("h2", {}, t("web.lobby.found")), what, h("p", {}, names),
      h("p.lobby-due", {}, place.ready ? t("web.lobby.confirmed") : t("web.lobby.confirm_in", { n: left })),
      h("div.buttons", {}, ready, leave)];
  }
  if (place.state === "making") return [h("h2", {}, t("web.lobby.making")), what];
  const since = Math.max(0, Math.round((Date.now() - Date.parse(place.queued_at)) / 60000));
  return [h("h2", {}, t("web.lobby.waiting_for")), what,
    h("p", {}, t("web.lobby.waiting_count", { n: place.waiting }), " · ", since ? t("web.lobby.since", { n: since }) : t("web.lobby.just_queued")),
    h("p.muted", {}, place.bot_wait === null ? t("web.lobby.people_only") : t("web.lobby.bots_come", { when: waitText(String(place.bot_wait)), level: t(`web.level.${place.bot_level}`) })),
    h("div.buttons", {}, leave)];
}

/**
 * Who is online and who waits for what.
 * @param {{online: number, online_names: string[], waiting: Waiting[]}} lobby GET /api/lobby
 * @param {Record<string, string>} titles
 */
function peopleParts(lobby, titles) {
  return [
    h("section.panel.lobby-online", {}, h("h2", {}, t("web.lobby.online", { n: lobby.online })), h("p.help", {}, t("web.lobby.online_help")),
      h("p.lobby-names", {}, lobby.online_names.map((name, i) => [i ? ", " : "", link(`/players/${encodeURIComponent(name)}`, name)]))),
    h("section.panel.lobby-waiting", {}, h("h2", {}, t("web.lobby.waiting_title")),
      lobby.waiting.length ? h("ul", {}, lobby.waiting.map((w) => h("li", {}, kindText(w, titles), ": ", h("strong", {}, t("web.lobby.waiting_n", { n: w.count })))))
        : h("p.muted", {}, t("web.lobby.nobody_waits"))),
  ];
}

/**
 * Open tables with free seats (a seat taken here, as on the tables page), tables being played.
 * @param {Record<string, string>} titles
 * @param {App} app
 */
async function tablesParts(titles, app) {
  const [open, playing] = await Promise.all([get("/api/tables?status=open"), get("/api/tables?status=playing")]);
  const free = open.filter((/** @type {Table} */ table) => table.seats.some((s) => s.kind === "person" && !s.joined));
  const tableItem = (/** @type {Table} */ table, /** @type {unknown} */ action) => h("li", { "data-table": table.id },
    h("strong", {}, titles[table.game] || table.game), " · ", table.seats.map(seatLabel).join(", "), " ", action);
  const list = (/** @type {unknown[]} */ items) => (items.length ? h("ul", {}, items) : h("p.muted", {}, t("web.none")));
  return [
    h("section.panel.table-list.lobby-open", {}, h("h2", {}, t("web.lobby.open")),
      list(free.map((/** @type {Table} */ table) => tableItem(table, tableAction(table, app))))),
    h("section.panel.table-list.lobby-running", {}, h("h2", {}, t("web.lobby.running")),
      list(playing.map((/** @type {Table} */ table) => tableItem(table, link(`/watch/${table.id}`, t("web.watch"), "button.small-button"))))),
  ];
}
