// The replay's list of moves (src/dreizehn/web/pages/replay.js, issue 25): each move said as the table's log said it
// during play, captures and the ends of stages included (the list gave only the action: "easy plays the yellow 3
// onto row 4", not the row it took nor that the game ended there).
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { serve } from "./words.mjs";

openPage();
serve("en");
const { drawSteps, stepLines } = await import("../../src/dreizehn/web/pages/replay.js");

const took = {
  version: 8, text: "Bruno plays the grey 2 onto row 2",
  events: [{ key: "holzwurm.took", text: "Bruno plays the grey 2 onto row 2 and takes the row's 4 cards and the top card of the fate row." }],
};
const last = {
  version: 36, text: "Clara plays the yellow 3 onto row 4",
  events: [
    { key: "holzwurm.played", text: "Clara plays the yellow 3 onto row 4 (row 4)." },
    { key: "stage.scored", text: "End of game 1. Points: Anna -23, Bruno -18 and Clara 2." },
    { key: "stage.dealt", text: "Game 2 is dealt; Anna begins. Your cards: yellow 3 and yellow 4." },
  ],
};

test("a move is said by its events: what it took first, then the stage's end (not the next deal's hand)", () => {
  assert.deepEqual(stepLines(took), [took.events[0].text]);
  assert.deepEqual(stepLines(last), [last.events[0].text, last.events[1].text]);
  assert.deepEqual(stepLines({ version: 1, text: "Anna draws" }), ["Anna draws"]);
});

test("the list of moves shows the capture and the stage's end under their move", () => {
  const list = document.createElement("ol");
  drawSteps(list, /** @type {any} */ ({ table: { game: "holzwurm" }, names: [], steps: [took, last] }), null, async () => {});
  const items = [...list.querySelectorAll(":scope > li")];
  assert.equal(items.length, 3);
  assert.equal(items[1].querySelector("button")?.textContent, `8. ${took.events[0].text}`);
  assert.equal(items[2].querySelector(".step-more")?.textContent, last.events[1].text);
  assert.equal(list.querySelectorAll("li li").length, 0);
});
