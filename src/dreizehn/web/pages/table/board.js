// @ts-check
// The game drawn from the seat's view by the game's own module (games/index.js), re-drawn only when the view or
// what the person chose (a card, a sort, an arrangement) changed.
import { h, redraw } from "../../dom.js";
import { lang, t } from "../../i18n.js";
import { withMotion } from "./motion.js";

/** @typedef {import("./model.js").View} View */
/** @typedef {import("./model.js").Action} Action */
/** @typedef {import("./model.js").LastMove} LastMove */

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
 * @property {boolean} [open] every hand is shown beside the drawing (the replay): the cards others are known to
 *   hold are not listed again
 */

/** @typedef {{draw: (view: View, ctx: DrawContext) => HTMLElement}} Drawing a game's drawing module */

/** The person's own cards as a drawing lays them out: in a row, or in an arrangement (Three Thirteen's melds). */
export const HAND = ".hand, .arranged";

/**
 * @param {HTMLElement} el
 * @param {Drawing} module
 * @param {View} view
 * @param {DrawContext} ctx
 * @param {LastMove | null} [last] the card the latest move played: marked where it lies
 */
export function drawBoard(el, module, view, ctx, last = null) {
  const shown = Object.fromEntries(Object.entries(view).filter(([field]) => field !== "history"));
  const key = JSON.stringify([lang(), shown, ctx.names, ctx.seat, ctx.legal.map((a) => a.text), ctx.selected,
    ctx.canAct, ctx.prefs, last]);
  withMotion(el, (measure) => redraw(el, key, () => {
    measure();
    const drawing = module.draw(view, ctx);
    markLast(drawing, last, el);
    return [ctx.canAct ? null : h("p.watching", {}, t("web.watching")), drawing];
  }));
}

/**
 * Mark the card the latest move played, where it lies on the table (not in a hand): the last of its kind drawn (a
 * pile's newest card comes last). It arrives moving the first time it is drawn (style.css: not where the system
 * asks for reduced motion), and lies still when the board is drawn again for the same move.
 * @param {HTMLElement} drawing the game's drawing
 * @param {LastMove | null} last
 * @param {HTMLElement} board the board (it keeps the version whose card arrived)
 */
export function markLast(drawing, last, board) {
  if (!last) return;
  const found = [...drawing.querySelectorAll(`[data-card="${CSS.escape(last.card)}"]`)].filter((c) => !c.closest(HAND));
  const card = found[found.length - 1];
  if (!card) return;
  card.classList.add("last-played");
  if (board.dataset.arrived !== String(last.version)) card.classList.add("arriving");
  board.dataset.arrived = String(last.version);
}

/**
 * The row of the hand's cards, as every game's drawing shows it.
 * @param {unknown[]} cards
 */
export function handRow(cards) {
  return h("div.hand", { role: "group", "aria-label": t("web.your_hand") }, cards);
}
