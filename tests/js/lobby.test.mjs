// The lobby's words (src/dreizehn/web/pages/lobby.js): what a person waits for, said in the reader's language.
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { serve } from "./words.mjs";

openPage();
serve("de");
const i18n = await import("../../src/dreizehn/web/i18n.js");
const { kindText, timeText } = await import("../../src/dreizehn/web/pages/lobby.js");
await i18n.loadLanguage("de");

test("a kind of table in words: the game, the players, the pace with its time to move, rated", () => {
  const titles = { holzwurm: "Der dreizehnte Holzwurm" };
  assert.equal(kindText({ game: "holzwurm", players: 4, pace: "turn-based", move_time: 259200, rated: true }, titles),
    "Der dreizehnte Holzwurm · 4 Spieler · rundenbasiert, 3 Tage pro Zug · gewertet");
  assert.equal(kindText({ game: "holzwurm", players: 2, pace: "realtime", move_time: null, rated: false }, titles),
    "Der dreizehnte Holzwurm · 2 Spieler · Echtzeit");
});

test("a time to move in hours or days, one or many", () => {
  assert.deepEqual([3600, 43200, 86400, 604800].map(timeText), ["1 Stunde", "12 Stunden", "1 Tag", "7 Tage"]);
});

test("the bots' level offered at the players chosen: the learned level only where it plays, the choice kept", async () => {
  const { levelsAt } = await import("../../src/dreizehn/web/api.js");
  const { offerLevels } = await import("../../src/dreizehn/web/pages/lobby.js");
  const game = { levels: ["easy", "medium", "learned", "hard"], levels_by_players: { 3: ["easy", "medium", "hard"], 4: ["easy", "medium", "learned", "hard"] } };
  assert.deepEqual(levelsAt(game, 3), ["easy", "medium", "hard"]);
  assert.deepEqual(levelsAt(game, 4), ["easy", "medium", "learned", "hard"]);
  const select = document.createElement("select");
  offerLevels(select, levelsAt(game, 4));
  select.value = "learned";
  offerLevels(select, levelsAt(game, 4));
  assert.equal(select.value, "learned");
  assert.equal(select.querySelector("option[value=learned]")?.textContent, "trainiert");
  offerLevels(select, levelsAt(game, 3));  // not offered at 3 players: medium instead
  assert.deepEqual([...select.options].map((o) => o.value), ["easy", "medium", "hard"]);
  assert.equal(select.value, "medium");
});
