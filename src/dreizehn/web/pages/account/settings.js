// @ts-check
// The settings of an account (/me/settings): what every device applies on load (language, sound, reduced motion,
// default bot level, kept on the server), the password, the e-mail address (set, verified or not), API tokens
// (made, shown once, listed, revoked), signing out everywhere, and deleting the account (its password asked).
// Each part asks the server for what it shows on its own, so a part that fails says so and the others stay.
import { del, get, post } from "../../api.js";
import { BOT_LEVELS, changePassword, deleteAccount, saveSettings, session, signOutEverywhere } from "../../account.js";
import { fill, h, link } from "../../dom.js";
import { LANGUAGES, lang, loadLanguage, t } from "../../i18n.js";
import { copyRow } from "../table/invites.js";
import { field, sendingForm, signInFirst } from "./form.js";
import { mailConfigured } from "./sign.js";
import { noticesPart } from "./notices.js";

/** @typedef {{setTitle: (text: string) => void, go: (path: string) => void, again: () => void}} App */
/** @typedef {import("../../account.js").Settings} Settings */
/** @typedef {{id: string, label: string, created_at: string, used_at: string | null}} ApiToken */

/** @type {Record<string, string>} each language in its own words */
const NAMES = { en: "English", de: "Deutsch", nl: "Nederlands" };

/**
 * A part of the settings: a heading and what it holds.
 * @param {string} id
 * @param {string} title
 * @param {...unknown} children
 */
function part(id, title, ...children) {
  return h("section.panel.settings-part", { id, "aria-labelledby": `${id}-title` }, h("h2", { id: `${id}-title` }, title), children);
}

/**
 * A select of `choices` ([value, words]) with its label.
 * @param {string} id
 * @param {string} label
 * @param {Array<[string, string]>} choices
 * @param {string} value
 */
function choice(id, label, choices, value) {
  const select = /** @type {HTMLSelectElement} */ (h("select", { id, name: id }, choices.map(([v, words]) => h("option", { value: v }, words))));
  select.value = value;
  return { row: h("div.field", {}, h("label", { for: id }, label), select), select };
}

/**
 * What every device applies: language, sound, reduced motion, default bot level.
 * @param {App} app
 */
async function preferences(app) {
  /** @type {Settings} */
  const now = await get("/api/me/settings");
  const language = choice("set-language", t("web.settings.language"),
    [["", t("web.settings.browser_language")], ...LANGUAGES.map((c) => /** @type {[string, string]} */ ([c, NAMES[c]]))], now.language || "");
  const sound = field("set-sound", t("web.settings.sound"), { type: "checkbox", checked: now.sound ? true : undefined }, t("web.settings.sound_help"));
  const motion = field("set-motion", t("web.settings.motion"), { type: "checkbox", checked: now.reduced_motion ? true : undefined },
    t("web.settings.motion_help"));
  const level = choice("set-bot-level", t("web.settings.bot_level"), BOT_LEVELS.map((l) => /** @type {[string, string]} */ ([l, t(`web.level.${l}`)])), now.bot_level);
  const { form, status } = sendingForm({ id: "preferences", label: t("web.settings.preferences"), submit: t("web.settings.save") },
    [language.row, sound.row, motion.row, level.row], async () => {
      const saved = await saveSettings({ language: language.select.value || null, sound: sound.input.checked,
        reduced_motion: motion.input.checked, bot_level: level.select.value });
      if (saved.language && saved.language !== lang()) {
        await loadLanguage(saved.language);
        app.again();
        return;
      }
      fill(status, t("web.settings.saved"));
    });
  return [h("p.help", {}, t("web.settings.everywhere")), form];
}

/** The password: the one in use and the new one; every other device is signed out. */
function passwordPart() {
  const old = field("old-password", t("web.settings.old_password"), { type: "password", required: true, autocomplete: "current-password", maxlength: 4096 });
  const fresh = field("new-password", t("web.account.new_password"), { type: "password", required: true, minlength: 8, maxlength: 200,
    autocomplete: "new-password" }, t("web.account.password_help"));
  const { form, status } = sendingForm({ id: "password", label: t("web.settings.password"), submit: t("web.settings.change_password") },
    [old.row, fresh.row], async () => {
      await changePassword(old.input.value, fresh.input.value);
      old.input.value = "";
      fresh.input.value = "";
      fill(status, t("web.settings.password_changed"));
    });
  return form;
}

/** The e-mail address: which one, whether it is verified, and a new one (a link is mailed to it). */
async function emailPart() {
  const who = session();
  const mail = await mailConfigured();
  const now = who && who.email
    ? h("p", { id: "email-now" }, t("web.settings.email_now", { email: who.email }), " ",
      h(`span.tag${who.email_verified ? ".ok" : ".warn"}`, {}, t(who.email_verified ? "web.settings.verified" : "web.settings.unverified")))
    : h("p.muted", { id: "email-now" }, t("web.settings.no_email"));
  const address = field("email", t("web.settings.new_email"), { type: "email", required: true, maxlength: 254, autocomplete: "email" },
    t("web.account.email_help"));
  const { form, status } = sendingForm({ id: "email-form", label: t("web.settings.email"), submit: t("web.settings.set_email") },
    [address.row], async () => {
      await post("/api/account/email", { email: address.input.value.trim() });
      fill(status, t("web.settings.email_sent", { email: address.input.value.trim() }));
    });
  return [now, mail ? null : h("p.note.warn-note", {}, t("web.account.no_mail")), form];
}

