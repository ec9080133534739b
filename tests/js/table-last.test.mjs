// The card the latest move played, marked on the table (issue 25): found from the move's events (not a draw, not a
// card that took a row into the hand), marked where it lies (the newest of its kind, never the hand's), arriving
// with a movement only the first time the board is drawn for that move.
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";

const window = openPage();
Object.defineProperty(globalThis, "CSS", { value: window.CSS ?? { escape: (/** @type {string} */ s) => s }, configurable: true });
const { lastPlayed } = await import("../../src/dreizehn/web/pages/table/model.js");
const { markLast } = await import("../../src/dreizehn/web/pages/table/board.js");

const ev = (/** @type {string} */ key, /** @type {Record<string, any>} */ params) => ({ key, params, text: "" });

test("the card a move played: a card put on a target or a row, a discard; none for a draw or a row taken", () => {
  const played = { version: 5, seat: 2, text: "", events: [ev("knizia13.played", { card: "B5", took: [] }), ev("knizia13.drew", { seat: 2, card: "Y1" })] };
  assert.deepEqual(lastPlayed(played), { card: "B5", seat: 2, version: 5 });
  assert.equal(lastPlayed({ version: 6, seat: 0, text: "", events: [ev("three-thirteen.drew", { seat: 0, card: "7C" })] }), null);
  assert.equal(lastPlayed({ version: 7, seat: 0, text: "", events: [ev("three-thirteen.took", { seat: 0, card: "7C" })] }), null);
  assert.deepEqual(lastPlayed({ version: 8, seat: 0, text: "", events: [ev("three-thirteen.discarded", { seat: 0, card: "KD" })] })?.card, "KD");
  assert.equal(lastPlayed({ version: 9, seat: 1, text: "", events: [ev("holzwurm.took", { card: "N2", row: 2, cards: [] })] }), null);
});

test("the card is marked where it lies, the newest of its kind, never in the hand; it arrives moving once", () => {
  const draw = () => {
    const drawing = document.createElement("div");
    drawing.innerHTML = '<div class="targets"><span data-card="B5"></span><span data-card="B5"></span></div>'
      + '<div class="hand"><button data-card="B5"></button></div>';
    return drawing;
  };
  const board = document.createElement("div");
  const first = draw();
  markLast(first, { card: "B5", seat: 1, version: 12 }, board);
  const marked = [...first.querySelectorAll(".last-played")];
  assert.equal(marked.length, 1);
  assert.equal(marked[0], first.querySelectorAll(".targets [data-card]")[1]);
  assert.ok(marked[0].classList.contains("arriving"));
  const again = draw();  // drawn again for the same move (a card chosen): marked, but still
  markLast(again, { card: "B5", seat: 1, version: 12 }, board);
  assert.equal(again.querySelectorAll(".last-played").length, 1);
  assert.equal(again.querySelectorAll(".arriving").length, 0);
});

test("a card like the one played but held in an arranged hand is not marked (two decks: two of each card)", () => {
  const drawing = document.createElement("div");
  drawing.innerHTML = '<div class="discard"><span data-card="7C"></span></div>'
    + '<div class="arranged"><div class="meld"><button data-card="7C"></button></div></div>';
  markLast(drawing, { card: "7C", seat: 1, version: 3 }, document.createElement("div"));
  assert.equal(drawing.querySelector(".last-played"), drawing.querySelector(".discard [data-card]"));
});
