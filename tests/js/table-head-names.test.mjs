// Whose turn it is, as the table's head says it (src/dreizehn/web/pages/table/head.js): a seat nobody has joined is
// said in words and begins its sentence with a capital ("Der erste eingeladene Mitspieler ist am Zug"); a person's
// own name stays as they wrote it ("anna ist am Zug", not "Anna").
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { serve } from "./words.mjs";

openPage();
serve("de");
const i18n = await import("../../src/dreizehn/web/i18n.js");
const { saidNamesOf, sentence } = await import("../../src/dreizehn/web/pages/table/head.js");

const state = /** @type {any} */ ({ seats: [
  { seat: 0, name: "anna", joined: true },
  { seat: 1, name: "", joined: false },
  { seat: 2, name: "", joined: false },
] });

test("a person's name keeps its letters at a sentence's start; a seat said in words begins with a capital", async () => {
  await i18n.loadLanguage("de");
  const names = saidNamesOf(state);
  assert.deepEqual(names, ["anna", "der erste eingeladene Mitspieler", "der zweite eingeladene Mitspieler"]);
  assert.equal(sentence(i18n.t("web.turn_of", { player: names[0] }), state, 0), "anna ist am Zug");
  assert.equal(sentence(i18n.t("web.turn_of", { player: names[2] }), state, 2),
    "Der zweite eingeladene Mitspieler ist am Zug");
});