/**
 * API tokens: those made (label, made, last used) with "Revoke", and a new one, shown once.
 * @param {HTMLElement} box
 * @param {HTMLElement | null} [shown] the token just made, shown once
 */
async function drawTokens(box, shown = null) {
  /** @type {ApiToken[]} */
  const tokens = await get("/api/me/tokens");
  const error = h("p.error", { role: "alert" });
  const day = (/** @type {string | null} */ iso) => (iso ? new Date(iso).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" }) : t("web.settings.never"));
  const label = field("token-label", t("web.settings.token_label"), { required: true, maxlength: 60, autocomplete: "off" }, t("web.settings.token_label_help"));
  const { form } = sendingForm({ id: "token-form", label: t("web.settings.new_token"), submit: t("web.settings.new_token") }, [label.row], async () => {
    const made = await post("/api/me/tokens", { label: label.input.value.trim() });
    await drawTokens(box, h("div.token-once", { role: "status" }, copyRow(t("web.settings.token_once", { label: made.label }), made.token, "new-token")));
  });
  fill(box, h("p.help", {}, t("web.settings.tokens_help")), shown, error,
    tokens.length ? h("ul.tokens", { id: "token-list" }, tokens.map((tok) => h("li", { "data-token": tok.id },
      h("strong", {}, tok.label), h("span.muted", {}, t("web.settings.token_dates", { made: day(tok.created_at), used: day(tok.used_at) })),
      h("button.small-button", { type: "button", onclick: async () => {
        try { await del(`/api/me/tokens/${encodeURIComponent(tok.id)}`); await drawTokens(box); }
        catch (err) { fill(error, err instanceof Error ? err.message : String(err)); }
      } }, t("web.settings.revoke")))))
      : h("p.muted", { id: "token-list" }, t("web.settings.no_tokens")),
    form);
}

/**
 * Signing out everywhere, and deleting the account.
 * @param {HTMLElement} root the page (a deleted account's page says so)
 * @param {App} app
 */
function leaving(root, app) {
  const everywhere = sendingForm({ id: "everywhere", label: t("web.settings.everywhere_out"), submit: t("web.settings.everywhere_out"), plain: true },
    [h("p.help", {}, t("web.settings.everywhere_out_help"))], async () => {
      await signOutEverywhere();
      app.go("/");
    }).form;
  const password = field("delete-password", t("web.account.password"), { type: "password", required: true, autocomplete: "current-password", maxlength: 4096 });
  const remove = sendingForm({ id: "delete", label: t("web.settings.delete"), submit: t("web.settings.delete_button"), danger: true },
    [h("p", {}, t("web.settings.delete_help")), password.row], async () => {
      await deleteAccount(password.input.value);
      app.setTitle(t("web.settings.deleted"));
      fill(root, h("section.panel.sign", { role: "status", id: "deleted" }, h("h1", {}, t("web.settings.deleted")),
        h("p", {}, t("web.settings.deleted_help")), h("p", {}, link("/", t("web.back_home"), "button.primary"))));
    }).form;
  return [everywhere, h("h3", {}, t("web.settings.delete")), remove];
}

/**
 * Fill a part with what `make` answers, or the reason it could not (its refusal's words).
 * @param {HTMLElement} el
 * @param {() => Promise<unknown>} make
 */
async function filled(el, make) {
  try {
    const made = await make();
    if (made !== undefined) el.append(...[made].flat().filter(Boolean).map((c) => /** @type {Node} */ (c)));
  } catch (err) {
    el.append(h("p.error", { role: "alert" }, err instanceof Error ? err.message : String(err)));
  }
}

/**
 * @param {HTMLElement} root
 * @param {App} app
 */
export async function settingsPage(root, app) {
  app.setTitle(t("web.account.settings"));
  if (!session()) { fill(root, signInFirst(t("web.account.settings"), "/me/settings")); return; }
  const prefs = part("settings-prefs", t("web.settings.preferences"));
  const email = part("settings-email", t("web.settings.email"));
  const tokens = h("div.tokens-box");
  const notices = part("settings-notices", t("web.notices.title"));
  // busy (for screen readers, and for whoever waits on the page) until every part has asked the server
  const grid = h("div.settings-grid", { "aria-busy": "true" }, prefs, part("settings-password", t("web.settings.password"), passwordPart()),
    email, notices, part("settings-tokens", t("web.settings.tokens"), tokens), part("settings-leave", t("web.settings.leave"), leaving(root, app)));
  fill(root, h("div.settings-head", {}, h("h1", {}, t("web.account.settings")), h("a.back", { href: "/me", "data-route": "" }, t("web.me.back"))),
    grid);
  await Promise.all([filled(prefs, () => preferences(app)), filled(email, emailPart), filled(notices, noticesPart), filled(tokens, () => drawTokens(tokens))]);
  grid.removeAttribute("aria-busy");
}
