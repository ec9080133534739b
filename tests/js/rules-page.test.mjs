// The rules page (src/dreizehn/web/pages/rules.js, issue 25): an option's help said once, without its rule id (the
// page added "(H16)" after a help that ended with "(H16)" already).
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { serve } from "./words.mjs";

openPage();
const game = { id: "holzwurm", title: "Der dreizehnte Holzwurm", rules: "Erster Absatz.\n\nZweiter Absatz.", faces: {},
  options: [{ name: "games", label: "Partien", help: "die Zahl der Partien", rule: "H16" }] };
serve("de", [game]);
const i18n = await import("../../src/dreizehn/web/i18n.js");
const { rulesPage } = await import("../../src/dreizehn/web/pages/rules.js");
await i18n.loadLanguage("de");

test("an option's help is said without the rule's id", async () => {
  const root = document.createElement("div");
  await rulesPage(root, { setTitle() {} }, "holzwurm");
  assert.equal(root.querySelector("dl.options dd")?.textContent, "die Zahl der Partien");
  assert.doesNotMatch(root.textContent || "", /H16/);
});
