// The tables page's lists (src/dreizehn/web/pages/tables.js): bots named so people tell them apart, with their level
// in the reader's language, and a finished game's winners and totals (issue 25).
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { serve } from "./words.mjs";

openPage();
serve("de", [{ id: "holzwurm", high_score_wins: true, faces: {} }, { id: "knizia13", high_score_wins: false, faces: {} }]);
const i18n = await import("../../src/dreizehn/web/i18n.js");
const api = await import("../../src/dreizehn/web/api.js");
const { finalWords, seatLabel } = await import("../../src/dreizehn/web/pages/tables.js");
await i18n.loadLanguage("de");
await api.games();

const seat = (/** @type {number} */ n, /** @type {string} */ name, /** @type {string | null} */ bot) => ({ seat: n, name, bot, kind: bot ? "bot" : "person", joined: true });

test("a bot is listed under its name with its level in the reader's language", () => {
  assert.equal(seatLabel(seat(1, "Bruno", "medium")), "Bruno (Bot: mittel)");
  assert.equal(seatLabel(seat(2, "Clara", "random")), "Clara (Bot)");
  assert.equal(seatLabel(seat(0, "Anna", null)), "Anna");
  assert.equal(seatLabel({ ...seat(0, "", null), joined: false }), "freier Platz");
});

test("a bot stored under its level (an older table) is said by its level, once", () => {
  assert.equal(seatLabel(seat(1, "easy", "easy")), "Bot: leicht");
});

test("a finished game says who won and every total, best first", () => {
  const table = { id: "x", game: "knizia13", created_at: "", seats: [seat(0, "Anna", null), seat(1, "Bruno", "easy"), seat(2, "Clara", "hard")], totals: [30, 12, 41], winners: [1] };
  const words = finalWords(table)?.textContent;
  assert.equal(words, " · gewonnen von Bruno · Bruno 12, Anna 30, Clara 41");
  const match = { ...table, game: "holzwurm", totals: [30, 12, 30], winners: [0, 2] };
  assert.equal(finalWords(match)?.textContent, " · gewonnen von Anna und Clara · Anna 30, Clara 30, Bruno 12");
  assert.equal(finalWords({ ...table, totals: null }), null);
});
