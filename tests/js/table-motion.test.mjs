// Cards that move, seen moving (src/dreizehn/web/pages/table/motion.js): which cards moved between two drawings of
// the board (the same card text, in document order) and which left it; nothing moves under reduced motion.
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";

const window = openPage();
const { cardPlaces, movesSince, withMotion } = await import("../../src/dreizehn/web/pages/table/motion.js");

/**
 * A board whose cards lie where `places` says (card text -> [left, top] per drawing of it).
 * @param {[string, number, number][]} places
 */
function board(places) {
  const root = document.createElement("div");
  for (const [card, left, top] of places) {
    const el = document.createElement("span");
    el.dataset.card = card;
    el.getBoundingClientRect = () => /** @type {DOMRect} */ ({ left, top, width: 40, height: 60, right: left + 40, bottom: top + 60, x: left, y: top });
    root.append(el);
  }
  return root;
}

test("a card drawn elsewhere moved, one drawn in place did not, one gone left", () => {
  const before = cardPlaces(board([["Y3", 0, 300], ["R7", 50, 300], ["B2", 10, 10], ["G5", 60, 10]]));
  const now = board([["R7", 50, 300], ["Y3", 200, 10], ["B2", 10, 10]]);
  const { moved, left } = movesSince(before, now);
  assert.deepEqual(moved.map((m) => [m.el.dataset.card, m.dx, m.dy]), [["Y3", -200, 290]]);
  assert.deepEqual(left.map((l) => l.card), ["G5"]);
});

test("a card drawn twice (two decks) is matched in document order; a new one is neither moved nor left", () => {
  const before = cardPlaces(board([["KS", 0, 0], ["KS", 50, 0]]));
  const { moved, left } = movesSince(before, board([["KS", 0, 0], ["KS", 50, 0], ["KS", 100, 0], ["3H", 0, 90]]));
  assert.equal(moved.length, 0);
  assert.equal(left.length, 0);
});

test("under reduced motion the board is drawn and nothing is measured", () => {
  Object.defineProperty(globalThis, "matchMedia", { value: () => ({ matches: true }), configurable: true, writable: true });
  const root = board([["Y3", 0, 0]]);
  document.body.append(root);
  root.querySelector("span").getBoundingClientRect = () => { throw new Error("measured"); };
  let drawn = false;
  withMotion(root, () => { drawn = true; return true; });
  assert.ok(drawn);
  delete globalThis.matchMedia;
  void window;
});

test("a card drawn more often than before (another copy played elsewhere) does not glide", () => {
  const before = cardPlaces(board([["Y1", 0, 300]]));
  const { moved } = movesSince(before, board([["Y1", 100, 10], ["Y1", 0, 300]]));
  assert.equal(moved.length, 0);
});
