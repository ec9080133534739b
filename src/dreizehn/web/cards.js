// @ts-check
// Cards drawn in CSS: value and a shape per colour (or the suit), so the colour is also written and shaped
// (colour-blind friendly), with the card said in words for screen readers and as the tooltip. What each card shows
// is the game's (its faces in /api/games): no game is named here.
import { h } from "./dom.js";

/** @typedef {{colour: string, value: string, shape: string, label: string}} Face what a card shows */

/** @type {Map<string, Record<string, Face>>} */
const faces = new Map();

/**
 * Keep every game's card faces as `/api/games` gives them: `[{id, faces: {notation: {colour, value, shape, label}}}]`.
 * @param {{id: string, faces?: Record<string, Face>}[]} games
 */
export function learnFaces(games) {
  for (const game of games) faces.set(game.id, game.faces || {});
}

/**
 * What a card shows: its colour class, big value, shape, and its words (a card of a game not known: its notation).
 * @param {string} game
 * @param {string} text
 * @returns {Face}
 */
export function describe(game, text) {
  const face = faces.get(game)?.[text];
  return face ? { ...face } : { colour: "plain", value: text, shape: "", label: text };
}

/**
 * Whether `text` is the notation of a card of `game` (one of its faces).
 * @param {string} game
 * @param {unknown} text
 */
export function isCard(game, text) {
  return typeof text === "string" && faces.get(game)?.[text] !== undefined;
}

/**
 * A card: a button when `onclick` is given (marked legal or not), else a plain face.
 * @param {string} game the game id
 * @param {string} text the card's notation
 * @param {{onclick?: Function, legal?: boolean, selected?: boolean, small?: boolean, extra?: string,
 *   badge?: HTMLElement | null, note?: string}} opts `badge`: an element shown on the face (what its play takes),
 *   `note`: words added to its label
 */
export function card(game, text, opts = {}) {
  const d = describe(game, text);
  const classes = ["card", `c-${d.colour}`, opts.small ? "small" : "", opts.legal ? "legal" : "",
    opts.selected ? "selected" : "", opts.extra || ""].filter(Boolean).join(".");
  const face = [h("span.v", { "aria-hidden": "true" }, d.value), h("span.s", { "aria-hidden": "true" }, d.shape),
    opts.badge || null];
  if (opts.onclick) {
    const label = opts.note ? `${d.label} — ${opts.note}` : d.label;
    return h(`button.${classes}`, {
      type: "button", "data-card": text, "aria-label": label, title: label, onclick: opts.onclick,
      "aria-pressed": opts.selected ? "true" : undefined,
    }, face);
  }
  return h(`span.${classes}`, { "data-card": text, role: "img", "aria-label": d.label, title: d.label }, face);
}

/**
 * A face-down card (a stock, a hand's size).
 * @param {string} label its words
 * @param {{onclick?: Function, legal?: boolean, small?: boolean, name?: string, count?: number}} [opts]
 */
export function back(label, opts = {}) {
  const tag = opts.onclick ? "button" : "span";
  return h(`${tag}.card.back${opts.legal ? ".legal" : ""}${opts.small ? ".small" : ""}`, {
    type: opts.onclick ? "button" : undefined, "aria-label": label, title: label, onclick: opts.onclick,
    role: opts.onclick ? undefined : "img", "data-back": opts.name || "",
  }, h("span.count", {}, opts.count ?? ""));
}
