// Holzwurm's fate row on the table (src/dreizehn/web/games/holzwurm.js, issue 25): its heading names the row once
// ("Schicksalsreihe 6 Karten"), not "Schicksalsreihe noch 6 Karten in der Schicksalsreihe"; and its rows, laid out as
// the rulebook lays them (minus cards left, plus cards right).
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { serve } from "./words.mjs";

openPage();
serve("de");
const i18n = await import("../../src/dreizehn/web/i18n.js");
const { draw, isMinus, rowPile } = await import("../../src/dreizehn/web/games/holzwurm.js");
await i18n.loadLanguage("de");

test("the fate row's heading says the row's name once, and how many cards lie in it", () => {
  const view = { version: 0, game_id: "holzwurm", players: 2, seat: 0, current_player: 0, is_over: false, stage: 0,
    stage_scores: [], legal_actions: [], history: [], options: {}, hand: [], hand_sizes: [0, 0], known: [[], []],
    fate: ["13", "Y5", "R2", "R4", "Y6", "G8"], rows: [null, null, null, null, null] };
  const ctx = { names: ["Anna", "Bruno"], seat: 0, legal: [], selected: null, canAct: true, prefs: {}, act() {}, select() {},
    setPref() {}, arrange: undefined, handRow: (/** @type {unknown[]} */ cards) => { const el = document.createElement("div"); el.append(.../** @type {Node[]} */ (cards)); return el; } };
  const heading = draw(/** @type {any} */ (view), /** @type {any} */ (ctx)).querySelector(".fate h3")?.textContent || "";
  assert.equal(heading.replace(/\s+/g, " "), "Schicksalsreihe 6 Karten");
});

test("a row lays its minus cards to the left and its plus cards to the right, each side growing outwards (H13)", () => {
  const pile = rowPile(["G1", "G4", "N3", "G6", "G9"]);
  const side = (/** @type {string} */ name) => [...pile.querySelectorAll(`.${name} .card`)].map((c) => c.getAttribute("data-card"));
  assert.deepEqual(side("minus-side"), ["G9", "N3", "G1"]);
  assert.deepEqual(side("plus-side"), ["G4", "G6"]);
  assert.deepEqual(["13", "N2", "Y11", "R10"].map(isMinus), [true, false, true, false]);
});
