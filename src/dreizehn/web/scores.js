// @ts-check
// Pure helpers about scores, shared by the pages (and tested on their own: tests/js/).

/**
 * The seats best first: by total, the highest first where the highest total wins (`highScoreWins`, a game's fact
 * from /api/games), else the lowest first; seats with equal totals in seat order.
 * @param {number[]} totals each seat's total
 * @param {boolean} highScoreWins whether the highest total wins
 * @returns {number[]} seat numbers, best first
 */
export function standingsOrder(totals, highScoreWins) {
  const sign = highScoreWins ? -1 : 1;
  return totals.map((_, seat) => seat).sort((a, b) => sign * (totals[a] - totals[b]) || a - b);
}
