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
