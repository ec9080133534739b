// @ts-check
// A seat open in two windows: the new window asks before it takes the seat over (the server refused its hello with
// server.seat_open), and the old one, once taken over, says so and offers to play here again. Nothing is taken
// without the person's click.
import { fill, h, link } from "../../dom.js";
import { t } from "../../i18n.js";

/**
 * Draw the question (``ask``: the seat is open elsewhere) or the notice (``taken``: another window took it) into
 * the overlay's holder, with the button that takes the seat here.
 * @param {HTMLElement} el the overlay's holder
 * @param {"ask" | "taken"} kind
 * @param {string} reason the server's words (for ``ask``)
 * @param {() => void} playHere
 */
export function drawTakeOver(el, kind, reason, playHere) {
  const text = kind === "ask" ? reason : t("web.taken_over");
  const button = h("button.primary", { type: "button", id: "play-here", onclick: playHere }, t("web.play_here"));
  fill(el, h("div.overlay", {}, h("div.dialog", { role: "alertdialog", "aria-modal": "true", "aria-labelledby": "takeover-text" },
    h("p", { id: "takeover-text" }, text), h("div.buttons", {}, button, link("/tables", t("web.tables"), "button")))));
  button.focus();
}
