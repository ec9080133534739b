// @ts-check
// A page that leads nowhere (an unknown address, a link that opens no table, a page that failed): what went wrong
// in the person's language, and the way back to the start page.
import { h, link } from "../dom.js";
import { t } from "../i18n.js";

/**
 * The dead end's section: a heading, the reason when there is one, and a link to the start page.
 * @param {string} title what went wrong
 * @param {string} [reason] why, in words (a refusal's message)
 * @returns {HTMLElement}
 */
export function deadEnd(title, reason = "") {
  return h("section.dead-end", { role: "alert" }, h("h1", {}, title), reason ? h("p", {}, reason) : null,
    h("p", {}, link("/", t("web.back_home"), "button")));
}
