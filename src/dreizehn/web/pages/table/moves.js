// @ts-check
// The person's moves: the list of legal moves in words (numbered for the keys 1 to 9, the hint's best marked), the
// button that takes back the latest move (alone with bots) and the hint box (the best three moves with what they
// take, their win chance and the total they are expected to end the game on, and why the bot's move comes first
// where another shows a better number), each re-drawn only when what it shows changed.
import { costWords } from "../../costs.js";
import { h, redraw } from "../../dom.js";
import { lang, percent, t } from "../../i18n.js";

/** @typedef {import("./model.js").Action} Action */
/** @typedef {import("./model.js").Hint} Hint */

/**
 * @param {HTMLElement} el
 * @param {Action[]} moves the legal moves
 * @param {{selected: string | null, hint: Hint | null, open: boolean, game?: string, act: (text: string) => void}} how
 *   the card chosen (only its moves are listed), the hint, whether the list stays open (the game's choice), the game
 *   (whose words say what a move takes), and how to act
 */
export function drawMoves(el, moves, how) {
  const { selected, hint } = how;
  const shown = selected ? moves.filter((a) => a.text === selected || a.text.includes(selected)) : moves;
  const best = hint && hint.ratings.length ? hint.ratings[0].action : null;
  const open = !!selected || moves.length <= 6 || how.open;
  const key = JSON.stringify([lang(), moves.length, shown.map((a) => [a.text, a.words, a.takes]), best, open]);
  redraw(el, key, () => (moves.length ? h("details.move-list", { open: open ? true : undefined },
    h("summary", {}, t("web.moves", { n: moves.length })),
    h("ol", {}, shown.map((a, i) => h("li", {}, h(`button.move${a.text === best ? ".best" : ""}${a.takes ? ".takes" : ""}`, {
      type: "button", "data-action": a.text, onclick: () => how.act(a.text),
      "aria-keyshortcuts": i < 9 ? String(i + 1) : undefined,
    }, i < 9 ? h("kbd", {}, i + 1) : null, a.words, a.takes ? h("span.cost", {}, " — ", costWords(a.takes, how.game)) : null))))) : null));
}


/**
 * The hint box, shown on the person's turn.
 * @param {HTMLElement} el
 * @param {boolean} shown whether it is the person's turn
 * @param {{thinking: boolean, hint: Hint | null, moves: Action[], game?: string, ask: () => void,
 *   act: (text: string) => void}} how the legal moves tell what each rated move takes (in the game's words)
 */
export function drawHint(el, shown, how) {
  const { thinking, hint } = how;
  const takes = new Map(how.moves.map((a) => [a.text, a.takes]));
  const key = JSON.stringify([lang(), shown, thinking, hint, hint ? hint.ratings.slice(0, 3).map((r) => takes.get(r.action)) : null]);
  redraw(el, key, () => (shown ? h("div.hint-box", {},
    h("button.secondary", { type: "button", id: "hint", disabled: thinking ? true : undefined, "aria-keyshortcuts": "H",
      onclick: how.ask }, thinking ? t("web.thinking") : t("web.hint")),
    hint ? h("ol.hint", {}, hint.ratings.slice(0, 3).map((r) => h("li", {},
      h("button.link", { type: "button", onclick: () => how.act(r.action) }, r.words),
      hint.choice === r.action && hint.level ? h("span.choice", {}, " (", t("web.hint_search", { level: t(`web.level.${hint.level}`) }), ")") : null,
      takes.get(r.action) ? h("span.cost", {}, " — ", costWords(/** @type {import("../../costs.js").Takes} */ (takes.get(r.action)), how.game)) : null, " ",
      h("span.chance", {}, t("web.win_chance", { chance: percent(r.win), spread: percent(r.win_sd) }), " · ",
        t("web.hint_points", { points: Math.round(r.points) }))))) : null,
    hint ? hintNote(hint) : null) : null));
  el.hidden = !shown;
}

/**
 * Why the hint puts the bot's move first although another move shows a better number (the hint's note), or null
 * where its move shows the best number.
 * @param {Hint} hint
 */
function hintNote(hint) {
  const words = (/** @type {string | null | undefined} */ action) => hint.ratings.find((r) => r.action === action)?.words ?? action ?? "";
  if (!hint.note || !hint.rival || !hint.choice) return null;
  const level = hint.level ? t(`web.level.${hint.level}`) : hint.search ?? "";
  return h("p.hint-note", {}, t(`web.hint_note_${hint.note}`, { choice: words(hint.choice), rival: words(hint.rival), level }));
}

/**
 * The button that takes back the person's latest move, shown only while the server says it may be (a person alone
 * with bots, nothing dealt or drawn since); where it would be, why not, when a deal or a card seen since the move
 * stops it (`blocked`: the server's refusal code), so that the button does not come and go without a word.
 * @param {HTMLElement} el
 * @param {boolean} shown
 * @param {string | null} blocked
 * @param {() => void} undo
 */
export function drawUndo(el, shown, blocked, undo) {
  const why = !shown && blocked ? `web.${blocked.replace(/^server\./, "")}` : null;
  redraw(el, JSON.stringify([lang(), shown, why]), () => (shown ? h("button.secondary", { type: "button", id: "undo",
    "aria-keyshortcuts": "U", onclick: undo }, t("web.undo")) : why ? h("p.undo-blocked", { id: "undo-blocked" }, t(why)) : null));
  el.hidden = !shown && !why;
}
