// @ts-check
// Three Thirteen: the round's wild rank shown plainly, the stock and the top of the discard pile, the hand (sortable,
// and grouped into its best arrangement with its penalty on request), "go out" offered only when it is legal, and
// the cards others are known to hold.
import { back, card } from "../cards.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("../pages/table/model.js").View} View */
/** @typedef {import("../pages/table/board.js").DrawContext} DrawContext */
/**
 * @typedef {View & {hand: string[], hand_sizes: number[], known: string[][], out_melds: string[][][],
 *   out_seats: number[], discard_pile: string[], wild_rank: number, round: number, stock_size: number,
 *   turns_left: number, previous_melds?: string[][][] | null, previous_deadwood?: string[][] | null}} ThreeThirteenView
 *   Three Thirteen's view (docs/wire.md): `previous_*`, the last round's hands as they were scored
 */

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUIT_ORDER = "CDHS";
const rankOf = (/** @type {string} */ c) => RANKS.indexOf(c.slice(0, -1)) + 1;
const suitOf = (/** @type {string} */ c) => SUIT_ORDER.indexOf(c.slice(-1));

/**
 * @param {View} view
 * @param {number} seat
 * @returns {string[]}
 */
export function seatInfo(view, seat) {
  const info = [t("web.in_hand", { n: view.hand_sizes[seat] })];
  if (view.out_seats.includes(seat)) info.push(t("web.tt.went_out"));
  return info;
}

/** @param {string} text */
export function attempt(text) {
  return `discard ${text}`;
}

/**
 * @param {string[]} hand
 * @param {string | undefined} mode "rank", "suit", or as dealt
 */
function sorted(hand, mode) {
  const cards = [...hand];
  if (mode === "rank") cards.sort((a, b) => rankOf(a) - rankOf(b) || suitOf(a) - suitOf(b));
  else if (mode === "suit") cards.sort((a, b) => suitOf(a) - suitOf(b) || rankOf(a) - rankOf(b));
  return cards;
}

/**
 * @param {ThreeThirteenView} view
 * @param {DrawContext} ctx
 */
