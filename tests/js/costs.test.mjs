// What a play takes, said before it is made (src/dreizehn/web/costs.js): the words, the signed points, and which
// cards are marked (only those whose every play takes cards).
import assert from "node:assert/strict";
import test from "node:test";

import { cardCost, signed } from "../../src/dreizehn/web/costs.js";

test("points are said with their sign", () => {
  assert.deepEqual([signed(4), signed(-9), signed(0)], ["+4", "−9", "±0"]);
});

test("a card is marked only when every play of it takes cards", () => {
  const takes = { cards: 3, points: -4 };
  assert.deepEqual(cardCost([{ takes }]), takes);
  assert.deepEqual(cardCost([{ takes }, { takes: { cards: 1, points: 2 } }]), takes);
  assert.equal(cardCost([{ takes }, {}]), null);
  assert.equal(cardCost([]), null);
});
