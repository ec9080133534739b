// @ts-check
// The daily deal (docs/ratings.md, rules D1-D4): today's deals, each game at each player count against the same
// bots; a button that starts a play of one; for a deal the person finished, everyone's results and the spread of the
// totals as a small box plot; a signed-in person's streak.
import { games, get } from "../api.js";
import { fill, h, link, svg } from "../dom.js";
import { lang, t } from "../i18n.js";
import { ask, boxPlot, rankText, session, tokenKey, totalText } from "../ratings.js";

/** @typedef {{game: string, players: number, table: string | null, finished: boolean}} Deal a deal as GET /api/daily lists it */
/** @typedef {{name: string | null, total: number, rank: number | null, replay: string, mine: boolean}} Row */
/** @typedef {{day: string, game: string, players: number, rows: Row[], spread: import("../ratings.js").Spread}} Results */
/** @typedef {{setTitle: (text: string) => void, go: (path: string) => void}} App */
/** @typedef {{day: string, bots: string, me: {name: string, csrf: string} | null, titles: Record<string, string>, app: App}} Ctx */

const NAME = "dreizehn.name";

/**
 * @param {HTMLElement} root where the page goes
 * @param {App} app
 */
export async function dailyPage(root, app) {
  app.setTitle(t("web.daily.title"));
  const [list, me, found] = await Promise.all([get("/api/daily"), session(), games()]);
  const history = me ? await get("/api/daily/me") : null;
  /** @type {Ctx} */
  const ctx = { day: list.day, bots: list.bots, me, titles: Object.fromEntries(found.map((g) => [g.id, g.title])), app };
  const name = me ? null : h("p.field.daily-name", {}, h("label", { for: "daily-name" }, t("web.your_name")),
    h("input", { id: "daily-name", maxlength: 40, value: localStorage.getItem(NAME) || "", autocomplete: "nickname" }));
  fill(root, h("section.daily", {},
    h("h1", {}, t("web.daily.title")),
    h("p.lead", {}, t("web.daily.lead", { day: dayText(list.day) })),
    history ? h("p.streak", {}, t("web.daily.streak", { n: history.streak })) : h("p.muted", {}, t("web.daily.guest")),
    name,
    h("div.daily-games", {}, found.filter((g) => list.deals.some((/** @type {Deal} */ d) => d.game === g.id))
      .map((g) => gameCard(g.id, list.deals.filter((/** @type {Deal} */ d) => d.game === g.id), ctx)))));
}

/**
 * A day (ISO 8601 date, UTC) as the page's language writes it: "28 November 2026".
 * @param {string} day
 */
