// @ts-check
// The settings' part "When it is your turn" (docs/notices.md): notifications in this browser (asked of the browser
// only when turned on, rule N3), Web Push on this device (the service worker /sw.js, subscribed and unsubscribed
// here, N4), and what the account is mailed (none, a mail a game, a daily digest; a verified address needed, N5).
// And the page of a mail's unsubscribe link, which stops the mails only when its button is pressed (N6).
import { del, get, post, put } from "../../api.js";
import { fill, h, link } from "../../dom.js";
import { t } from "../../i18n.js";
import { NOTIFY_KEY } from "../../notices.js";
import { field, sendingForm } from "./form.js";

/** @typedef {{setTitle: (text: string) => void, go: (path: string) => void, again: () => void}} App */
/** @typedef {{mail: string, mail_configured: boolean, email_verified: boolean, push_subscriptions: number}} NoticesOut */

/**
 * base64url to bytes (the server's VAPID key, as PushManager.subscribe takes it).
 * @param {string} text
 */
export function urlBytes(text) {
  const plain = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = plain + "=".repeat((4 - (plain.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/** Notifications in this browser while the site is open: a box; turning it on asks the browser. */
function browserPart() {
  const note = h("p.help", { id: "notify-note", role: "status" });
  const supported = typeof Notification !== "undefined";
  const on = supported && Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "on";
  const box = field("notify", t("web.notices.browser"), { type: "checkbox", checked: on ? true : undefined, disabled: supported ? undefined : true },
    t("web.notices.browser_help"));
  if (!supported) fill(note, t("web.notices.unsupported"));
  box.input.addEventListener("change", async () => {
    fill(note);
    if (!box.input.checked) { localStorage.removeItem(NOTIFY_KEY); return; }
    const answer = await Notification.requestPermission();
    if (answer === "granted") localStorage.setItem(NOTIFY_KEY, "on");
    else { box.input.checked = false; localStorage.removeItem(NOTIFY_KEY); fill(note, t("web.notices.denied")); }
  });
  return h("div.notices-browser", {}, box.row, note);
}

/** The push subscription of this browser, if it has one (and can have one). */
async function pushRegistration() {
  if (!("serviceWorker" in navigator) || typeof PushManager === "undefined") return null;
  return navigator.serviceWorker.register("/sw.js", { scope: "/" });
}

/** Web Push on this device: its state and a button that turns it on or off. */
async function pushPart() {
  const box = h("div.push", { id: "push" });
  const registration = await pushRegistration().catch(() => null);
  if (!registration) return h("div.field", {}, h("p", {}, t("web.notices.push")), h("p.help", {}, t("web.notices.unsupported")));
  const draw = async () => {
    const subscription = await registration.pushManager.getSubscription();
    const error = h("p.error", { role: "alert" });
    const toggle = h("button", { type: "button", id: "push-toggle", onclick: async () => {
      try {
        if (subscription) {
          await del("/api/me/push", { endpoint: subscription.endpoint }).catch(() => null);
          await subscription.unsubscribe();
        } else {
          if (typeof Notification !== "undefined" && (await Notification.requestPermission()) !== "granted") { fill(error, t("web.notices.denied")); return; }
          const { key } = await get("/api/push/key");
          const made = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlBytes(key) });
          const json = made.toJSON();
          await post("/api/me/push", { endpoint: json.endpoint, keys: { p256dh: json.keys?.p256dh, auth: json.keys?.auth } });
        }
        await draw();
      } catch (err) { fill(error, err instanceof Error ? err.message : String(err)); }
    } }, t(subscription ? "web.notices.push_off" : "web.notices.push_on"));
    fill(box, h("p", {}, h("strong", {}, t("web.notices.push")), " ", t(subscription ? "web.notices.push_is_on" : "web.notices.push_is_off")),
      h("p.help", {}, t("web.notices.push_help")), h("div.buttons", {}, toggle), error);
  };
  await draw();
  return box;
}

/** What the account is mailed. */
async function mailPart() {
  /** @type {NoticesOut} */
  const now = await get("/api/me/notices");
  const select = /** @type {HTMLSelectElement} */ (h("select", { id: "notice-mail", name: "notice-mail" },
    ["off", "each", "digest"].map((v) => h("option", { value: v }, t(`web.notices.mail_${v}`)))));
  select.value = now.mail;
  const blocked = !now.mail_configured || !now.email_verified;
  if (blocked) select.disabled = true;
  const { form, status } = sendingForm({ id: "notice-mail-form", label: t("web.notices.mail"), submit: t("web.notices.save") },
    [h("div.field", {}, h("label", { for: "notice-mail" }, t("web.notices.mail")), select),
      !now.mail_configured ? h("p.note.warn-note", {}, t("web.notices.no_mail"))
        : !now.email_verified ? h("p.note.warn-note", {}, t("web.notices.mail_unverified")) : null], async () => {
      /** @type {NoticesOut} */
      const saved = await put("/api/me/notices", { mail: select.value });
      select.value = saved.mail;
      fill(status, t("web.notices.saved"));
    });
  const save = form.querySelector("button[type=submit]");
  if (blocked && save instanceof HTMLButtonElement) save.disabled = true;
  return form;
}

/**
 * Fill `el` with what `make` answers when it comes, or the reason it could not.
 * @param {HTMLElement} el
 * @param {() => Promise<unknown>} make
 */
async function later(el, make) {
  try {
    fill(el, await make());
  } catch (err) {
    fill(el, h("p.error", { role: "alert" }, err instanceof Error ? err.message : String(err)));
  }
}

/** The part of the settings page: the browser's box at once, push and mail as the browser and the server answer. */
export function noticesPart() {
  const push = h("div.notices-push", {}, h("p.loading", {}, "…"));
  const mail = h("div.notices-mail", {}, h("p.loading", {}, "…"));
  later(push, pushPart);
  later(mail, mailPart);
  return Promise.resolve([h("p.help", {}, t("web.notices.help")), browserPart(), push, mail]);
}

/**
 * The page of a mail's unsubscribe link: a button that stops the mails (a link followed stops nothing).
 * @param {HTMLElement} root
 * @param {App} app
 * @param {string} token
 */
export function unsubscribePage(root, app, token) {
  app.setTitle(t("web.notices.unsubscribe"));
  const done = h("div", { role: "status", id: "unsubscribe-done" });
  const { form } = sendingForm({ id: "unsubscribe", label: t("web.notices.unsubscribe"), submit: t("web.notices.unsubscribe") },
    [h("p", {}, t("web.notices.unsubscribe_help"))], async () => {
      await post(`/api/notices/unsubscribe/${encodeURIComponent(token)}`, {});
      form.hidden = true;
      fill(done, h("p", {}, t("web.notices.unsubscribed")), h("p", {}, link("/", t("web.back_home"), "button")));
    });
  fill(root, h("section.panel.sign", {}, h("h1", {}, t("web.notices.unsubscribe")), form, done));
}
