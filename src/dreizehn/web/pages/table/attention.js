// @ts-check
// When it becomes the person's turn: said to screen readers, the title flashes a few times and a short tone sounds
// (once the page may play sound, after the first touch; not when sound is turned off).
import { fill, h, redraw } from "../../dom.js";
import { lang, t } from "../../i18n.js";

/** Where the page keeps whether sound is on (it is unless turned off). */
const SOUND = "dreizehn.sound";

/** Whether the person left the sound on. */
export function soundOn() {
  return localStorage.getItem(SOUND) !== "off";
}

/**
 * The sound switch: a button that turns the turn's tone off and on, remembered in this browser.
 * @param {HTMLElement} el where it goes (re-drawn when the language or the choice changes)
 */
export function drawSoundSwitch(el) {
  const on = soundOn();
  redraw(el, JSON.stringify([lang(), on]), () => h("button.small-button.sound", {
    type: "button", id: "sound", "aria-pressed": String(on), title: t("web.sound_help"),
    onclick: () => { localStorage.setItem(SOUND, on ? "off" : "on"); drawSoundSwitch(el); },
  }, h("span.sound-mark", { "aria-hidden": "true" }, on ? "♪ " : "× "), on ? t("web.sound_on") : t("web.sound_off")));
}

export class Attention {
  /**
   * @param {HTMLElement} live the region that says "your turn" to screen readers
   * @param {() => boolean} mine whether it is still the person's turn
   */
  constructor(live, mine) {
    this.live = live;
    this.mine = mine;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.timer = undefined;
    /** @type {AudioContext | null} */
    this.audio = null;
  }

  /** The page may play sound from now on (called on the person's first touch or move). */
  unlock() {
    if (!this.audio && window.AudioContext) this.audio = new AudioContext();
  }

  /** Tell the person it is their turn. */
  call() {
    fill(this.live, t("web.your_turn"));
    this.flash();
    this.beep();
  }

  flash() {
    clearInterval(this.timer);
    let on = false;
    let count = 0;
    const title = document.title;
    this.timer = setInterval(() => {
      on = !on;
      document.title = on ? `● ${t("web.your_turn")}` : title;
      if (++count >= 6 || !this.mine()) { clearInterval(this.timer); document.title = title; }
    }, 600);
  }

  beep() {
    const audio = this.audio;
    if (!audio || !soundOn()) return;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.06;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.12);
  }

  stop() {
    clearInterval(this.timer);
  }
}
