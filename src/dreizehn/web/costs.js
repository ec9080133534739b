// @ts-check
// What a play takes, said before it is made (the wire's `takes` of a legal action: 13's target pushed over 13,
// Holzwurm's row taken with the fate card): in the move list, on the place it goes and on the card.
import { h } from "./dom.js";
import { has, t } from "./i18n.js";

/** @typedef {{cards: number, points: number}} Takes */

/**
 * What a play takes, in words: the game's own sentence where its catalogue has one (`<game>.takes`: Holzwurm's
 * "takes the row's 3 cards and the top card of the fate row: −9 in hand", counted as its log counts them), else
 * "takes 4 cards: −9" (the points as the game counts them, signed).
 * @param {Takes} takes
 * @param {string} [game] the game's id
 */
export function costWords(takes, game) {
  const own = game ? `${game}.takes` : "";
  return t(own && has(own) ? own : "web.takes", { n: takes.cards, points: signed(takes.points) });
}

/**
 * Points with their sign: +4, −9, ±0.
 * @param {number} points
 */
export function signed(points) {
  return points > 0 ? `+${points}` : points < 0 ? `−${-points}` : "±0";
}

/**
 * The badge of a place or a card whose play takes cards: the points it brings, the words as its title.
 * @param {Takes} takes
 * @param {string} [game] the game's id
 */
export function costBadge(takes, game) {
  return h("span.cost-badge", { title: costWords(takes, game), "aria-hidden": "true" }, signed(takes.points));
}

/**
 * What playing a card takes when every play of it takes something (its first play's cost), else null: a card
 * with a safe play is not marked.
 * @param {{takes?: Takes}[]} plays the card's legal plays
 * @returns {Takes | null}
 */
export function cardCost(plays) {
  return plays.length && plays.every((a) => a.takes) ? /** @type {Takes} */ (plays[0].takes) : null;
}
