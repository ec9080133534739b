// Cards drawn in CSS: value and a shape per colour (or the suit), so the colour is also written and shaped
// (colour-blind friendly), with the card said in words for screen readers and as the tooltip.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const K13 = { B: ["blue", "●"], Y: ["yellow", "▲"], G: ["green", "■"], R: ["red", "✖"] };
const HOLZ = { Y: ["yellow", "▲"], R: ["red", "◆"], G: ["green", "■"], P: ["purple", "★"], B: ["blue", "●"], N: ["grey", "○"] };
const SUITS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

/** What a card shows: its colour class, big value, shape, and its words (a card of a game not drawn yet: its notation). */
export function describe(game, text) {
  const plain = { colour: "plain", value: text, shape: "", label: text };
  if (game === "knizia13") {
    if (!K13[text[0]]) return plain;
    const [colour, shape] = K13[text[0]];
    const value = text.slice(1);
    const label = text === "R4" ? t("knizia13.card.nasty") : t("knizia13.card", { colour: t(`knizia13.colour.${colour}`), value });
    return { colour, value, shape, label };
  }
  if (game === "three-thirteen") {
    const suit = text.slice(-1);
    const rank = text.slice(0, -1);
    const rankWord = /^[AJQK]$/.test(rank) ? t(`three-thirteen.rank.${rank}`) : rank;
    return {
      colour: SUITS[suit], value: rank, shape: t(`three-thirteen.suit.${suit}.short`),
      label: t("three-thirteen.card", { rank: rankWord, suit: t(`three-thirteen.suit.${suit}`) }),
    };
  }
  if (game !== "holzwurm") return plain;
  if (text === "13") return { colour: "thirteen", value: "−13", shape: "☠", label: t("holzwurm.card.thirteen") };
  if (!HOLZ[text[0]]) return plain;
  const [colour, shape] = HOLZ[text[0]];
  const value = text.slice(1);
  return { colour, value, shape, label: t(`holzwurm.card.${colour}`, { value }) };
}

/**
 * A card: a button when `onclick` is given (marked legal or not), else a plain face.
 * @param {string} game the game id
 * @param {string} text the card's notation
 * @param {{onclick?: Function, legal?: boolean, selected?: boolean, small?: boolean, extra?: string}} opts
 */
export function card(game, text, opts = {}) {
  const d = describe(game, text);
  const classes = ["card", `c-${d.colour}`, opts.small ? "small" : "", opts.legal ? "legal" : "",
    opts.selected ? "selected" : "", opts.extra || ""].filter(Boolean).join(".");
  const face = [h("span.v", { "aria-hidden": "true" }, d.value), h("span.s", { "aria-hidden": "true" }, d.shape)];
  if (opts.onclick) {
    return h(`button.${classes}`, {
      type: "button", "data-card": text, "aria-label": d.label, title: d.label, onclick: opts.onclick,
      "aria-pressed": opts.selected ? "true" : undefined,
    }, face);
  }
  return h(`span.${classes}`, { "data-card": text, role: "img", "aria-label": d.label, title: d.label }, face);
}

/** A face-down card (a stock, a hand's size). */
export function back(label, opts = {}) {
  const tag = opts.onclick ? "button" : "span";
  return h(`${tag}.card.back${opts.legal ? ".legal" : ""}${opts.small ? ".small" : ""}`, {
    type: opts.onclick ? "button" : undefined, "aria-label": label, title: label, onclick: opts.onclick,
    role: opts.onclick ? undefined : "img", "data-back": opts.name || "",
  }, h("span.count", {}, opts.count ?? ""));
}
