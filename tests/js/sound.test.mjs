// The table's sound switch (src/dreizehn/web/pages/table/attention.js, issue 25): it turns the turn's tone off and
// on, says which in the reader's language, and the choice is remembered (localStorage) for the next page.
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { serve } from "./words.mjs";

openPage();
serve("nl");
const i18n = await import("../../src/dreizehn/web/i18n.js");
const { drawSoundSwitch, soundOn } = await import("../../src/dreizehn/web/pages/table/attention.js");
await i18n.loadLanguage("nl");

test("the switch turns the sound off and on, and the choice is kept for the next page", () => {
  localStorage.removeItem("dreizehn.sound");
  const el = document.createElement("div");
  drawSoundSwitch(el);
  const button = () => /** @type {HTMLButtonElement} */ (el.querySelector("button#sound"));
  assert.equal(button().getAttribute("aria-pressed"), "true");
  assert.match(button().textContent || "", /geluid aan/);
  button().click();
  assert.equal(localStorage.getItem("dreizehn.sound"), "off");
  assert.equal(soundOn(), false);
  assert.match(button().textContent || "", /geluid uit/);
  const next = document.createElement("div");  // another table page, later
  drawSoundSwitch(next);
  assert.equal(next.querySelector("button")?.getAttribute("aria-pressed"), "false");
  button().click();
  assert.equal(soundOn(), true);
});
