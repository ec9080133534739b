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

const { filtersFrom, filtersQuery, listAddress, tableItem, PAGE_SIZE } = await import("../../src/dreizehn/web/pages/tables.js");
const { leftShare } = await import("../../src/dreizehn/web/pages/account/games.js");
const ids = ["holzwurm", "knizia13"];

test("the filters are the address's, each one the list knows or its default; mine only signed in", () => {
  assert.deepEqual(filtersFrom("?status=finished&game=knizia13&whose=mine", ids, true), { status: "finished", game: "knizia13", whose: "mine" });
  assert.deepEqual(filtersFrom("?status=running&game=chess&whose=mine", ids, false), { status: "open", game: "", whose: "all" });
  assert.equal(filtersQuery({ status: "open", game: "", whose: "all" }), "");
  assert.equal(filtersQuery({ status: "finished", game: "holzwurm", whose: "mine" }), "?status=finished&game=holzwurm&whose=mine");
  const filters = filtersFrom(filtersQuery({ status: "playing", game: "knizia13", whose: "mine" }), ids, true);
  assert.deepEqual(filters, { status: "playing", game: "knizia13", whose: "mine" });  // an address read back is itself
});

test("a page of the list is asked for with its filters, its size and the cursor of the page before", () => {
  const filters = { status: "finished", game: "holzwurm", whose: "all" };
  assert.equal(listAddress(filters, null), `/api/tables?status=finished&whose=all&limit=${PAGE_SIZE}&game=holzwurm`);
  assert.ok(listAddress({ ...filters, game: "" }, "abc-_").endsWith(`limit=${PAGE_SIZE}&cursor=abc-_`));
});

test("a finished table says when it ended and that bots finished it; one's own table is marked and opened", () => {
  const app = { setTitle() {}, go() {} };
  const finished = { id: "f1", game: "knizia13", status: "finished", created_at: "2026-11-28T20:00:00+00:00",
    finished_at: "2026-11-28T21:05:00+00:00", by_bots: true, my_seat: null, totals: [30, 12, 41], winners: [1],
    seats: [seat(0, "Anna", null), seat(1, "Bruno", "easy"), seat(2, "Clara", "hard")] };
  const item = tableItem(finished, { knizia13: "Knizias 13" }, app);
  assert.match(item.querySelector(".when")?.textContent || "", /^beendet /);
  assert.equal(item.querySelector("time")?.getAttribute("datetime"), finished.finished_at);
  assert.equal(item.querySelector(".by-bots")?.textContent, "von Bots zu Ende gespielt");
  assert.equal(item.querySelector("a")?.getAttribute("href"), "/replay/f1");
  const mine = tableItem({ ...finished, id: "p1", status: "playing", finished_at: null, by_bots: false, my_seat: 2, totals: null },
    {}, app);
  assert.ok(mine.classList.contains("mine") && !mine.querySelector(".by-bots"));
  assert.match(mine.querySelector(".when")?.textContent || "", /^eröffnet /);
  assert.equal(mine.querySelector("a")?.getAttribute("href"), "/seat/p1/2");
});

test("a profile says how often the player left games to bots, over every game", () => {
  const stats = (/** @type {number} */ games, /** @type {number} */ left) => ({ game: "x", games, wins: 0, average: null, best: null, left_to_bots: left });
  assert.equal(leftShare([stats(30, 2), stats(1, 0)]), "2 von 31 Partien den Bots überlassen");
  assert.equal(leftShare([stats(1, 1)]), "1 von 1 Partie den Bots überlassen");
  assert.equal(leftShare([]), null);
});
