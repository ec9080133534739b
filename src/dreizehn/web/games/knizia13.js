// @ts-check
// 13: the three coloured targets with their cards and sums, the hand, the stock, and how many cards each player has
// taken (the taken cards themselves only under the open-piles option).
import { back, card } from "../cards.js";
import { cardCost, costBadge, costWords } from "../costs.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("../pages/table/model.js").View} View */
/** @typedef {import("../pages/table/board.js").DrawContext} DrawContext */
/**
 * @typedef {View & {hand: string[], hand_sizes: number[], taken_sizes: number[], targets: string[][],
 *   stock_size: number, taken?: string[][] | null}} Knizia13View 13's view (docs/wire.md)
 */

const TARGETS = [["blue", "B"], ["yellow", "Y"], ["green", "G"]];
const value = (/** @type {string} */ text) => Number(text.slice(1));

/** A seat's line in the players' bar: cards in hand, cards taken. */
/**
 * @param {View} view
 * @param {number} seat
 * @returns {string[]}
 */
export function seatInfo(view, seat) {
  return [t("web.in_hand", { n: view.hand_sizes[seat] }), t("web.k13.taken", { n: view.taken_sizes[seat] })];
}

/** The action a click on a hand card asks for, when it is not one of the legal ones (the server explains why). */
/** @param {string} text */
export function attempt(text) {
  return text === "R4" ? "R4>B" : text;
}

/**
 * @param {Knizia13View} view
 * @param {DrawContext} ctx
 */
export function draw(view, ctx) {
  const choices = ctx.selected ? ctx.legal.filter((a) => a.text.startsWith(`${ctx.selected}>`)) : [];
  const targets = h("div.targets", {}, TARGETS.map(([colour, letter], i) => {
    const cards = view.targets[i];
    const sum = cards.reduce((s, c) => s + value(c), 0);
    const choice = choices.find((a) => a.text.endsWith(`>${letter}`));
    const body = [
      h("div.target-head", {}, h("span.target-name", {}, t(`knizia13.colour.${colour}.noun`)),
        h("span.sum", { "data-sum": sum, title: t("web.sum", { sum }) }, t("web.sum", { sum }))),
      h("div.pile", {}, cards.length ? cards.map((c) => card("knizia13", c, { small: true })) : h("span.empty", {}, "—")),
    ];
    const cls = `target.t-${colour}${sum > 13 - 1 ? ".hot" : ""}`;
    if (choice) {
      const words = choice.takes ? `${choice.words} — ${costWords(choice.takes, "knizia13")}` : choice.words;
      return h(`button.${cls}.legal${choice.takes ? ".takes" : ""}`, { type: "button", "data-target": colour, title: words,
        "aria-label": words, onclick: () => ctx.act(choice.text) }, body, choice.takes ? costBadge(choice.takes, "knizia13") : null);
    }
    return h(`section.${cls}`, { "data-target": colour, "aria-label": t(`knizia13.colour.${colour}.noun`) }, body);
  }));
  const stock = h("div.stock", {}, back(t("knizia13.view.stock", { n: view.stock_size }), { count: view.stock_size, name: "stock" }),
    h("span.caption", {}, t("web.k13.stock")));
  const hand = ctx.handRow(view.hand.map((c) => {
    const plays = ctx.legal.filter((a) => a.text === c || a.text.startsWith(`${c}>`));
    const legal = plays.length > 0;
    const cost = cardCost(plays);
    return card("knizia13", c, {
      legal, selected: ctx.selected === c, extra: cost ? "takes" : "", badge: cost ? costBadge(cost, "knizia13") : null,
      note: cost ? costWords(cost, "knizia13") : undefined, onclick: () => {
        const mine = ctx.legal.filter((a) => a.text === c || a.text.startsWith(`${c}>`));
        if (mine.length === 1) ctx.act(mine[0].text);
        else if (mine.length > 1) ctx.select(c);
        else ctx.act(attempt(c));
      },
    });
  }));
  const parts = [h("div.board-row", {}, targets, stock), hand];
  if (view.taken) {
    parts.push(h("section.taken", { "aria-label": t("web.k13.taken_piles") }, h("h3", {}, t("web.k13.taken_piles")),
      view.taken.map((pile, seat) => h("div.seat-pile", {}, h("span.who", {}, ctx.names[seat]),
        pile.length ? pile.map((c) => card("knizia13", c, { small: true })) : h("span.empty", {}, "—")))));
  }
  return h("div.game.knizia13", {}, parts);
}
