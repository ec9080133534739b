// The tutorial's steps (pages/table/tutorial-steps.js), as dreizehn/play/tutorial.py reads them: when a step ends and which
// moves it accepts.
import assert from "node:assert/strict";
import test from "node:test";

import { allowedOf, allowsMoves, endsWith, settled } from "../../src/dreizehn/web/pages/table/tutorial-steps.js";

const took = (/** @type {string[]} */ cards) => ({ seat: 2, action: "B7", events: [
  { key: "knizia13.played", params: { seat: 2, card: "B7", took: cards } }, { key: "knizia13.drew", params: { seat: 2 } }] });

test("a wanted move ends its step when the person makes it", () => {
  const step = { say: "s", want: "G7" };
  assert.ok(endsWith(step, { seat: 0, action: "G7", events: [] }, 0));
  assert.ok(!endsWith(step, { seat: 0, action: "B5", events: [] }, 0));
  assert.ok(!endsWith(step, { seat: 1, action: "G7", events: [] }, 0));
});

test("an event ends its step when told by the seat asked for, with its parameter not empty", () => {
  /** @type {import("../../src/dreizehn/web/pages/table/tutorial-steps.js").Step} */
  const step = { say: "s", until: { event: "knizia13.played", seat: "other", has: "took" } };
  assert.ok(endsWith(step, took(["B7", "B5"]), 0));
  assert.ok(!endsWith(step, took([]), 0));
  assert.ok(!endsWith(step, took(["B7"]), 2));  // by the person: not "other"
  assert.ok(endsWith({ say: "s", until: { event: "knizia13.played", seat: 2 } }, took([]), 0));
  assert.ok(!endsWith({ say: "s", until: { event: "stage.scored" } }, took([]), 0));
  assert.ok(!endsWith({ say: "s", until: "next" }, took([]), 0));
});

test("a step accepts its wanted move alone, any in a free or the last step, none while reading", () => {
  const legal = [{ text: "G7" }, { text: "B5" }];
  assert.deepEqual(allowedOf({ say: "s", want: "B5" }, legal), [{ text: "B5" }]);
  assert.deepEqual(allowedOf({ say: "s", free: true, until: { event: "stage.scored" } }, legal), legal);
  assert.deepEqual(allowedOf({ say: "s", until: "end" }, legal), legal);
  assert.deepEqual(allowedOf({ say: "s", until: "next" }, legal), []);
  assert.ok(allowsMoves({ say: "s", want: "B5" }) && !allowsMoves({ say: "s", until: "mine" }));
});

test("steps that wait for the person's turn end when it is theirs", () => {
  const steps = [{ say: "a", until: "mine" }, { say: "b", until: "mine" }, { say: "c", want: "G7" }, { say: "d", until: "end" }];
  assert.equal(settled(steps, 0, false), 0);
  assert.equal(settled(steps, 0, true), 2);
  assert.equal(settled(steps, 3, true), 3);
});
