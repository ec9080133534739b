// @ts-check
// The score sheet (each stage's points and the totals) and the standings of the windows between stages and at the
// end, ordered by the game's own fact of which way totals win.
import { gameFacts } from "../../api.js";
import { h, redraw } from "../../dom.js";
import { lang, t } from "../../i18n.js";
import { standingsOrder } from "../../scores.js";
import { totalsOf } from "./model.js";

/** @typedef {import("./model.js").View} View */

/**
 * What a stage of `game` is called, once (its `stage_name` in words).
 * @param {string | null} game
 */
export function stageName(game) {
  return t(`${game}.stage`, { n: 1 });
}

/**
 * The score sheet, re-drawn when a stage is scored (or the names or the language change).
 * @param {HTMLElement} el
 * @param {string | null} game
 * @param {View} view
 * @param {string[]} names
 */
export function drawScoreSheet(el, game, view, names) {
  const totals = totalsOf(view);
  redraw(el, JSON.stringify([lang(), game, names, view.stage_scores]), () => [h("h2", {}, t("web.score_sheet")),
    h("table.scores", { id: "scores" }, h("thead", {}, h("tr", {}, h("th", {}, stageName(game)), names.map((x) => h("th", {}, x)))),
      h("tbody", {}, view.stage_scores.map((row, i) => h("tr", {}, h("td", {}, i + 1), row.map((v) => h("td", {}, v))))),
      h("tfoot", {}, h("tr", {}, h("th", {}, t("web.total")), totals.map((v) => h("th", {}, v)))))]);
}

/** The winner's trophy: a picture the app ships (an emoji shows as an empty box where no emoji font is installed). */
function trophy() {
  return h("img.trophy", { src: "/static/img/trophy.svg", alt: t("web.winner"), title: t("web.winner"), width: 18, height: 18 });
}

/**
 * The standings: the seats best first (by the game's `high_score_wins`), the winners marked when known, and the
 * stage's points when given.
 * @param {string | null} game
 * @param {string[]} names
 * @param {number[]} totals
 * @param {number[] | null} winners
 * @param {number[] | null} scores
 */
export function standings(game, names, totals, winners, scores) {
  const order = standingsOrder(totals, !!(game && gameFacts(game)?.high_score_wins));
  const won = (/** @type {number} */ i) => !!winners && winners.includes(i);
  return h("table.standings", {},
    h("thead", {}, h("tr", {}, h("th", {}, t("web.player")), scores ? h("th", {}, t("web.points")) : null, h("th", {}, t("web.total")))),
    h("tbody", {}, order.map((i) => h(`tr${won(i) ? ".winner" : ""}`, {}, h("td", {}, names[i], won(i) ? trophy() : null),
      scores ? h("td", {}, scores[i]) : null, h("td", {}, totals[i])))));
}
