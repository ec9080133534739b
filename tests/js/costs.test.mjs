// What a play takes, said before it is made (src/dreizehn/web/costs.js): the words, the signed points, and which
// cards are marked (only those whose every play takes cards). A game whose catalogue has `<id>.takes` says it in its
// own words: Holzwurm counts the row with the card played and names the fate card apart, as its log does (issue 49,
// item 7).
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { serve } from "./words.mjs";

openPage();
const i18n = await import("../../src/dreizehn/web/i18n.js");
const { cardCost, costBadge, costWords, signed } = await import("../../src/dreizehn/web/costs.js");

test("points are said with their sign", () => {
  assert.deepEqual([signed(4), signed(-9), signed(0)], ["+4", "−9", "±0"]);
});

test("a card is marked only when every play of it takes cards", () => {
  const takes = { cards: 3, points: -4 };
  assert.deepEqual(cardCost([{ takes }]), takes);
  assert.deepEqual(cardCost([{ takes }, { takes: { cards: 1, points: 2 } }]), takes);
  assert.equal(cardCost([{ takes }, {}]), null);
  assert.equal(cardCost([]), null);
});

const said = {
  en: ["takes 2 cards: −9", "takes the row's 2 cards and the top card of the fate row: −9 in hand"],
  de: ["nimmt 2 Karten: −9", "nimmt die 2 Karten der Reihe und die oberste Karte der Schicksalsreihe: −9 auf der Hand"],
  nl: ["pakt 2 kaarten: −9", "neemt de 2 kaarten van de rij en de bovenste kaart van de noodlotrij: −9 in de hand"],
};

for (const [lang, [plain, holzwurm]] of Object.entries(said)) {
  test(`in ${lang}, 13 says the cards a play takes; Holzwurm the row's cards as its log counts them, and the fate card`, async () => {
    serve(lang);
    await i18n.loadLanguage(lang);
    const takes = { cards: 2, points: -9 };
    assert.equal(costWords(takes, "knizia13"), plain);
    assert.equal(costWords(takes), plain);
    assert.equal(costWords(takes, "holzwurm"), holzwurm);
    assert.equal(costBadge(takes, "holzwurm").title, holzwurm);
    // the log's words for the same row, the card played among its cards: the same count in the same words
    const row = i18n.t("holzwurm.took.cards", { n: 2, cards: "G1, G2" }).replace(/ \(G1, G2\)$/, "");
    assert.ok(holzwurm.includes(row), `${row} / ${holzwurm}`);
  });
}
