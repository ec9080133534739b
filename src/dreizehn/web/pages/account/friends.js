// @ts-check
// Friends (GET /api/me/friends): ask someone by their user name, accept or decline who asks, withdraw an ask,
// remove a friend, block and unblock. Each change is sent, then the lists are asked for again.
import { del, get, post } from "../../api.js";
import { fill, h, link } from "../../dom.js";
import { t } from "../../i18n.js";
import { field, sendingForm } from "./form.js";

/** @typedef {{friends: {name: string}[], asked: {name: string}[], asking: {name: string}[], blocked: {name: string}[]}} Friends */

/**
 * A person of a list: their name (to their profile) and the buttons that act on them.
 * @param {string} name
 * @param {Array<[string, () => Promise<unknown>, string?]>} actions each button's words, what it does, its class
 * @param {(action: () => Promise<unknown>) => void} run
 */
function person(name, actions, run) {
  return h("li.person", { "data-name": name }, link(`/players/${encodeURIComponent(name)}`, name, "person-name"),
    h("span.person-actions", {}, actions.map(([words, action, cls]) => h(`button.small-button${cls ? "." + cls : ""}`,
      { type: "button", onclick: () => run(action) }, words))));
}

/**
 * @param {string} title
 * @param {string} id
 * @param {HTMLElement[]} items
 * @param {string} [empty] words when there is nobody (none: the part is left out)
 */
function group(title, id, items, empty) {
  if (!items.length && !empty) return null;
  return h("section.friend-group", { id }, h("h3", {}, title), items.length ? h("ul.people", {}, items) : h("p.muted", {}, empty));
}

/**
 * The friends' part of the home: drawn into `box`, again after each change.
 * @param {HTMLElement} box
 * @param {string} [said] what the last change did, said above the lists
 * @param {string} [heading] the heading's element: h1 on the friends' own page, h2 on the home
 */
export async function drawFriends(box, said = "", heading = "h2") {
  const error = h("p.error", { role: "alert", id: "friends-error" });
  /** @param {() => Promise<unknown>} action */
  const run = async (action) => {
    try {
      await action();
      await drawFriends(box, "", heading);
    } catch (err) { fill(error, err instanceof Error ? err.message : String(err)); }
  };
  /** @type {Friends} */
  let lists;
  try {
    lists = await get("/api/me/friends");
  } catch (err) {
    fill(box, h(heading, {}, t("web.friends.title")), h("p.error", { role: "alert" }, err instanceof Error ? err.message : String(err)));
    return;
  }
  const q = (/** @type {string} */ name) => encodeURIComponent(name);
  const block = (/** @type {string} */ name) => /** @type {[string, () => Promise<unknown>, string]} */ ([t("web.friends.block"), () => post("/api/me/blocks", { name }), "quiet"]);
  const ask = field("friend-name", t("web.friends.name"), { required: true, maxlength: 20, autocomplete: "off", autocapitalize: "none" });
  const { form } = sendingForm({ id: "ask-friend", label: t("web.friends.ask"), submit: t("web.friends.ask") }, [ask.row], async () => {
    const name = ask.input.value.trim();
    await post("/api/me/friends", { name });
    await drawFriends(box, t("web.friends.asked_now", { name }), heading);
  });
  fill(box, h(heading, {}, t("web.friends.title")), error, h("p.status", { role: "status", id: "friends-status" }, said),
    group(t("web.friends.asking"), "friends-asking", lists.asking.map(({ name }) => person(name, [
      [t("web.friends.accept"), () => post("/api/me/friends", { name }), "primary"],
      [t("web.friends.decline"), () => del(`/api/me/friends/${q(name)}`)], block(name)], run))),
    group(t("web.friends.friends"), "friends-list", lists.friends.map(({ name }) => person(name, [
      [t("web.friends.remove"), () => del(`/api/me/friends/${q(name)}`)], block(name)], run)), t("web.friends.none")),
    group(t("web.friends.asked"), "friends-asked", lists.asked.map(({ name }) => person(name, [
      [t("web.friends.withdraw"), () => del(`/api/me/friends/${q(name)}`)]], run))),
    group(t("web.friends.blocked"), "friends-blocked", lists.blocked.map(({ name }) => person(name, [
      [t("web.friends.unblock"), () => del(`/api/me/blocks/${q(name)}`)]], run))),
    form);
}
