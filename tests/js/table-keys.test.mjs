// The table's keys (src/dreizehn/web/pages/table/keys.js): ← → move between the hand's cards, also when the hand is
// laid out in its arrangement (Three Thirteen's melds, kept after each draw since issue 25).
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";

const window = openPage();
const { tableKeys } = await import("../../src/dreizehn/web/pages/table/keys.js");

test("→ goes through an arranged hand's cards", () => {
  const board = document.createElement("div");
  board.innerHTML = '<div class="arranged"><div class="meld"><button class="card">a</button><button class="card">b</button></div>'
    + '<div class="meld deadwood"><button class="card">c</button></div></div>';
  document.body.append(board);
  const keys = tableKeys({ board, moves: document.createElement("div"), overlay: document.createElement("div"), escape() {}, hint() {} });
  const press = () => keys(new window.KeyboardEvent("keydown", { key: "ArrowRight" }));
  press();
  assert.equal(document.activeElement?.textContent, "a");
  press();
  press();
  assert.equal(document.activeElement?.textContent, "c");
});