export function dayText(day) {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString(lang(), { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

/**
 * One game's deals: a button for each player count (or the way back to a play started), then each played deal's
 * results (or, for a guest whose game is not over, the way back to it).
 * @param {string} game
 * @param {Deal[]} deals
 * @param {Ctx} ctx
 */
function gameCard(game, deals, ctx) {
  const error = h("p.error", { role: "alert" });
  const buttons = [];
  const played = [];
  for (const deal of deals) {
    const token = localStorage.getItem(tokenKey(ctx.day, deal.game, deal.players));
    const started = ctx.me ? deal.table !== null : token !== null;
    if (!ctx.me || !started) buttons.push(playButton(deal, ctx, error));
    else if (!deal.finished) {
      buttons.push(link(token ? `/play/${token}` : `/seat/${deal.table}/0`,
        `${t("web.daily.players", { n: deal.players })} · ${t("web.daily.continue")}`, "button.continue"));
    }
    if (started && (deal.finished || !ctx.me)) played.push(dealResults(deal, ctx, token));
  }
  return h("article.daily-game", { "data-game": game },
    h("h2", {}, ctx.titles[game] || game),
    h("p.muted", {}, t("web.daily.against", { level: t(`web.level.${ctx.bots}`) })),
    h("div.buttons.daily-counts", {}, h("span.daily-play", {}, t("web.daily.play")), buttons), error, played);
}

/**
 * A played deal: its results, loaded.
 * @param {Deal} deal
 * @param {Ctx} ctx
 * @param {string | null} token the guest's seat token
 */
function dealResults(deal, ctx, token) {
  const results = h("div.daily-results");
  showResults(results, deal, ctx, token);
  return h("section.daily-deal", { "data-game": deal.game, "data-players": deal.players },
    h("h3", {}, t("web.daily.players", { n: deal.players })), results);
}

/**
 * "Play": starts a play of the deal (POST /api/daily/{game}/{players}) and goes to its table.
 * @param {Deal} deal
 * @param {Ctx} ctx
 * @param {HTMLElement} error where a refusal is said
 */
function playButton(deal, ctx, error) {
  async function play() {
    const input = /** @type {HTMLInputElement | null} */ (document.getElementById("daily-name"));
    const name = input ? input.value.trim() : "";
    try {
      const start = await ask("POST", `/api/daily/${deal.game}/${deal.players}`, { body: { name },
        headers: ctx.me ? { "X-CSRF-Token": ctx.me.csrf } : {} });
      if (name) localStorage.setItem(NAME, name);
      localStorage.setItem(tokenKey(ctx.day, deal.game, deal.players), start.token);
      ctx.app.go(start.url.startsWith("/play/") ? start.url : `/play/${start.token}`);
    } catch (err) { fill(error, err instanceof Error ? err.message : String(err)); }
  }
  return h("button.primary", { type: "button", id: `play-${deal.game}-${deal.players}`, onclick: play },
    t("web.daily.players", { n: deal.players }));
}

/**
 * Load a deal's results into `el`: the table and the box plot, or, for a guest whose game is not over, the way back
 * to it.
 * @param {HTMLElement} el
 * @param {Deal} deal
 * @param {Ctx} ctx
 * @param {string | null} token the guest's seat token
 */
async function showResults(el, deal, ctx, token) {
  fill(el, h("p.loading", {}, "…"));
  try {
    /** @type {Results} */
    const results = await ask("GET", `/api/daily/${ctx.day}/${deal.game}/${deal.players}/results`,
      { headers: !ctx.me && token ? { "X-Seat-Token": token } : {} });
    fill(el, resultsView(results));
  } catch (err) {
    const status = err && typeof err === "object" && "status" in err ? err.status : 0;
    if (status === 403 && token) {
      fill(el, h("p", {}, t("web.daily.unfinished"), " ", link(`/play/${token}`, t("web.daily.continue"), "button.small-button")));
    } else fill(el, h("p.error", { role: "alert" }, err instanceof Error ? err.message : String(err)));
  }
}

/**
 * A deal's results: the spread of the totals drawn as a box plot, then every finished play, the best first, the
 * person's own row marked.
 * @param {Results} results
 */
export function resultsView(results) {
  const mine = results.rows.find((r) => r.mine);
  let above = /** @type {number | null | undefined} */ (undefined);
  const rows = results.rows.map((row) => {
    const rank = rankText(row.rank, above);
    above = row.rank;
    return h(`tr${row.mine ? ".mine" : ""}`, row.mine ? { "aria-current": "true" } : {},
      h("td.num", {}, rank),
      h("td", {}, row.name === null ? h("span.muted", {}, t("web.daily.a_guest")) : row.name,
        row.mine ? h("span.tag.you", {}, t("web.daily.you")) : null),
      h("td.num", {}, String(row.total)),
      h("td", {}, link(row.replay, t("web.replay"))));
  });
  return h("div.daily-result", {},
    h("h4", {}, t("web.daily.results", { n: results.spread.n })),
    spreadFigure(results.spread, mine ? mine.total : null),
    h("table.board", {}, h("thead", {}, h("tr", {}, h("th.num", { scope: "col" }, t("web.board.rank")),
      h("th", { scope: "col" }, t("web.board.name")), h("th.num", { scope: "col" }, t("web.total")),
      h("th", { scope: "col" }, t("web.replay")))), h("tbody", {}, rows)));
}

/**
 * The spread of the totals (lowest, quartiles, median, highest) as a small box plot, the person's total marked.
 * @param {import("../ratings.js").Spread} spread
 * @param {number | null} mine
 */
function spreadFigure(spread, mine) {
  const [width, height] = [320, 56];
  const g = boxPlot(spread, mine, width, 28, 14);
  const words = ["lowest", "quartile1", "median", "quartile3", "highest"].map((k) =>
    `${t(`web.daily.${k}`)} ${totalText(spread[/** @type {keyof typeof spread} */ (k)])}`);
  const plot = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "box-plot", role: "img", "aria-label": words.join(", ") });
  plot.append(
    svg("line", { x1: g.lowest, x2: g.quartile1, y1: g.mid, y2: g.mid, class: "whisker" }),
    svg("line", { x1: g.quartile3, x2: g.highest, y1: g.mid, y2: g.mid, class: "whisker" }),
    ...[g.lowest, g.highest].map((x) => svg("line", { x1: x, x2: x, y1: g.mid - 6, y2: g.mid + 6, class: "whisker" })),
    svg("rect", { ...g.box, class: "box" }),
    svg("line", { x1: g.median, x2: g.median, y1: g.box.y, y2: g.box.y + g.box.height, class: "median" }),
    svg("text", { x: g.median, y: height - 4, "text-anchor": "middle" }, totalText(spread.median)));
  // the ends' numbers where they do not run into the median's
  if (g.median - g.lowest > 36) plot.append(svg("text", { x: g.lowest, y: height - 4, "text-anchor": "start" }, totalText(spread.lowest)));
  if (g.highest - g.median > 36) plot.append(svg("text", { x: g.highest, y: height - 4, "text-anchor": "end" }, totalText(spread.highest)));
  if (g.mine !== null) plot.append(svg("circle", { cx: g.mine, cy: g.mid, r: 5, class: "mine" }));
  return h("figure.spread", {}, plot, h("figcaption.muted", {}, words.join(" · ")));
}
