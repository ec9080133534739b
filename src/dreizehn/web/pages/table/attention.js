// @ts-check
// When it becomes the person's turn: said to screen readers, the title flashes a few times and a short tone sounds
// (once the page may play sound, after the first touch; not when sound is turned off).
import { fill } from "../../dom.js";
import { t } from "../../i18n.js";

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
    if (!audio || localStorage.getItem("dreizehn.sound") === "off") return;
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
