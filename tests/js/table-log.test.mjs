// The table page's log (src/dreizehn/web/pages/table/log.js): new lines are appended and the oldest removed, the
// lines already shown stay the same elements (so the log's scroll and a selection in it stay).
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";

openPage();
const { drawLog } = await import("../../src/dreizehn/web/pages/table/log.js");

const lines = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => ({ n: from + i, text: `line ${from + i}` }));

test("only new lines are added; the ones shown stay the same elements", () => {
  const list = document.createElement("ol");
  drawLog(list, lines(1, 3), String);
  const second = list.children[1];
  drawLog(list, lines(1, 5), String);
  assert.deepEqual([...list.children].map((li) => li.textContent), ["line 1", "line 2", "line 3", "line 4", "line 5"]);
  assert.equal(list.children[1], second);
});

test("lines gone from the log are removed from the top; a new log replaces them all", () => {
  const list = document.createElement("ol");
  drawLog(list, lines(1, 4), String);
  const fourth = list.children[3];
  drawLog(list, lines(3, 6), String);
  assert.deepEqual([...list.children].map((li) => li.getAttribute("data-n")), ["3", "4", "5", "6"]);
  assert.equal(list.children[1], fourth);
  drawLog(list, [], String);
  assert.equal(list.children.length, 0);
  drawLog(list, lines(9, 10), String);
  assert.deepEqual([...list.children].map((li) => li.textContent), ["line 9", "line 10"]);
});

test("a stage's heading is said in the reader's words, marked as a heading", () => {
  const list = document.createElement("ol");
  drawLog(list, [{ n: 1, text: "", stage: 2 }, { n: 2, text: "Anna plays" }], (stage) => `Round ${stage + 1} of 11`);
  assert.deepEqual([...list.children].map((li) => [li.className, li.textContent]),
    [["stage-head", "Round 3 of 11"], ["", "Anna plays"]]);
});

test("a log replaced whole (a resync) is shown at its end, where the news is", () => {
  const list = document.createElement("ol");
  Object.defineProperty(list, "scrollHeight", { get: () => 500 });
  Object.defineProperty(list, "clientHeight", { get: () => 100 });
  drawLog(list, lines(1, 20), String);
  list.scrollTop = 0;  // the person read the first lines
  drawLog(list, lines(1, 21), String);
  assert.equal(list.scrollTop, 0);  // a new line: the log stays where it was read
  drawLog(list, lines(30, 50), String);
  assert.equal(list.scrollTop, 500);
});
