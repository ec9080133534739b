// @ts-check
// Signing up (/signup), in (/signin) with "Forgot your password?" (/forgot: a link by e-mail), a new password from
// that link (/reset/{token}) and an e-mail address proved by its link (/verify/{token}). A guest's seats go with
// them (account.js sends the invitation tokens this browser holds).
import { get, post } from "../../api.js";
import { heldSeats, session, signIn, signUp } from "../../account.js";
import { fill, h, link } from "../../dom.js";
import { t } from "../../i18n.js";
import { field, nextPath, sendingForm } from "./form.js";

/** @typedef {{setTitle: (text: string) => void, go: (path: string) => void}} App */

/** A note that the seats this browser played as a guest become the account's (none: nothing). */
function seatsNote() {
  const n = heldSeats().length;
  return n ? h("p.note", { id: "seats-note" }, t("web.account.seats_kept", { n })) : null;
}

/**
 * @param {HTMLElement} root
 * @param {App} app
 */
export function signUpPage(root, app) {
  app.setTitle(t("web.account.sign_up"));
  const name = field("signup-name", t("web.account.name"), { required: true, maxlength: 20, autocomplete: "username",
    autocapitalize: "none", spellcheck: "false" }, t("web.account.name_help"));
  const password = field("signup-password", t("web.account.password"), { type: "password", required: true,
    minlength: 8, maxlength: 200, autocomplete: "new-password" }, t("web.account.password_help"));
  const email = field("signup-email", t("web.account.email_optional"), { type: "email", autocomplete: "email", maxlength: 254 },
    t("web.account.email_help"));
  const { form } = sendingForm({ id: "signup", label: t("web.account.sign_up"), submit: t("web.account.sign_up_button") },
    [name.row, password.row, email.row, seatsNote()], async () => {
      await signUp(name.input.value.trim(), password.input.value, email.input.value.trim());
      app.go(nextPath(location.search));
    });
  fill(root, h("section.panel.sign", {}, h("h1", {}, t("web.account.sign_up")), h("p.lead", {}, t("web.account.why")), form,
    h("p", {}, t("web.account.have_one"), " ", link(`/signin${location.search}`, t("web.account.sign_in"))),
    h("p.muted", {}, t("web.account.guests_welcome"))));
}

/**
 * @param {HTMLElement} root
 * @param {App} app
 */
export function signInPage(root, app) {
  app.setTitle(t("web.account.sign_in"));
  const name = field("signin-name", t("web.account.name"), { required: true, maxlength: 200, autocomplete: "username",
    autocapitalize: "none", spellcheck: "false" });
  const password = field("signin-password", t("web.account.password"), { type: "password", required: true, maxlength: 4096,
    autocomplete: "current-password" });
  const { form } = sendingForm({ id: "signin", label: t("web.account.sign_in"), submit: t("web.account.sign_in_button") },
    [name.row, password.row, seatsNote()], async () => {
      await signIn(name.input.value.trim(), password.input.value);
      app.go(nextPath(location.search));
    });
  fill(root, h("section.panel.sign", {}, h("h1", {}, t("web.account.sign_in")), form,
    h("p", {}, link("/forgot", t("web.account.forgot"), "forgot")),
    h("p", {}, t("web.account.no_account"), " ", link(`/signup${location.search}`, t("web.account.sign_up")))));
}

/**
 * Whether the server sends mail (GET /api/account/mail); a server that does not say is taken to send none.
 * @returns {Promise<boolean>}
 */
export async function mailConfigured() {
  try {
    return !!(await get("/api/account/mail")).configured;
  } catch {
    return false;
  }
}

/**
 * "Forgot your password?": a name or an e-mail address; the server answers the same for every one (it never says
 * whether an account exists), and mails the link where it can.
 * @param {HTMLElement} root
 * @param {App} app
 */
export async function forgotPage(root, app) {
  app.setTitle(t("web.account.forgot"));
  const mail = await mailConfigured();
  const who = field("forgot-name", t("web.account.name_or_email"), { required: true, maxlength: 254, autocomplete: "username",
    autocapitalize: "none" });
  const { form, status } = sendingForm({ id: "forgot", label: t("web.account.forgot"), submit: t("web.account.send_link") },
    [who.row], async () => {
      await post("/api/account/reset", { name: who.input.value.trim() });
      fill(status, t("web.account.link_sent"));
    });
  fill(root, h("section.panel.sign", {}, h("h1", {}, t("web.account.forgot")), h("p", {}, t("web.account.forgot_help")),
    mail ? null : h("p.note.warn-note", { id: "no-mail" }, t("web.account.no_mail")), form,
    h("p", {}, link("/signin", t("web.account.sign_in")))));
}

/**
 * A new password from the link of a reset mail: it works once, for an hour; every session of the account ends.
 * @param {HTMLElement} root
 * @param {App} app
 * @param {string} token the link's token
 */
export function resetPage(root, app, token) {
  app.setTitle(t("web.account.reset"));
  const password = field("reset-password", t("web.account.new_password"), { type: "password", required: true, minlength: 8,
    maxlength: 200, autocomplete: "new-password" }, t("web.account.password_help"));
  const { form } = sendingForm({ id: "reset", label: t("web.account.reset"), submit: t("web.account.reset_button") },
    [password.row], async () => {
      await post("/api/account/reset/confirm", { token, password: password.input.value });
      fill(root, h("section.panel.sign", { role: "status" }, h("h1", {}, t("web.account.reset_done")),
        h("p", {}, t("web.account.reset_done_help")), h("p", {}, link("/signin", t("web.account.sign_in"), "button.primary"))));
    });
  fill(root, h("section.panel.sign", {}, h("h1", {}, t("web.account.reset")), form));
}

/**
 * An e-mail address proved by its link: said at once (the link works once, for an hour).
 * @param {HTMLElement} root
 * @param {App} app
 * @param {string} token the link's token
 */
export async function verifyPage(root, app, token) {
  app.setTitle(t("web.account.verify"));
  let words;
  try {
    await post("/api/account/verify", { token });
    words = h("p.good", { id: "verified" }, t("web.account.verified"));
  } catch (err) {
    words = h("p.error", { role: "alert" }, err instanceof Error ? err.message : String(err));
  }
  fill(root, h("section.panel.sign", {}, h("h1", {}, t("web.account.verify")), words,
    h("p", {}, session() ? link("/me/settings", t("web.account.settings"), "button") : link("/signin", t("web.account.sign_in"), "button"))));
}
