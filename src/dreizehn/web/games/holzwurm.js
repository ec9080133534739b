// @ts-check
// Der dreizehnte Holzwurm: the rows with their colours and lengths, the fate row, the hand, the cards others are
// known to hold and the hand sizes.
import { card } from "../cards.js";
import { cardCost, costBadge, costWords } from "../costs.js";
import { h } from "../dom.js";
import { join, t } from "../i18n.js";

/** @typedef {import("../pages/table/model.js").View} View */
/** @typedef {import("../pages/table/board.js").DrawContext} DrawContext */
/**
 * @typedef {View & {hand: string[], hand_sizes: number[], fate: string[], known: string[][],
 *   rows: ({colour: string | null, cards: string[]} | null)[]}} HolzwurmView Holzwurm's view (docs/wire.md)
 */

/**
 * @param {View} view
 * @param {number} seat
 * @returns {string[]}
 */
export function seatInfo(view, seat) {
  return [t("web.in_hand", { n: view.hand_sizes[seat] })];
}

/**
 * Whether a card counts minus (H3): an odd value, and the poisonous thirteen.
 * @param {string} text the card ("Y7", "N2", "13")
 */
export function isMinus(text) {
  const value = Number(text.replace(/\D/g, ""));
  return value % 2 === 1;
}

/**
 * A row laid out as the rulebook lays it (H13): the minus cards to the left, the plus cards to the right, each side
 * growing outwards from the middle as cards are played (so the newest card of each side is the outermost).
 * @param {string[]} cards the row's cards in the order played
 */
export function rowPile(cards) {
  const minus = cards.filter(isMinus).reverse();
  const plus = cards.filter((c) => !isMinus(c));
  return h("div.pile.row-pile", {}, h("div.minus-side", {}, minus.map((c) => card("holzwurm", c, { small: true }))),
    h("div.plus-side", {}, plus.map((c) => card("holzwurm", c, { small: true }))));
}

/** @param {string} text */
export function attempt(text) {
  return `${text}>new`;
}

/**
 * @param {HolzwurmView} view
 * @param {DrawContext} ctx
 */
export function draw(view, ctx) {
  const choices = ctx.selected ? ctx.legal.filter((a) => a.text.startsWith(`${ctx.selected}>`)) : [];
  const fate = view.fate;
  const fateRow = h("section.fate", { "aria-label": t("web.hw.fate") }, h("h3", {}, t("web.hw.fate"), " ",
    h("span.muted.fate-count", {}, t("web.hw.fate_count", { n: fate.length }))),
  h("div.pile", {}, fate.map((c, i) => card("holzwurm", c, { small: true, extra: i === fate.length - 1 ? "top" : "" }))));
  const rows = h("div.rows", {}, view.rows.map((row, i) => {
    const slot = i + 1;
    const choice = choices.find((a) => a.text.endsWith(`>${slot}`));
    if (!row) return h("div.row.empty-row", { "data-row": slot }, h("span.row-name", {}, t("web.hw.row", { row: slot })), h("span.empty", {}, "—"));
    const colour = row.colour ? t(`holzwurm.colour.${row.colour}`) : t("holzwurm.view.open");
    const body = [
      h("div.row-head", {}, h("span.row-name", {}, t("web.hw.row", { row: slot })), h("span.row-colour", {}, colour),
        h("span.row-length", { title: t("web.hw.length_help", { n: row.cards.length }) }, t("web.hw.length", { n: row.cards.length }))),
      rowPile(row.cards),
    ];
    const cls = `row.r-${row.colour || "open"}`;
    if (choice) {
      const words = choice.takes ? `${choice.words} — ${costWords(choice.takes, "holzwurm")}` : choice.words;
      return h(`button.${cls}.legal${choice.takes ? ".takes" : ""}`, { type: "button", "data-row": slot, title: words,
        "aria-label": words, onclick: () => ctx.act(choice.text) }, body, choice.takes ? costBadge(choice.takes, "holzwurm") : null);
    }
    return h(`section.${cls}`, { "data-row": slot }, body);
  }));
  const fresh = choices.find((a) => a.text.endsWith(">new"));
  if (fresh) {
    rows.append(h("button.row.new-row.legal", { type: "button", "data-row": "new", onclick: () => ctx.act(fresh.text),
      "aria-label": fresh.words, title: fresh.words }, h("span.row-name", {}, t("web.hw.new_row"))));
  }
  const hand = ctx.handRow(view.hand.map((c) => {
    const mine = ctx.legal.filter((a) => a.text.startsWith(`${c}>`));
    const cost = cardCost(mine);
    return card("holzwurm", c, {
      legal: mine.length > 0, selected: ctx.selected === c, extra: cost ? "takes" : "",
      badge: cost ? costBadge(cost, "holzwurm") : null, note: cost ? costWords(cost, "holzwurm") : undefined, onclick: () => {
        if (mine.length === 1) ctx.act(mine[0].text);
        else if (mine.length > 1) ctx.select(c);
        else ctx.act(attempt(c));
      },
    });
  }));
  const known = view.known.map((cards, seat) => cards.length && seat !== view.seat && !ctx.open
    ? h("li", {}, t("holzwurm.view.known", { player: ctx.names[seat], cards: join(cards.map((c) => card("holzwurm", c).title)) }),
      h("div.pile", {}, cards.map((c) => card("holzwurm", c, { small: true }))))
    : null).filter(Boolean);
  const parts = [fateRow, rows, hand];
  if (known.length) parts.push(h("section.known", {}, h("h3", {}, t("web.known")), h("ul", {}, known)));
  if (view.removed) parts.push(h("p.muted", {}, t("holzwurm.view.removed", { n: view.removed })));
  return h("div.game.holzwurm", {}, parts);
}
