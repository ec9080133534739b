// The table's head and players' bar (src/dreizehn/web/pages/table/head.js), in German (issue 25): the stage said
// with how many the game has, a game over saying its last stage (not "Runde 12"), the dealer marked, a bot's level
// beside its name in the reader's language.
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { serve } from "./words.mjs";

openPage();
serve("de");
const i18n = await import("../../src/dreizehn/web/i18n.js");
const { drawHead, drawSeats, stageWords } = await import("../../src/dreizehn/web/pages/table/head.js");
await i18n.loadLanguage("de");

const seats = [
  { seat: 0, name: "Anna", kind: "person", joined: true, connected: true },
  { seat: 1, name: "Bruno", kind: "bot", bot: "medium", joined: true, connected: true },
  { seat: 2, name: "Clara", kind: "bot", bot: "random", joined: true, connected: true },
];
const view = (/** @type {Record<string, any>} */ more) => ({ version: 3, game_id: "knizia13", players: 3, seat: 0, current_player: 1, is_over: false,
  stage: 0, stage_scores: [], legal_actions: [], history: [], options: {}, ...more });
const state = (/** @type {string} */ game, /** @type {number | null} */ stages) => ({ game, seat: 0, stages, seats, view: null });

test("the stage is said with how many the game has; a game over says its last one", () => {
  const el = document.createElement("div");
  drawHead(el, /** @type {any} */ (state("three-thirteen", 11)), /** @type {any} */ (view({ stage: 2 })), false);
  assert.equal(el.querySelector(".stage")?.textContent, "Runde 3 von 11");
  drawHead(el, /** @type {any} */ (state("three-thirteen", 11)), /** @type {any} */ (view({ stage: 11, is_over: true })), false);
  assert.equal(el.querySelector(".stage")?.textContent, "Runde 11 von 11");
  assert.equal(stageWords("knizia13", 1, 6, "web.stage_end"), "Ende: Durchgang 2 von 6");
  assert.equal(stageWords("knizia13", 1, null), "Durchgang 2");
});

test("the dealer is marked where the game has one; a bot's level is said beside its name", () => {
  const el = document.createElement("ul");
  drawSeats(el, /** @type {any} */ (state("knizia13", 6)), /** @type {any} */ (view({ dealer: 2 })), () => []);
  const items = [...el.querySelectorAll("li")];
  assert.deepEqual(items.map((li) => li.querySelector(".dealer")?.textContent ?? null), [null, null, "Kartengeber"]);
  assert.deepEqual(items.map((li) => li.querySelector(".bot-level")?.textContent ?? null), [null, "Bot: mittel", "Bot"]);
  drawSeats(el, /** @type {any} */ (state("holzwurm", 3)), /** @type {any} */ (view({ starter: 2 })), () => []);
  assert.equal(el.querySelectorAll(".dealer").length, 0);
});
