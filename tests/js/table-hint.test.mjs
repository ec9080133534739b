// The hint box (src/dreizehn/web/pages/table/moves.js drawHint), in German (issue 25, item 2): each of the best
// three moves says what it takes, when it takes cards, beside its win chance and the total it is expected to end on,
// so that a move that takes the poisonous thirteen no longer reads like a safe one.
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { serve } from "./words.mjs";

openPage();
serve("de");
const i18n = await import("../../src/dreizehn/web/i18n.js");
const { drawHint } = await import("../../src/dreizehn/web/pages/table/moves.js");
await i18n.loadLanguage("de");

const hint = {
  ratings: [
    { action: "G3>1", words: "Grüne 3 an Reihe 1", win: 0.413, win_sd: 0.014, points: 13.5 },
    { action: "Y11>5", words: "Gelbe 11 an Reihe 5", win: 0.378, win_sd: 0.013, points: 17.4 },
  ],
};
const moves = [{ text: "G3>1", words: "", takes: { cards: 4, points: -4 } }, { text: "Y11>5", words: "" }];

test("a rated move that takes cards says so; every rated move says its expected final total", () => {
  const el = document.createElement("div");
  drawHint(el, true, { thinking: false, hint: /** @type {any} */ (hint), moves: /** @type {any} */ (moves), ask: () => {}, act: () => {} });
  const items = [...el.querySelectorAll("ol.hint li")].map((li) => li.textContent);
  assert.equal(items.length, 2);
  assert.match(items[0], /nimmt 4 Karten: −4/);
  assert.match(items[0], /Siegchance 41\s?% \(± 1\s?%\) · Endstand etwa 14/);
  assert.doesNotMatch(items[1], /nimmt/);
  assert.match(items[1], /Endstand etwa 17/);
});

test("the move the hint puts first as the level's says so, naming the level the message names, and only that one", () => {
  const el = document.createElement("div");
  const searched = { ...hint, search: "ismcts:iterations=10000", choice: "Y11>5", level: "expert", ratings: [hint.ratings[1], hint.ratings[0]] };
  drawHint(el, true, { thinking: false, hint: /** @type {any} */ (searched), moves: /** @type {any} */ (moves), ask: () => {}, act: () => {} });
  const items = [...el.querySelectorAll("ol.hint li")].map((li) => li.textContent);
  assert.match(items[0], /^Gelbe 11 an Reihe 5 \(der Zug des Bots „Experte“\)/);
  assert.doesNotMatch(items[1], /Experte/);
  const plain = document.createElement("div");
  drawHint(plain, true, { thinking: false, hint: /** @type {any} */ (hint), moves: /** @type {any} */ (moves), ask: () => {}, act: () => {} });
  assert.doesNotMatch(plain.textContent ?? "", /Experte/);
  const master = document.createElement("div");
  drawHint(master, true, { thinking: false, hint: /** @type {any} */ ({ ...searched, level: "master" }), moves: /** @type {any} */ (moves), ask: () => {}, act: () => {} });
  assert.match(master.querySelector("ol.hint li")?.textContent ?? "", /\(der Zug des Bots „Meister“\)/);
});

test("where another move shows a better number than the bot's, the box says why the bot's comes first (issue 49)", () => {
  const searched = { search: "ismcts:iterations=30000", choice: "Y11>5", level: "master", ratings: [hint.ratings[1], hint.ratings[0]] };
  const note = (/** @type {any} */ shown) => {
    const el = document.createElement("div");
    drawHint(el, true, { thinking: false, hint: shown, moves: /** @type {any} */ (moves), ask: () => {}, act: () => {} });
    return el.querySelector("p.hint-note")?.textContent ?? null;
  };
  assert.equal(note({ ...searched, ratings: [hint.ratings[0], hint.ratings[1]], choice: "G3>1" }), null);
  assert.equal(note({ ...searched, note: "level", rival: "G3>1" }),
    "Grüne 3 an Reihe 1 ist etwas besser bewertet als Gelbe 11 an Reihe 5, aber um weniger, als die ausgespielten Spiele unterscheiden können.");
  assert.match(note({ ...searched, note: "search", rival: "G3>1" }) ?? "",
    /^Der Bot „Meister“ spielt Gelbe 11 an Reihe 5, obwohl die ausgespielten Spiele Grüne 3 an Reihe 1 höher bewerten: Er schaut weiter voraus/);
});
