// @ts-check
// The parts the account pages share: a labelled field, a form that sends once (its button disabled while the
// server answers) and shows the server's refusal in the person's language, and the prompt to sign in.
import { fill, h, link } from "../../dom.js";
import { t } from "../../i18n.js";

/**
 * A labelled input with its help below it.
 * @param {string} id
 * @param {string} label
 * @param {Record<string, unknown>} attrs the input's attributes (type, autocomplete, …)
 * @param {string} [help]
 * @returns {{row: HTMLElement, input: HTMLInputElement}}
 */
export function field(id, label, attrs, help) {
  const input = /** @type {HTMLInputElement} */ (h("input", { id, name: id, ...attrs, "aria-describedby": help ? `${id}-help` : undefined }));
  const words = h("label", { for: id }, label);
  const check = attrs.type === "checkbox";  // a box before its words
  const row = h(`div.field${check ? ".check" : ""}`, {}, check ? [input, words] : [words, input],
    help ? h("p.help", { id: `${id}-help` }, help) : null);
  return { row, input };
}

/**
 * A form that sends once: on submit its button is disabled until `action` answered; a refusal (its message, in the
 * person's language) is shown in the form's alert, and the button is usable again.
 * @param {{id: string, label: string, submit: string, danger?: boolean, plain?: boolean}} spec the form's id, its
 *   name for screen readers, its button's words, and its button's look (a danger, a plain one; else the primary)
 * @param {unknown[]} children the fields
 * @param {() => Promise<unknown>} action what the form does
 * @returns {{form: HTMLFormElement, error: HTMLElement, status: HTMLElement}}
 */
export function sendingForm(spec, children, action) {
  const error = h("p.error", { role: "alert", id: `${spec.id}-error` });
  const status = h("p.status", { role: "status", id: `${spec.id}-status` });
  const button = /** @type {HTMLButtonElement} */ (h(`button${spec.danger ? ".danger" : spec.plain ? "" : ".primary"}`, { type: "submit" }, spec.submit));
  const form = /** @type {HTMLFormElement} */ (h("form.account-form", { id: spec.id, "aria-label": spec.label, onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    if (button.disabled) return;
    button.disabled = true;
    fill(error);
    fill(status);
    try {
      await action();
    } catch (err) {
      fill(error, err instanceof Error ? err.message : String(err));
    } finally {
      button.disabled = false;
    }
  } }, children, error, status, h("div.buttons", {}, button)));
  return { form, error, status };
}

/**
 * A page for people signed in only, opened by a guest: what it is for, and the ways to sign in or up (coming back
 * here after).
 * @param {string} title the page's heading
 * @param {string} path where the person comes back to
 */
export function signInFirst(title, path) {
  const next = `?next=${encodeURIComponent(path)}`;
  return h("section.panel.sign-first", {}, h("h1", {}, title), h("p", {}, t("web.account.sign_in_first")),
    h("div.buttons", {}, link(`/signin${next}`, t("web.account.sign_in"), "button.primary"), link(`/signup${next}`, t("web.account.sign_up"), "button")));
}

/**
 * Where to go after signing in: the page asked for (`?next=`, a path of this site only), else the home.
 * @param {string} search the address's query (`location.search`)
 */
export function nextPath(search) {
  const next = new URLSearchParams(search).get("next") || "";
  return /^\/(?![/\\])/.test(next) ? next : "/me";
}
