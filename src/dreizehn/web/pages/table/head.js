// @ts-check
// The table's head (the game, the stage, whose turn it is) and the players' bar (each seat's name, connection, bot
// level, stand-in, the game's line about it and the total), each re-drawn only when what it shows changed.
import { h, redraw } from "../../dom.js";
import { lang, t } from "../../i18n.js";
import { isMine, totalsOf } from "./model.js";

/** @typedef {import("./model.js").TableState} TableState */
/** @typedef {import("./model.js").View} View */
/** @typedef {import("./model.js").Seat} Seat */

/**
 * The seats' names as the page shows them (a free seat said so).
 * @param {TableState} state
 */
export function namesOf(state) {
  return state.seats.map((s) => s.name || t("web.free_seat"));
}

/**
 * The seats' names as sentences say them ("… ist am Zug", "… hat bis … Zeit"), as the server's sentences do: a
 * seat nobody has joined yet (a friend invited by a link, nameless until they come) is "the invited player", several
 * such seats "the first invited player", "the second …" in the order of the seats (never a seat number).
 * @param {TableState} state
 */
export function saidNamesOf(state) {
  const free = state.seats.filter((s) => !s.joined && !s.name).map((s) => s.seat);
  return state.seats.map((s) => {
    const order = free.indexOf(s.seat);
    if (order < 0) return s.name;
    return free.length === 1 ? t("seat.invited") : t("seat.invited.nth", { nth: t(`seat.nth.${order + 1}`) });
  });
}

/**
 * ``text``, said of ``seat``, begun with a capital where it begins with the seat said in words ("The invited player
 * …", :func:`saidNamesOf`); a person's name stays as they wrote it ("anna ist am Zug").
 * @param {string} text
 * @param {TableState} state
 * @param {number} seat
 */
export function sentence(text, state, seat) {
  const s = state.seats[seat];
  return s && !s.joined && !s.name ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/**
 * A stage said with how many the game has ("round 3 of 11"), or alone where that is not known; a game over (its
 * stage counted past the last) says its last stage.
 * @param {string | null} game
 * @param {number} stage the stage, from 0
 * @param {number | null} stages
 * @param {string} [key] the words: the stage (web.stage), or its end (web.stage_end)
 */
export function stageWords(game, stage, stages, key = "web.stage") {
  const stageName = t(`${game}.stage`, { n: 1 });
  if (!stages) return t(key, { stage_name: stageName, n: stage + 1 });
  return t(`${key}_of`, { stage_name: stageName, n: Math.min(stage + 1, stages), count: stages });
}

/**
 * A bot's level in the reader's language ("Bot: mittel"); a bot specification that is no level (random, ismcts…)
 * as "Bot".
 * @param {string | null | undefined} level
 */
export function botLevel(level) {
  const word = level ? t(`web.level.${level}`) : "";
  return word && word !== `web.level.${level}` ? t("web.seat.bot", { level: word }) : t("web.bot");
}

/**
 * @param {HTMLElement} el
 * @param {TableState} state
 * @param {View} view
 * @param {boolean} spectator
 * @param {boolean} [thinking] whether the bot to move has been thinking a while: "Bruno is thinking…"
 */
export function drawHead(el, state, view, spectator, thinking = false) {
  const mine = isMine(state);
  const player = saidNamesOf(state)[view.current_player] || "";
  const turn = view.is_over ? t("web.game_over")
    : mine ? t("web.your_turn")
      : sentence(thinking ? t("web.bot_thinking", { player }) : t("web.turn_of", { player }), state, view.current_player);
  const title = t(`${state.game}.title`);
  const stage = stageWords(state.game, view.stage, state.stages);
  const watching = state.watching || 0;
  redraw(el, JSON.stringify([lang(), title, stage, turn, mine, view.is_over, spectator, watching]), () => [
    h("h1", {}, title),
    h("span.stage", {}, stage),
    h("span.turn", { id: "turn", "data-mine": mine ? "yes" : "no", "data-over": view.is_over ? "yes" : "no",
      "data-thinking": thinking && !mine && !view.is_over ? "yes" : "no" }, turn),
    spectator ? h("span.badge", {}, t("web.spectator")) : null,
    watching ? h("span.watchers", { id: "watchers" }, t("web.watchers", { n: watching })) : null,
  ]);
}

/**
 * @param {HTMLElement} el
 * @param {TableState} state
 * @param {View} view
 * @param {(view: View, seat: number) => string[]} seatInfo the game's line about a seat
 */
export function drawSeats(el, state, view, seatInfo) {
  const totals = totalsOf(view);
  const infos = state.seats.map((s) => seatInfo(view, s.seat).join(" · "));
  const dealer = typeof view.dealer === "number" ? view.dealer : null;  // only a game that has a dealer
  const key = JSON.stringify([lang(), state.seats, state.seat, view.current_player, totals, infos, dealer]);
  redraw(el, key, () => state.seats.map((s) => seatItem(s, state.seat, { current: view.current_player === s.seat,
    dealer: dealer === s.seat }, infos[s.seat], totals[s.seat])));
}

/**
 * One seat in the players' bar.
 * @param {Seat} s
 * @param {number | null} me the person's seat
 * @param {{current: boolean, dealer: boolean}} marks whether it is this seat's turn, whether it deals
 * @param {string} info
 * @param {number} total
 */
function seatItem(s, me, marks, info, total) {
  const current = marks.current;
  const bot = s.kind === "bot";
  return h(`li.seat${current ? ".current" : ""}${s.seat === me ? ".me" : ""}`, { "data-seat": s.seat },
    h(`span.dot.${bot || s.connected ? "on" : "off"}`, { title: bot ? t("web.bot") : s.connected ? t("web.online") : t("web.away") }),
    h("strong.name", {}, s.name || t("web.free_seat")),
    s.seat === me ? h("span.tag", {}, t("web.you")) : null,
    bot ? h("span.tag.bot-level", {}, botLevel(s.bot)) : null,
    s.stand_in ? h("span.tag.warn", {}, t("web.stand_in")) : null,
    marks.dealer ? h("span.tag.dealer", {}, t("web.dealer")) : null,
    h("span.info", {}, info),
    h("span.total", { title: t("web.total") }, total));
}
