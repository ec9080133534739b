// The tables of the daily deal's results and of the leaderboard (src/dreizehn/web/pages/daily.js, leaderboard.js):
// the reader's own row marked, shared places, a guest's play said so, the reader below the top when not in it; a
// profile's ratings with the line of each over the player's games (pages/account/player.js).
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { serve } from "./words.mjs";

openPage();
serve("de");
const i18n = await import("../../src/dreizehn/web/i18n.js");
const { dayText, resultsView } = await import("../../src/dreizehn/web/pages/daily.js");
const { boardTable } = await import("../../src/dreizehn/web/pages/leaderboard.js");
const { ratingsView } = await import("../../src/dreizehn/web/pages/account/player.js");
await i18n.loadLanguage("de");

const cells = (/** @type {Element} */ tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent);

test("the results: every play, the own row marked, a guest said so, shared places written '='", () => {
  const el = resultsView({ day: "2026-11-28", game: "holzwurm", players: 2, rows: [
    { name: "Ada", total: 30, rank: 1, replay: "/replay/a", mine: false },
    { name: "Bruno", total: 30, rank: 1, replay: "/replay/b", mine: true },
    { name: null, total: 12, rank: null, replay: "/replay/c", mine: false },
  ], spread: { n: 3, lowest: 12, quartile1: 21, median: 30, quartile3: 30, highest: 30 } });
  const rows = [...el.querySelectorAll("tbody tr")];
  assert.deepEqual(cells(rows[0]), ["1", "Ada", "30", "Nachspielen"]);
  assert.deepEqual(cells(rows[1]), ["=", "Brunodu", "30", "Nachspielen"]);
  assert.deepEqual(cells(rows[2]), ["–", "ein Gast", "12", "Nachspielen"]);
  assert.deepEqual(rows.map((r) => r.classList.contains("mine")), [false, true, false]);
  assert.equal(rows[2].querySelector("a")?.getAttribute("href"), "/replay/c");
  assert.equal(el.querySelector("h4")?.textContent, "Ergebnisse aus 3 Partien");
  const plot = el.querySelector("svg.box-plot");
  assert.ok(plot?.getAttribute("aria-label")?.includes("Median 30"));
  assert.equal(plot?.querySelectorAll("circle.mine").length, 1);
});

const row = (/** @type {number} */ rank, /** @type {string} */ name, provisional = false) =>
  ({ rank, name, rating: 1500 - rank, spread: 80.4, games: 12, provisional });

test("the leaderboard: the reader's row highlighted where it stands, provisional ratings marked", () => {
  const el = boardTable({ game: "knizia13", since: "", rows: [row(1, "Ada"), row(2, "Bruno", true)], you: row(2, "Bruno", true) });
  const rows = [...el.querySelectorAll("tbody tr")];
  assert.equal(rows.length, 2);
  assert.deepEqual(cells(rows[1]), ["2", "Brunodu", "1498 ± 80vorläufig", "12"]);
  assert.ok(rows[1].classList.contains("mine") && !rows[0].classList.contains("mine"));
  assert.equal(rows[0].querySelector("a")?.getAttribute("href"), "/players/Ada");
});

test("the leaderboard: a reader not in the top is shown below it, after a gap", () => {
  const el = boardTable({ game: "knizia13", since: "", rows: [row(1, "Ada")], you: row(140, "Zoë") });
  const rows = [...el.querySelectorAll("tbody tr")];
  assert.equal(rows.length, 3);
  assert.ok(rows[1].classList.contains("gap"));
  assert.deepEqual(cells(rows[2]), ["140", "Zoëdu", "1360 ± 80", "12"]);
  assert.equal(rows[2].querySelector("a")?.getAttribute("href"), "/players/Zo%C3%AB");
});

test("the leaderboard of a guest marks no row", () => {
  const el = boardTable({ game: "knizia13", since: "", rows: [row(1, "Ada"), row(1, "Bea")], you: null });
  assert.equal(el.querySelectorAll("tr.mine").length, 0);
  assert.deepEqual([...el.querySelectorAll("tbody tr")].map((r) => cells(r)[0]), ["1", "="]);
});

test("the day is written as the page's language writes dates", () => {
  assert.equal(dayText("2026-11-28"), "28. November 2026");
});

test("a profile's ratings: each game's rating ± spread, provisional marked, its course a line through every game", () => {
  const at = (/** @type {number} */ day) => `2026-11-${String(day).padStart(2, "0")}T12:00:00+00:00`;
  const el = ratingsView({
    ratings: [{ game: "knizia13", rating: 1120, spread: 310, games: 3, provisional: true },
      { game: "holzwurm", rating: 1000, spread: 417, games: 1, provisional: true }],
    history: { knizia13: [{ at: at(2), rating: 1040, place: 1 }, { at: at(5), rating: 980, place: 3 }, { at: at(9), rating: 1120, place: 1 }],
      holzwurm: [{ at: at(9), rating: 1000, place: 2 }] },
    levels: { knizia13: [{ level: "easy", players: 3, rating: 461, spread: 271 }, { level: "expert", players: 3, rating: 1747, spread: 228 }] },
  }, { knizia13: "13", holzwurm: "Der dreizehnte Holzwurm" });
  const games = [...el.querySelectorAll(".rating-game")];
  assert.deepEqual(games.map((g) => g.querySelector("h3")?.textContent), ["13", "Der dreizehnte Holzwurm"]);
  assert.equal(games[0].querySelector(".rating-now")?.textContent, "1120 ± 310 3 gewertete Spielevorläufig");
  assert.equal(games[1].querySelector(".rating-now strong")?.textContent, "1000 ± 417");
  assert.equal(games[0].querySelector(".rating-bots")?.textContent, "Bots (3 Spieler): leicht\u00a0461\u00a0· Experte\u00a01747"); // the dot ends a line, never begins one
  assert.equal(games[1].querySelector(".rating-bots"), null); // no level calibrated in Holzwurm
  assert.ok(games[1].querySelector(".rating-now")?.textContent?.includes("1 gewertetes Spiel"));
  const line = games[0].querySelector("svg.rating-plot polyline")?.getAttribute("points")?.split(" ") ?? [];
  assert.equal(line.length, 3);
  const ys = line.map((p) => Number(p.split(",")[1]));
  assert.ok(ys[1] > ys[0] && ys[0] > ys[2]); // down after the second game, up to the highest after the third
  const label = games[0].querySelector("svg.rating-plot")?.getAttribute("aria-label") ?? "";
  assert.ok(label.startsWith("13: die Wertung nach jedem gewerteten Spiel, 1040 nach dem ersten"), label);
  assert.ok(label.includes("1120 nach dem letzten von 3"), label);
  assert.equal(games[1].querySelectorAll("svg.rating-plot polyline").length, 1);
  assert.ok(games[1].querySelector("figcaption")?.textContent?.startsWith("Ein gewertetes Spiel"));
});

test("a profile without rated games says so", () => {
  assert.equal(ratingsView({ ratings: [], history: {} }, {}).textContent, "Noch keine gewerteten Spiele.");
});