export function draw(view, ctx) {
  const prefs = ctx.prefs;
  const wild = view.wild_rank;
  const isWild = (/** @type {string} */ c) => rankOf(c) === wild;
  const top = view.discard_pile.length ? view.discard_pile[view.discard_pile.length - 1] : null;
  const drawAction = ctx.legal.find((a) => a.text === "draw");
  const take = ctx.legal.find((a) => a.text === "take");
  const banner = h("div.wild-banner", { "data-wild": wild },
    h("strong", {}, t("web.tt.wild", { ranks: t(`three-thirteen.ranks.${wild}`) })),
    view.turns_left >= 0 ? h("span.warn", {}, t("three-thirteen.view.turns_left", { n: view.turns_left })) : null);
  const stock = h("div.stock", {}, back(drawAction ? drawAction.words : t("three-thirteen.view.stock", { n: view.stock_size }), {
    count: view.stock_size, legal: !!drawAction, name: "stock",
    onclick: ctx.canAct ? () => ctx.act("draw") : undefined,
  }), h("span.caption", {}, t("web.tt.stock")));
  const pile = h("div.discard", {}, top
    ? card("three-thirteen", top, { legal: !!take, onclick: ctx.canAct ? () => ctx.act("take") : undefined, extra: isWild(top) ? "wild" : "" })
    : h("span.card.empty-slot", {}, "—"), h("span.caption", {}, t("web.tt.discard_pile")));
  const onCard = (/** @type {string} */ c) => () => {
    const mine = ctx.legal.filter((a) => a.text === `discard ${c}` || a.text === `out ${c}`);
    if (mine.length === 1) ctx.act(mine[0].text);
    else if (mine.length > 1) ctx.select(c);
    else ctx.act(attempt(c));
  };
  const handCard = (/** @type {string} */ c) => card("three-thirteen", c, {
    legal: ctx.legal.some((a) => a.text.endsWith(` ${c}`)), selected: ctx.selected === c, onclick: onCard(c),
    extra: isWild(c) ? "wild" : "",
  });
  let handView;
  const arrangement = prefs.arranged && prefs.arrangement && prefs.arrangementKey === view.hand.join(",") ? prefs.arrangement : null;
  if (arrangement) {
    handView = h("div.arranged", {},
      arrangement.melds.map((/** @type {string[]} */ meld) => h("div.meld", { "aria-label": t("web.tt.meld") }, meld.map(handCard))),
      arrangement.deadwood.length ? h("div.meld.deadwood", { "aria-label": t("web.tt.deadwood") }, arrangement.deadwood.map(handCard)) : null,
      h("p.penalty", { "data-penalty": arrangement.penalty }, t("web.tt.penalty", { n: arrangement.penalty })));
  } else {
    handView = ctx.handRow(sorted(view.hand, prefs.sort).map(handCard));
  }
  const tools = view.hand.length ? h("div.hand-tools", {},
    h("button.small-button", { type: "button", onclick: () => ctx.setPref({ sort: "suit", arranged: false }), "aria-pressed": String(prefs.sort === "suit" && !prefs.arranged) }, t("web.tt.sort_suit")),
    h("button.small-button", { type: "button", onclick: () => ctx.setPref({ sort: "rank", arranged: false }), "aria-pressed": String(prefs.sort === "rank" && !prefs.arranged) }, t("web.tt.sort_rank")),
    ctx.arrange ? h("button.small-button", { type: "button", "data-do": "arrange", onclick: ctx.arrange, "aria-pressed": String(!!prefs.arranged) }, t("web.tt.arrange")) : null) : null;
  const outs = ctx.legal.filter((a) => a.text.startsWith("out "));
  const goOut = outs.length ? h("div.go-out", {}, h("strong", {}, t("web.tt.can_go_out")),
    outs.map((a) => h("button.primary", { type: "button", "data-action": a.text, onclick: () => ctx.act(a.text) }, a.words))) : null;
  const others = view.hand_sizes.map((n, seat) => {
    if (seat === view.seat) return null;
    const known = ctx.open ? [] : view.known[seat] || [];
    const melds = view.out_melds[seat] || [];
    return h("li", { "data-seat": seat }, t("three-thirteen.view.seat", { player: ctx.names[seat], n }),
      known.length ? h("span.known-cards", {}, " ", t("web.known"), ": ", known.map((c) => card("three-thirteen", c, { small: true }))) : null,
      melds.length ? h("div.laid", {}, melds.map((m) => h("span.meld", {}, m.map((c) => card("three-thirteen", c, { small: true }))))) : null);
  }).filter(Boolean);
  if (view.is_over) return h("div.game.three-thirteen", {}, lastRound(view, ctx));
  return h("div.game.three-thirteen", {}, banner, h("div.board-row", {}, stock, pile), goOut, tools, handView,
    others.length ? h("section.known", {}, h("h3", {}, t("web.others")), h("ul", {}, others)) : null);
}

/**
 * The game over: the last round's hands as they were scored, each seat's melds and unmatched cards (the board had
 * nothing left to show).
 * @param {ThreeThirteenView} view
 * @param {DrawContext} ctx
 */
function lastRound(view, ctx) {
  const melds = view.previous_melds || [];
  const rest = view.previous_deadwood || [];
  const small = (/** @type {string} */ c) => card("three-thirteen", c, { small: true });
  return h("section.last-round", { id: "last-round" }, h("h3", {}, t("web.tt.last_round")),
    h("ul", {}, melds.map((groups, seat) => h("li", { "data-seat": seat }, h("strong", {}, ctx.names[seat] || ""),
      h("div.laid", {}, groups.map((m) => h("span.meld", {}, m.map(small))),
        (rest[seat] || []).length ? [h("span.deadwood-label", {}, `${t("web.tt.deadwood")}:`),
          h("span.meld.deadwood", { "aria-label": t("web.tt.deadwood"), title: t("web.tt.deadwood") }, rest[seat].map(small))] : null)))));
}
