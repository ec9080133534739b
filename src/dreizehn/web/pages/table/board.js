// @ts-check
// The game drawn from the seat's view by the game's own module (games/index.js), re-drawn only when the view or
// what the person chose (a card, a sort, an arrangement) changed.
import { h, redraw } from "../../dom.js";
import { lang, t } from "../../i18n.js";

/** @typedef {import("./model.js").View} View */
/** @typedef {import("./model.js").Action} Action */

/**
 * What a game's drawing is given besides the view (docs/web.md): the names, the seat, the legal moves, the card
 * chosen, whether the person may act, the drawing's own choices, and what it may do.
 * @typedef {object} DrawContext
 * @property {string[]} names
 * @property {number | null} seat
 * @property {Action[]} legal
 * @property {string | null} selected
 * @property {boolean} canAct
 * @property {Record<string, any>} prefs
 * @property {(text: string) => void} act
 * @property {(card: string) => void} select
 * @property {(prefs: Record<string, any>) => void} setPref
 * @property {(() => Promise<void>) | undefined} arrange lay the hand out in its best arrangement (only in a game
 *   that has one, its `arranges` in /api/games)
 * @property {(cards: unknown[]) => HTMLElement} handRow
 */

/** @typedef {{draw: (view: View, ctx: DrawContext) => HTMLElement}} Drawing a game's drawing module */

/**
 * @param {HTMLElement} el
 * @param {Drawing} module
 * @param {View} view
 * @param {DrawContext} ctx
 */
export function drawBoard(el, module, view, ctx) {
  const shown = Object.fromEntries(Object.entries(view).filter(([field]) => field !== "history"));
  const key = JSON.stringify([lang(), shown, ctx.names, ctx.seat, ctx.legal.map((a) => a.text), ctx.selected,
    ctx.canAct, ctx.prefs]);
  redraw(el, key, () => [ctx.canAct ? null : h("p.watching", {}, t("web.watching")), module.draw(view, ctx)]);
}

/**
 * The row of the hand's cards, as every game's drawing shows it.
 * @param {unknown[]} cards
 */
export function handRow(cards) {
  return h("div.hand", { role: "group", "aria-label": t("web.your_hand") }, cards);
}
