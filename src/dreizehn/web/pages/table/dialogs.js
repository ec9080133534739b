// @ts-check
// The windows over the table: the name asked of a person who has not joined yet, the scoring at the end of a stage
// with its "Continue", and the final standings with a rematch. A window is drawn once and left alone while it is
// shown (its focus and what is typed in it stay).
import { h, link, redraw } from "../../dom.js";
import { join, lang, t } from "../../i18n.js";
import { botLevel, stageWords } from "./head.js";
import { rematchAnswers } from "./model.js";
import { standings } from "./scoring.js";

/** @typedef {import("./model.js").TableState} TableState */
/** @typedef {import("./model.js").Dialog} Dialog */

/**
 * @typedef {object} DialogActions
 * @property {(name: string) => Promise<void>} join take the seat under this name (a refusal throws its words)
 * @property {() => void} close close the window shown
 * @property {() => void} rematch
 * @property {() => void} decline say no to a rematch another seat asked for
 * @property {() => void} start start the rematch the person asked for now (a bot for each who said no)
 * @property {boolean} spectator
 */

/**
 * @param {HTMLElement} el the overlay's holder
 * @param {TableState} state
 * @param {string[]} names
 * @param {DialogActions} actions
 */
export function drawOverlay(el, state, names, actions) {
  const dialog = state.dialogs[0];
  const key = state.joinNeeded ? "join"
    : dialog ? JSON.stringify([lang(), dialog.id, dialog.kind === "offer" ? [state.offer, state.rematch] : null]) : "";
  const drawn = redraw(el, key, () => (state.joinNeeded ? joinForm(state, actions)
    : dialog ? h("div.overlay", {}, dialogBox(state, dialog, names, actions)) : null));
  if (!drawn) return;
  const first = el.querySelector(state.joinNeeded ? "#join-name" : "#continue");
  if (first instanceof HTMLElement) first.focus();
}

/**
 * The name asked before a seat is taken.
 * @param {TableState} state
 * @param {DialogActions} actions
 */
function joinForm(state, actions) {
  const input = /** @type {HTMLInputElement} */ (h("input", { id: "join-name", name: "name", required: true, maxlength: 40,
    autocomplete: "nickname", value: localStorage.getItem("dreizehn.name") || "" }));
  const error = h("p.error", { role: "alert" });
  const form = h("form.dialog", { role: "dialog", "aria-modal": "true", "aria-labelledby": "join-title", onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      await actions.join(input.value);
    } catch (err) { error.textContent = err instanceof Error ? err.message : String(err); }
  } }, h("h2", { id: "join-title" }, t("web.join_title", { game: t(`${state.game}.title`) })),
  company(state),
  h("label", { for: "join-name" }, t("web.your_name")), input, error,
  h("button.primary", { type: "submit" }, t("web.take_seat")));
  return h("div.overlay", {}, form);
}

/**
 * Who invited the person (the first person seated under a name) and with whom they will play, each bot with its
 * level, a seat nobody took yet as free.
 * @param {TableState} state
 */
function company(state) {
  const others = state.seats.filter((s) => s.seat !== state.seat);
  const inviter = others.find((s) => s.kind !== "bot" && s.joined && s.name);
  const players = join(others.map((s) => (s.kind === "bot" ? `${s.name || t("web.bot")} (${botLevel(s.bot)})` : s.name || t("web.free_seat"))));
  return h("p.company", { id: "join-company" }, inviter ? `${t("web.join_invited", { player: inviter.name })} ` : "",
    t("web.join_with", { players }));
}

/**
 * The scoring of a stage, or the game's end.
 * @param {TableState} state
 * @param {Dialog} dialog
 * @param {string[]} names
 * @param {DialogActions} actions
 */
function dialogBox(state, dialog, names, actions) {
  const p = dialog.event.params;
  if (dialog.kind === "offer" && state.offer) return rematchBox(state, names, actions);
  if (dialog.kind === "offer") {  // a rematch begun at once (asked without an offer): its invitation
    return h("div.dialog", { role: "dialog", "aria-modal": "true", "aria-labelledby": "dialog-title" },
      h("h2", { id: "dialog-title" }, t("web.rematch_offer", { player: names[p.by] || "" })),
      h("div.buttons", {}, h("button.primary", { type: "button", id: "continue", onclick: actions.rematch }, t("web.rematch_accept")),
        h("button.secondary", { type: "button", id: "decline", onclick: actions.decline }, t("web.rematch_decline"))));
  }
  const body = dialog.kind === "stage"
    ? [h("h2", { id: "dialog-title" }, stageWords(state.game, p.stage, state.stages, "web.stage_end")),
      dialog.event.lines ? h("ul.explain", {}, dialog.event.lines.map((l) => h("li", {}, l))) : h("p", {}, t("web.thinking")),
      standings(state.game, names, p.totals, null, p.scores)]
    : [h("h2", { id: "dialog-title" }, t("web.game_over")), h("p.winner", {}, dialog.event.text),
      standings(state.game, names, p.totals, p.winners, null),
      h("div.buttons", {}, !actions.spectator ? h("button.secondary", { type: "button", id: "rematch", onclick: actions.rematch }, t("web.rematch")) : null,
        link(`/replay/${state.table}`, t("web.replay"), "button"))];
  const cont = h("button.primary", { type: "button", id: "continue", onclick: actions.close }, t("web.continue"));
  return h("div.dialog", { role: "dialog", "aria-modal": "true", "aria-labelledby": "dialog-title" }, body, cont);
}

/**
 * A rematch asked for, over the standings: who asked, each person's answer, and what the reader may do: the asker
 * starts it now (a bot for each who said no) or waits for every yes; another person says yes or no, or waits.
 * @param {TableState} state
 * @param {string[]} names
 * @param {DialogActions} actions
 */
function rematchBox(state, names, actions) {
  const offer = /** @type {import("./model.js").Offer} */ (state.offer);
  const asker = offer.by === state.seat;
  const answers = rematchAnswers(state);
  const mine = answers.find((a) => a.seat === state.seat);
  const no = answers.filter((a) => a.answer === false).map((a) => names[a.seat]);
  const buttons = asker
    ? [h("button.primary", { type: "button", id: "rematch-start", onclick: actions.start },
      no.length ? t("web.rematch_start_bots", { players: no.join(", ") }) : t("web.rematch_start")),
    h("button.secondary", { type: "button", id: "continue", onclick: actions.close }, t("web.close"))]
    : mine && mine.answer === null
      ? [h("button.primary", { type: "button", id: "continue", onclick: actions.rematch }, t("web.rematch_accept")),
        h("button.secondary", { type: "button", id: "decline", onclick: actions.decline }, t("web.rematch_decline"))]
      : [h("button.secondary", { type: "button", id: "continue", onclick: actions.close }, t("web.close"))];
  return h("div.dialog.rematch", { role: "dialog", "aria-modal": "true", "aria-labelledby": "dialog-title" },
    h("h2", { id: "dialog-title" }, asker ? t("web.rematch_asked") : t("web.rematch_offer", { player: names[offer.by] || "" })),
    h("ul.rematch-answers", { "aria-live": "polite" }, answers.filter((a) => a.seat !== state.seat).map((a) => h("li", { "data-seat": a.seat, "data-answer": a.answer === null ? "none" : a.answer ? "yes" : "no" },
      h("strong", {}, names[a.seat] || ""), " ",
      a.answer === null ? t("web.rematch_waiting") : a.answer ? t("web.rematch_yes") : t("web.rematch_no")))),
    h("p.help", {}, t("web.rematch_begins")),
    h("div.buttons", {}, buttons));
}
