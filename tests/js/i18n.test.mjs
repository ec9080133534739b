// The words of the browser (src/dreizehn/web/i18n.js): a language's templates said like the server says them
// (docs/words.md): plural forms by n, {name} fields, a parameter that is itself a key, lists, percentages.
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";

const page = openPage("http://127.0.0.1/play/x?lang=nl");
const TEMPLATES = {
  "web.moves": ["{n} move", "{n} moves"],
  "web.turn_of": "{player}'s turn",
  "web.sum": "sum {sum:g}",
  "web.braces": "{{literal}} {name!r}",
  "knizia13.colour.blue.noun": "blue target",
  "web.onto": "onto the {target}",
  "list.and": "{head} and {last}",
  "list.none": "none",
};
let asked = "";
globalThis.fetch = async (url) => {
  asked = String(url);
  return { json: async () => ({ lang: "nl", templates: TEMPLATES }) };
};
const i18n = await import("../../src/dreizehn/web/i18n.js");

test("the language asked in the address wins, then the one kept, then the browser's, then English", () => {
  assert.equal(i18n.chosenLanguage(), "nl");
  page.history.replaceState(null, "", "/play/x?lang=xx");
  localStorage.setItem("dreizehn.lang", "de");
  assert.equal(i18n.chosenLanguage(), "de");
  localStorage.setItem("dreizehn.lang", "fr");
  const browser = (/** @type {string} */ language) => Object.defineProperty(globalThis, "navigator", { value: { language }, configurable: true });
  browser("nl-BE");
  assert.equal(i18n.chosenLanguage(), "nl");
  browser("fr-FR");
  assert.equal(i18n.chosenLanguage(), "en");
  // the browser's languages in the person's order: the first the app speaks (issue 49 item 7)
  Object.defineProperty(globalThis, "navigator", { value: { language: "fr-FR", languages: ["fr-FR", "de-AT", "en"] }, configurable: true });
  assert.equal(i18n.chosenLanguage(), "de");
});

test("loading a language asks the server for its templates and makes it the page's", async () => {
  await i18n.loadLanguage("nl");
  assert.equal(asked, "/api/words/nl");
  assert.equal(i18n.lang(), "nl");
  assert.equal(document.documentElement.lang, "nl");
  assert.equal(localStorage.getItem("dreizehn.lang"), "nl");
});

test("plural forms by n: the first form only when n is 1", () => {
  assert.equal(i18n.t("web.moves", { n: 1 }), "1 move");
  assert.equal(i18n.t("web.moves", { n: 0 }), "0 moves");
  assert.equal(i18n.t("web.moves", { n: 2 }), "2 moves");
});

test("fields are filled; a missing one stays as written; a key not known is said as itself", () => {
  assert.equal(i18n.t("web.turn_of", { player: "Anna" }), "Anna's turn");
  assert.equal(i18n.t("web.turn_of"), "{player}'s turn");
  assert.equal(i18n.t("web.nothing"), "web.nothing");
});

test("a number with :g loses its trailing digits; braces doubled are braces; a conversion is dropped", () => {
  assert.equal(i18n.t("web.sum", { sum: 0.1 + 0.2 }), "sum 0.3");
  assert.equal(i18n.t("web.braces", { name: "x" }), "{literal} x");
});

test("a parameter {word} is itself said in the language", () => {
  assert.equal(i18n.t("web.onto", { target: { word: "knizia13.colour.blue.noun" } }), "onto the blue target");
});

test("lists are said as the server says them; chances as whole percentages", () => {
  assert.equal(i18n.join([]), "none");
  assert.equal(i18n.join(["a"]), "a");
  assert.equal(i18n.join(["a", "b", "c"]), "a, b and c");
  assert.equal(i18n.percent(0.425), "43%");
  assert.equal(i18n.percent(1), "100%");
});
