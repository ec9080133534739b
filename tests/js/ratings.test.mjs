// The pure parts of the daily deal's and the leaderboard's pages (src/dreizehn/web/ratings.js): ranks and ratings
// as the tables write them, and the geometry of the box plot of a deal's totals.
import assert from "node:assert/strict";
import test from "node:test";

import { boxPlot, rankText, ratingLine, ratingText, tokenKey, totalText } from "../../src/dreizehn/web/ratings.js";

test("a rank is its number, a shared place is written '=' after the first row holding it", () => {
  assert.equal(rankText(1, undefined), "1");
  assert.equal(rankText(2, 1), "2");
  assert.equal(rankText(2, 2), "=");
  assert.equal(rankText(4, 2), "4");
});

test("an unranked row (a guest) gets a dash", () => {
  assert.equal(rankText(null, 3), "–");
});

test("a rating and its spread are whole points", () => {
  assert.equal(ratingText(1532.4, 83.6), "1532 ± 84");
  assert.equal(ratingText(1000, 416.67), "1000 ± 417");
});

test("a total of the spread keeps one decimal only where it falls between two", () => {
  assert.equal(totalText(12), "12");
  assert.equal(totalText(12.5), "12.5");
  assert.equal(totalText(-3.25), "-3.3");
});

const SPREAD = { n: 5, lowest: 10, quartile1: 20, median: 30, quartile3: 40, highest: 110 };

test("the box plot runs from the lowest at the left to the highest at the right, inside the padding", () => {
  const g = boxPlot(SPREAD, null, 220, 40, 10);
  assert.equal(g.lowest, 10);
  assert.equal(g.highest, 210);
  assert.equal(g.quartile1, 30);
  assert.equal(g.median, 50);
  assert.equal(g.quartile3, 70);
  assert.deepEqual(g.box, { x: 30, y: 10, width: 40, height: 20 });
  assert.equal(g.mid, 20);
  assert.equal(g.mine, null);
});

test("the person's total is placed on the same scale, and kept inside the plot", () => {
  assert.equal(boxPlot(SPREAD, 60, 220, 40, 10).mine, 110);
  assert.equal(boxPlot(SPREAD, 500, 220, 40, 10).mine, 210);
});

test("one total (or all equal): everything at the middle, the box without width", () => {
  const g = boxPlot({ n: 1, lowest: 7, quartile1: 7, median: 7, quartile3: 7, highest: 7 }, 7, 200, 40);
  for (const x of [g.lowest, g.quartile1, g.median, g.quartile3, g.highest, g.mine]) assert.equal(x, 100);
  assert.equal(g.box.width, 0);
});

test("a guest's seat token is kept per day, game and player count", () => {
  assert.equal(tokenKey("2026-11-28", "holzwurm", 2), "dreizehn.daily.2026-11-28.holzwurm.2");
  assert.notEqual(tokenKey("2026-11-28", "holzwurm", 2), tokenKey("2026-11-28", "holzwurm", 3));
});

test("a rating's line: games evenly spaced, the highest at the top, the lowest at the bottom", () => {
  const line = ratingLine([1000, 1200, 1100], 208, 116, 8);
  assert.deepEqual(line.at, [{ x: 8, y: 108 }, { x: 104, y: 8 }, { x: 200, y: 58 }]);
  assert.equal(line.points, "8,108 104,8 200,58");
  assert.deepEqual([line.low, line.high, line.last], [1000, 1200, { x: 200, y: 58 }]);
});

test("a rating's line of a few points' change is not stretched over the drawing; one game is a point in the middle", () => {
  const flat = ratingLine([1500, 1510], 100, 116, 8, 100);
  assert.deepEqual([flat.low, flat.high], [1455, 1555]);
  assert.deepEqual(flat.at.map((p) => p.y), [63, 53]);
  assert.deepEqual(ratingLine([1300], 100, 50).at, [{ x: 50, y: 25 }]);
});
