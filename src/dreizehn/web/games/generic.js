// @ts-check
// The generic drawing of a game without a module of its own: the view's public fields in a readable list (each
// named by the game's words `<id>.field.<name>` where it has them, else by its name; cards drawn as cards, a list of
// cards per seat with the seats' names), the hand as cards (when the view has a `hand`), and the legal moves as
// buttons (the table page's move list, kept open).
import { card, isCard } from "../cards.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("../pages/table/model.js").View} View */
/** @typedef {import("../pages/table/board.js").DrawContext} DrawContext */

/** The view's fields every game has (docs/wire.md), drawn by the table page itself rather than listed. */
const COMMON = new Set(["wire", "version", "game_id", "players", "options", "seat", "current_player", "is_over", "stage",
  "stage_scores", "history", "legal_actions", "hand"]);

/** The table page keeps the move list open: it is how moves are made without a picture. */
export const openMoves = true;

/**
 * @param {View} view
 * @param {number} seat
 * @returns {string[]}
 */
export function seatInfo(view, seat) {
  return Array.isArray(view.hand_sizes) ? [t("web.in_hand", { n: view.hand_sizes[seat] })] : [];
}

/** @param {string} text */
export function attempt(text) {
  return text;
}

/** Whether the action `text` (notation) names the card `c`: one of its parts is the card. */
const names = (/** @type {string} */ text, /** @type {string} */ c) => text === c || text.split(/[^\w-]+/).includes(c);

/** A value of the view as words a person can read: lists joined, records as "name: value", none as a dash. */
/**
 * @param {unknown} value
 * @returns {string}
 */
function readable(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.length ? value.map((v) => (Array.isArray(v) ? `[${readable(v)}]` : readable(v))).join(", ") : "—";
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k}: ${readable(v)}`).join("; ");
  return String(value);
}

/**
 * A field's name in the game's words (`<id>.field.<name>`), else the name itself.
 * @param {string} game
 * @param {string} key
 */
export function fieldName(game, key) {
  const said = t(`${game}.field.${key}`);
  return said === `${game}.field.${key}` ? key : said;
}

/**
 * Whether `value` is a list of cards of `game` (empty or not).
 * @param {string} game
 * @param {unknown} value
 * @returns {value is string[]}
 */
const cards = (game, value) => Array.isArray(value) && value.every((c) => isCard(game, c));

/**
 * A field's value as it is drawn: cards as small cards, a list of cards per seat as each seat's name with its cards,
 * anything else in words.
 * @param {View} view
 * @param {DrawContext} ctx
 * @param {unknown} value
 * @returns {unknown}
 */
export function fieldValue(view, ctx, value) {
  const game = view.game_id;
  const row = (/** @type {string[]} */ list) => (list.length ? h("span.cards", {}, list.map((c) => card(game, c, { small: true }))) : "—");
  if (cards(game, value) && value.length) return row(value);
  if (Array.isArray(value) && value.length === view.players && value.every((v) => cards(game, v))) {
    return h("ul.per-seat", {}, value.map((v, seat) => h("li", {}, h("span.name", {}, ctx.names[seat] ?? String(seat + 1)), " ",
      row(/** @type {string[]} */ (v)))));
  }
  return readable(value);
}

/**
 * @param {View} view
 * @param {DrawContext} ctx
 */
export function draw(view, ctx) {
  const fields = Object.entries(view).filter(([key]) => !COMMON.has(key));
  const parts = [h("dl.fields", {}, fields.map(([key, value]) => [h("dt", { "data-field": key }, fieldName(view.game_id, key)),
    h("dd", { "data-field": key }, fieldValue(view, ctx, value))]))];
  if (Array.isArray(view.hand)) {
    parts.push(ctx.handRow(view.hand.map((c) => {
      const mine = ctx.legal.filter((a) => names(a.text, c));
      return card(view.game_id, c, {
        legal: mine.length > 0, selected: ctx.selected === c, onclick: () => {
          if (mine.length === 1) ctx.act(mine[0].text);
          else if (mine.length > 1) ctx.select(c);
          else ctx.act(attempt(c));
        },
      });
    })));
  }
  return h("div.game.generic", { "data-game": view.game_id }, parts);
}
