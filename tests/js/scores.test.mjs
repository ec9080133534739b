// The standings' order (src/dreizehn/web/scores.js), by the game's fact of which way totals win.
import assert from "node:assert/strict";
import test from "node:test";

import { standingsOrder } from "../../src/dreizehn/web/scores.js";

test("the lowest total first where the lowest wins (13, Three Thirteen)", () => {
  assert.deepEqual(standingsOrder([47, 12, 30], false), [1, 2, 0]);
});

test("the highest total first where the highest wins (Holzwurm)", () => {
  assert.deepEqual(standingsOrder([-3, 25, 4], true), [1, 2, 0]);
});

test("equal totals keep the seats' order", () => {
  assert.deepEqual(standingsOrder([5, 2, 5, 2], false), [1, 3, 0, 2]);
  assert.deepEqual(standingsOrder([5, 2, 5, 2], true), [0, 2, 1, 3]);
});
