// @ts-check
// The rules of a game: its summary in the rulebooks' terms, with its options explained (in words: the rule ids are
// the specification's, for developers, and stay in the API's data).
import { games } from "../api.js";
import { fill, h, link } from "../dom.js";
import { t } from "../i18n.js";
import { deadEnd } from "./dead-end.js";

/**
 * @param {HTMLElement} root where the page goes
 * @param {{setTitle: (text: string) => void}} app
 * @param {string} gameId
 */
export async function rulesPage(root, app, gameId) {
  const game = (await games()).find((g) => g.id === gameId);
  if (!game) { app.setTitle(t("web.not_found")); fill(root, deadEnd(t("web.not_found"))); return; }
  app.setTitle(`${game.title}: ${t("web.rules")}`);
  fill(root, h("article.rules", {}, h("h1", {}, game.title, " — ", t("web.rules")),
    h("img.picture", { src: game.picture, alt: "", width: 320, height: 160 }),
    game.rules.split("\n\n").map((/** @type {string} */ p) => h("p", {}, p)),
    h("h2", {}, t("web.options")),
    h("dl.options", {}, game.options.map((/** @type {{label: string, help: string}} */ o) => [h("dt", {}, o.label), h("dd", {}, o.help)])),
    h("div.buttons", {}, link(`/new/${game.id}`, t("web.new_table"), "button.primary"))));
}
