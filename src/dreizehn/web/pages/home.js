// @ts-check
// The home page: the games, each with its picture, a short description, the rules summary, a new table and,
// where the game has one, its tutorial (Learn to play).
import { games } from "../api.js";
import { fill, h, link } from "../dom.js";
import { join, t } from "../i18n.js";

/**
 * @param {HTMLElement} root where the page goes
 * @param {{setTitle: (text: string) => void}} app
 */
export async function homePage(root, app) {
  app.setTitle(t("web.title"));
  const list = await games();
  fill(root, h("section.hero", {}, h("h1", {}, t("web.title")), h("p.lead", {}, t("web.tagline", { games: join(list.map((g) => g.title)) }))),
    h("div.game-cards", {}, list.map((g) => h("article.game-card", { "data-game": g.id },
      h("img.picture", { src: g.picture, alt: "", width: 320, height: 160 }),
      h("h2", {}, g.title),
      h("p.players", {}, t("web.players_range", { low: g.min_players, high: g.max_players })),
      h("p", {}, g.description),
      h("details.rules-summary", {}, h("summary", {}, t("web.rules_summary")), g.rules.split("\n\n").map((/** @type {string} */ p) => h("p", {}, p))),
      h("div.buttons", {}, link(`/new/${g.id}`, t("web.new_table"), "button.primary"),
        g.tutorial ? link(`/learn/${g.id}`, t("web.learn"), "button") : null, link(`/games/${g.id}/rules`, t("web.rules"), "button"))))),
    h("p.more", {}, link("/tables", t("web.tables"))));
}
