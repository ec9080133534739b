// @ts-check
// The table page's keys: 1 to 9 play the move with that number, ← → move between the hand's cards, H asks for the
// hint, U takes back the latest move (alone with bots), Esc closes the window between stages or drops the chosen
// card (docs/web.md, Keyboard).
import { HAND } from "./board.js";

/**
 * @typedef {object} KeyTargets
 * @property {HTMLElement} board the game's drawing (its hand's cards)
 * @property {HTMLElement} moves the move list
 * @property {HTMLElement} overlay the windows over the table (keys other than Esc wait while one is open)
 * @property {() => void} escape close the window shown, drop the chosen card
 * @property {() => void} hint ask for the hint
 * @property {() => void} undo take back the latest move (when it may be)
 */

/**
 * The keydown handler of the table page.
 * @param {KeyTargets} on
 * @returns {(e: KeyboardEvent) => void}
 */
export function tableKeys(on) {
  return (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "Escape") { on.escape(); return; }
    if (on.overlay.childElementCount) return;
    const moves = [...on.moves.querySelectorAll("button.move")];
    const chosen = /^[1-9]$/.test(e.key) ? moves[Number(e.key) - 1] : undefined;
    if (chosen instanceof HTMLElement) { chosen.click(); e.preventDefault(); return; }
    if (e.key === "h" || e.key === "H") { on.hint(); return; }
    if (e.key === "u" || e.key === "U") { on.undo(); return; }
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      const cards = /** @type {HTMLElement[]} */ ([...on.board.querySelectorAll(HAND.split(", ").map((s) => `${s} button.card`).join(", "))]);
      if (!cards.length) return;
      const at = cards.findIndex((c) => c === document.activeElement);
      const next = at < 0 ? 0 : (at + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
      cards[next].focus();
      e.preventDefault();
    }
  };
}
