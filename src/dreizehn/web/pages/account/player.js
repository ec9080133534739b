// @ts-check
// A player's public profile (/players/{name}): the name, since when they play, the statistics per game and their
// last finished games (their public part only: GET /api/players/{name}), and their rating in each game they played
// rated with its course over their games as a small line (GET /api/ratings/{name}; docs/ratings.md). A signed-in
// visitor may ask them to be friends or block them.
import { get, post, Refused } from "../../api.js";
import { session } from "../../account.js";
import { fill, h, svg } from "../../dom.js";
import { lang, t } from "../../i18n.js";
import { ratingLine, ratingText } from "../../ratings.js";
import { deadEnd } from "../dead-end.js";
import { finishedList, leftShare, statsTable } from "./games.js";
import { gameTitles } from "./me.js";

/**
 * The buttons a signed-in visitor has on another's profile.
 * @param {string} name
 */
function visitorActions(name) {
  const said = h("p.status", { role: "status", id: "profile-status" });
  /**
   * @param {string} path
   * @param {string} words
   * @param {string} done
   * @param {string} [cls]
   */
  const button = (path, words, done, cls = "") => h(`button.small-button${cls}`, { type: "button", onclick: async () => {
    try {
      await post(path, { name });
      fill(said, done);
    } catch (err) { fill(said, h("span.error", {}, err instanceof Error ? err.message : String(err))); }
  } }, words);
  return h("div.profile-actions", {}, h("div.buttons", {},
    button("/api/me/friends", t("web.friends.ask"), t("web.friends.asked_now", { name }), ".primary"),
    button("/api/me/blocks", t("web.friends.block"), t("web.friends.blocked_now", { name }))), said);
}

/** @typedef {{game: string, rating: number, spread: number, games: number, provisional: boolean}} Rating */
/** @typedef {{at: string, rating: number, place: number}} RatingPoint */
/** @typedef {{level: string, players: number, rating: number, spread: number}} Level */

/**
 * A day as the profile writes it (short, in the page's language).
 * @param {string} at
 */
const dayOf = (at) => new Date(at).toLocaleDateString(lang(), { year: "numeric", month: "short", day: "numeric" });

/**
 * The line of a rating after each rated game, the lowest and highest on the left, the last game's rating marked.
 * @param {string} title the game's title
 * @param {RatingPoint[]} points the oldest first
 */
export function ratingPlot(title, points) {
  const [width, height, left] = [320, 96, 40];
  const values = points.map((p) => p.rating);
  const line = ratingLine(values, width - left, height, 8);
  const first = points[0];
  const last = points[points.length - 1];
  const label = t("web.profile.plot", { game: title, first: Math.round(first.rating), last: Math.round(last.rating),
    games: points.length, from: dayOf(first.at), to: dayOf(last.at) });
  const plot = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-plot", role: "img", "aria-label": label });
  const inside = svg("g", { transform: `translate(${left} 0)` });
  inside.append(
    svg("line", { x1: 0, x2: width - left, y1: line.y(line.high), y2: line.y(line.high), class: "grid" }),
    svg("line", { x1: 0, x2: width - left, y1: line.y(line.low), y2: line.y(line.low), class: "grid" }),
    svg("polyline", { points: line.points, class: "line" }),
    svg("circle", { cx: line.last.x, cy: line.last.y, r: 4, class: "now" }));
  plot.append(
    svg("text", { x: left - 6, y: line.y(line.high) + 4, "text-anchor": "end" }, String(line.high)),
    svg("text", { x: left - 6, y: line.y(line.low) + 4, "text-anchor": "end" }, String(line.low)), inside);
  const caption = points.length > 1 ? t("web.profile.plot_span", { games: points.length, from: dayOf(first.at), to: dayOf(last.at) })
    : t("web.profile.plot_one", { day: dayOf(first.at) });
  return h("figure.rating-figure", {}, plot, h("figcaption.muted", {}, caption));
}

/**
 * The bot levels' calibrated ratings of a game, to read one's own beside (docs/ratings.md, rule G5): "Bots (3
 * players): easy 461 · medium 1205 · …"; nothing where none is calibrated.
 * @param {Level[]} levels the weakest first
 */
function levelsLine(levels) {
  if (!levels.length) return null;
  const said = levels.map((l) => `${t(`web.level.${l.level}`)}\u00a0${Math.round(l.rating)}`).join("\u00a0· "); // a name and its number on one line, a line never begun with the dot
  return h("p.rating-bots.muted", {}, t("web.profile.bots", { players: levels[0].players, levels: said }));
}

/**
 * The player's ratings: per game its title, the rating ± its uncertainty (provisional marked) and its course.
 * @param {{ratings: Rating[], history: Record<string, RatingPoint[]>, levels?: Record<string, Level[]>}} rated
 * @param {Record<string, string>} titles
 */
export function ratingsView(rated, titles) {
  if (!rated.ratings.length) return h("p.muted", {}, t("web.profile.no_ratings"));
  return h("div.ratings", {}, rated.ratings.map((r) => {
    const title = titles[r.game] || r.game;
    const points = rated.history[r.game] || [];
    return h("div.rating-game", { "data-game": r.game },
      h("h3", {}, title),
      h("p.rating-now", {}, h("strong", {}, ratingText(r.rating, r.spread)), " ",
        h("span.muted", {}, t("web.profile.rated_games", { n: r.games })),
        r.provisional ? h("span.tag.provisional", { title: t("web.board.provisional_help") }, t("web.board.provisional")) : null),
      levelsLine((rated.levels || {})[r.game] || []),
      points.length ? ratingPlot(title, points) : null);
  }));
}

/**
 * @param {HTMLElement} root
 * @param {{setTitle: (text: string) => void}} app
 * @param {string} name the player's name, as the address has it
 */
export async function playerPage(root, app, name) {
  const who = decodeURIComponent(name);
  app.setTitle(who);
  let player;
  try {
    player = await get(`/api/players/${encodeURIComponent(who)}`);
  } catch (err) {
    if (!(err instanceof Refused) || err.status !== 404) throw err;
    app.setTitle(t("web.profile.none"));
    fill(root, deadEnd(t("web.profile.none"), err.message));
    return;
  }
  const [titles, rated] = await Promise.all([gameTitles(),
    get(`/api/ratings/${encodeURIComponent(who)}`).catch(() => ({ ratings: [], history: {} }))]);
  const me = session();
  const since = new Date(player.since).toLocaleDateString(lang(), { year: "numeric", month: "long", day: "numeric" });
  const left = leftShare(player.stats);
  fill(root, h("section.profile-head", {}, h("h1", {}, player.name), h("p.muted", {}, t("web.profile.since", { date: since })),
    left ? h("p.left-share", { id: "left-share" }, left) : null,
    me && me.name.toLowerCase() !== player.name.toLowerCase() ? visitorActions(player.name) : null),
  h("div.profile-main", {},
    h("section.panel", { "aria-labelledby": "ratings-title" }, h("h2", { id: "ratings-title" }, t("web.profile.ratings")), ratingsView(rated, titles)),
    h("section.panel", { "aria-labelledby": "stats-title" }, h("h2", { id: "stats-title" }, t("web.me.stats")), statsTable(player.stats, titles)),
    h("section.panel", { "aria-labelledby": "finished-title" }, h("h2", { id: "finished-title" }, t("web.profile.finished")), finishedList(player.finished, titles))));
}
