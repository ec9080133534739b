// The final standings (src/dreizehn/web/pages/table/scoring.js), in German: the winner marked by the trophy the app
// ships (a picture said in words), never an emoji that shows as an empty box where no emoji font is installed
// (issue 49 item 7).
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { serve } from "./words.mjs";

openPage();
serve("de");
const i18n = await import("../../src/dreizehn/web/i18n.js");
const { standings } = await import("../../src/dreizehn/web/pages/table/scoring.js");
await i18n.loadLanguage("de");

test("the winner's row shows the shipped trophy, said as Sieger; nobody else's", () => {
  const table = standings(null, ["Anna", "Bruno"], [12, 30], [1], null);
  const rows = [...table.querySelectorAll("tbody tr")];
  assert.deepEqual(rows.map((r) => r.querySelector("td")?.textContent), ["Anna", "Bruno"]);
  const trophies = [...table.querySelectorAll("img.trophy")];
  assert.equal(trophies.length, 1);
  assert.equal(trophies[0].getAttribute("src"), "/static/img/trophy.svg");
  assert.equal(trophies[0].getAttribute("alt"), "Sieger");
  assert.ok(rows[1].contains(trophies[0]));
  assert.doesNotMatch(table.textContent || "", /\p{Extended_Pictographic}/u);
});
