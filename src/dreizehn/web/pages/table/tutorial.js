// @ts-check
// The table page as a tutorial (/learn/{game}/{token}): a panel above the board says the step now (its words from
// the game's catalogue), moves on when the step's condition is met (tutorial-steps.js), and lets the person make only
// the moves the step accepts; any other gets a friendly note instead of being sent. The step reached and the last
// action heard are kept for the seat in the session, so a reload goes on where the person was (the actions made
// meanwhile, among the welcome's recent ones, are heard then).
import { get } from "../../api.js";
import { h, link, redraw } from "../../dom.js";
import { lang, t } from "../../i18n.js";
import { isMine } from "./model.js";
import { allowedOf, allowsMoves, endsWith, settled } from "./tutorial-steps.js";

/** @typedef {import("./tutorial-steps.js").Script} Script */
/** @typedef {import("./model.js").Action} Action */
/** @typedef {import("./model.js").TableState} TableState */

export class Tutorial {
  /**
   * @param {string} game the game's id
   * @param {string} token the person's seat (the step reached is kept per seat)
   * @param {HTMLElement} page the table page: the panel goes first in its play area
   * @param {() => void} render draw the page again
   */
  constructor(game, token, page, render) {
    this.game = game;
    this.kept = `dreizehn.play.tutorial.${token}`;
    const kept = JSON.parse(sessionStorage.getItem(this.kept) || "[0, 0]");
    /** the step shown */
    this.index = Number(kept[0]) || 0;
    /** the version of the last action heard */
    this.seen = Number(kept[1]) || 0;
    /** @type {any[]} the messages heard before the script came */
    this.early = [];
    /** @type {Script | null} */
    this.script = null;
    /** the friendly note on a move the step does not accept */
    this.note = "";
    /** whether the person closed the last step's panel */
    this.closed = false;
    this.render = render;
    if (!document.getElementById("tutorial-style")) {
      document.head.append(h("link", { id: "tutorial-style", rel: "stylesheet", href: "/static/tutorial.css" }));
    }
    this.panel = h("section.tutorial", { id: "tutorial", "aria-live": "polite" });
    (page.querySelector("main.play") || page).prepend(this.panel);
    this.loaded = get(`/api/learn/${game}`).then((/** @type {Script} */ script) => {
      this.script = script;
      for (const m of this.early.splice(0)) this.hear(m);
      render();
    });
  }

  /** The step shown (none before the script came). */
  get step() {
    return this.script ? this.script.steps[Math.min(this.index, this.script.steps.length - 1)] : undefined;
  }

  /** @param {number} index the step to show */
  go(index) {
    this.index = index;
    this.note = "";
    this.keep();
  }

  keep() {
    sessionStorage.setItem(this.kept, JSON.stringify([this.index, this.seen]));
  }

  /**
   * A message of the server: an update, or the actions a welcome tells that were not heard yet, may end the step.
   * @param {any} m
   */
  hear(m) {
    if (!this.script) { this.early.push(m); return; }
    const told = m.type === "update" ? [m] : m.type === "welcome" || m.type === "resync" ? m.recent : [];
    for (const action of told) {
      if (action.version <= this.seen) continue;
      this.seen = action.version;
      const step = this.step;
      if (step && endsWith(step, action, this.script.seat)) this.go(this.index + 1);
      else this.keep();
    }
  }

  /**
   * The moves the page marks and lists: those the step accepts (none before the script came).
   * @param {Action[]} legal
   */
  allowed(legal) {
    return this.script ? allowedOf(this.step, legal) : [];
  }

  /**
   * Whether a move may be sent; if not, the note says which one the step wants, or why none now.
   * @param {string} text the move's notation
   * @param {TableState} state
   */
  accepts(text, state) {
    const step = this.step;
    if (step && allowsMoves(step) && (step.want === undefined || step.want === text)) return true;
    if (step && step.want !== undefined) {
      const wanted = state.view?.legal_actions.find((a) => a.text === step.want);
      this.note = t("web.tutorial.wanted", { move: wanted ? wanted.words : step.want });
    } else this.note = t(step && step.until === "next" && isMine(state) ? "web.tutorial.read" : "web.tutorial.wait");
    this.render();
    return false;
  }

  /**
   * Draw the panel (after moving past the steps that waited for the person's turn, when it is theirs).
   * @param {TableState} state
   */
  draw(state) {
    const script = this.script;
    if (!script) return;
    const at = settled(script.steps, this.index, isMine(state));
    if (at !== this.index) this.go(at);
    const step = /** @type {import("./tutorial-steps.js").Step} */ (this.step);
    this.panel.hidden = this.closed;
    this.panel.dataset.step = String(this.index);
    const key = JSON.stringify([lang(), this.index, this.note]);
    redraw(this.panel, key, () => [
      h("p.tutorial-head", {}, h("strong", {}, t("web.tutorial.title", { game: t(`${this.game}.title`) })), " · ",
        t("web.tutorial.step", { n: this.index + 1, total: script.steps.length })),
      h("p.tutorial-say", {}, t(step.say)),
      this.note ? h("p.tutorial-note", { role: "alert" }, this.note) : null,
      step.until === "next" ? h("div.buttons", {}, h("button.primary", { type: "button", id: "tutorial-next",
        onclick: () => { this.go(this.index + 1); this.render(); } }, t("web.tutorial.next"))) : null,
      step.until === "end" ? h("div.buttons", {}, link(`/new/${this.game}`, t("web.tutorial.real"), "button.primary"),
        h("button", { type: "button", onclick: () => { this.closed = true; this.render(); } }, t("web.tutorial.close"))) : null,
    ]);
  }
}
