// @ts-check
// A player's public profile (/players/{name}): the name, since when they play, the statistics per game and their
// last finished games (their public part only: GET /api/players/{name}). A signed-in visitor may ask them to be
// friends or block them.
import { get, post, Refused } from "../../api.js";
import { session } from "../../account.js";
import { fill, h } from "../../dom.js";
import { lang, t } from "../../i18n.js";
import { deadEnd } from "../dead-end.js";
import { finishedList, leftShare, statsTable } from "./games.js";
import { gameTitles } from "./me.js";

/**
 * The buttons a signed-in visitor has on another's profile.
 * @param {string} name
 */
function visitorActions(name) {
  const said = h("p.status", { role: "status", id: "profile-status" });
  /**
   * @param {string} path
   * @param {string} words
   * @param {string} done
   * @param {string} [cls]
   */
  const button = (path, words, done, cls = "") => h(`button.small-button${cls}`, { type: "button", onclick: async () => {
    try {
      await post(path, { name });
      fill(said, done);
    } catch (err) { fill(said, h("span.error", {}, err instanceof Error ? err.message : String(err))); }
  } }, words);
  return h("div.profile-actions", {}, h("div.buttons", {},
    button("/api/me/friends", t("web.friends.ask"), t("web.friends.asked_now", { name }), ".primary"),
    button("/api/me/blocks", t("web.friends.block"), t("web.friends.blocked_now", { name }))), said);
}

/**
 * @param {HTMLElement} root
 * @param {{setTitle: (text: string) => void}} app
 * @param {string} name the player's name, as the address has it
 */
export async function playerPage(root, app, name) {
  const who = decodeURIComponent(name);
  app.setTitle(who);
  let player;
  try {
    player = await get(`/api/players/${encodeURIComponent(who)}`);
  } catch (err) {
    if (!(err instanceof Refused) || err.status !== 404) throw err;
    app.setTitle(t("web.profile.none"));
    fill(root, deadEnd(t("web.profile.none"), err.message));
    return;
  }
  const titles = await gameTitles();
  const me = session();
  const since = new Date(player.since).toLocaleDateString(lang(), { year: "numeric", month: "long", day: "numeric" });
  const left = leftShare(player.stats);
  fill(root, h("section.profile-head", {}, h("h1", {}, player.name), h("p.muted", {}, t("web.profile.since", { date: since })),
    left ? h("p.left-share", { id: "left-share" }, left) : null,
    me && me.name.toLowerCase() !== player.name.toLowerCase() ? visitorActions(player.name) : null),
  h("div.profile-main", {},
    h("section.panel", { "aria-labelledby": "stats-title" }, h("h2", { id: "stats-title" }, t("web.me.stats")), statsTable(player.stats, titles)),
    h("section.panel", { "aria-labelledby": "finished-title" }, h("h2", { id: "finished-title" }, t("web.profile.finished")), finishedList(player.finished, titles))));
}
