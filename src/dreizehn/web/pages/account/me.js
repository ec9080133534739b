// @ts-check
// The home of a signed-in person (/me): games in progress ("your turn" first), finished games with their results
// linked to their replays, the statistics per game, friends; the way to the settings and the public profile, and
// signing out. /me/friends is the friends' part alone.
import { games, get } from "../../api.js";
import { session, signOut } from "../../account.js";
import { fill, h, link } from "../../dom.js";
import { t } from "../../i18n.js";
import { signInFirst } from "./form.js";
import { drawFriends } from "./friends.js";
import { finishedList, playingList, statsTable } from "./games.js";

/** @typedef {{setTitle: (text: string) => void, go: (path: string) => void}} App */

/** @returns {Promise<Record<string, string>>} each game's title in the page's language */
export async function gameTitles() {
  return Object.fromEntries((await games()).map((g) => [g.id, g.title]));
}

/**
 * The head of the home: who, and the ways to the profile and the settings, and out.
 * @param {string} name
 * @param {App} app
 */
function homeHead(name, app) {
  const out = h("button.small-button", { type: "button", id: "sign-out", onclick: async () => {
    await signOut();
    app.go("/");
  } }, t("web.account.sign_out"));
  return h("div.me-head", {}, h("h1", {}, t("web.me.hello", { name })),
    h("div.buttons", {}, h("a.button.small-button", { href: "/me/settings", "data-route": "", id: "me-settings" }, t("web.account.settings")),
      h("a.button.small-button", { href: `/players/${encodeURIComponent(name)}`, "data-route": "", id: "me-profile" }, t("web.me.profile")),
      h("a.button.small-button", { href: "/me/friends", "data-route": "", id: "me-friends" }, t("web.friends.title")), out));
}

/**
 * @param {HTMLElement} root
 * @param {App} app
 */
export async function mePage(root, app) {
  const who = session();
  app.setTitle(t("web.me.title"));
  if (!who) { fill(root, signInFirst(t("web.me.title"), "/me")); return; }
  const [titles, me] = await Promise.all([gameTitles(), get("/api/me")]);
  const friends = h("section.panel.friends", { id: "friends" });
  fill(root, homeHead(who.name, app), h("div.me-grid", {},
    h("div.me-main", {},
      h("section.panel", { "aria-labelledby": "playing-title" }, h("h2", { id: "playing-title" }, t("web.me.playing")), playingList(me.playing, titles)),
      h("section.panel", { "aria-labelledby": "finished-title" }, h("h2", { id: "finished-title" }, t("web.me.finished")), finishedList(me.finished, titles)),
      h("section.panel", { "aria-labelledby": "stats-title" }, h("h2", { id: "stats-title" }, t("web.me.stats")), statsTable(me.stats, titles))),
    h("div.me-side", {}, friends)));
  await drawFriends(friends);
}

/**
 * /me/friends: the friends alone.
 * @param {HTMLElement} root
 * @param {App} app
 */
export async function friendsPage(root, app) {
  app.setTitle(t("web.friends.title"));
  if (!session()) { fill(root, signInFirst(t("web.friends.title"), "/me/friends")); return; }
  const friends = h("section.panel.friends.friends-page", { id: "friends" });
  fill(root, h("p.back", {}, link("/me", t("web.me.back"))), friends);
  await drawFriends(friends, "", "h1");
}
