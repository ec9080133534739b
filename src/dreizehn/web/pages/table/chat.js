// @ts-check
// The chat's form under the log: a line of free text (at most 200 characters) or a quick phrase, which each reader
// reads in their own language. The lines themselves join the log (model.js hear, log.js chatWords).
import { h, redraw } from "../../dom.js";
import { lang, t } from "../../i18n.js";

/** The quick phrases, by key (the server's list, docs/server.md). */
export const PHRASES = ["hello", "good_luck", "well_played", "thanks", "oops", "good_game", "one_moment", "bye"];

/**
 * Draw the form (again when the language changes).
 * @param {HTMLElement} el its holder
 * @param {boolean} spectator whether the page watches (its lines reach the spectators only)
 * @param {(message: {type: "say", text?: string, phrase?: string}) => void} send
 */
export function drawChat(el, spectator, send) {
  redraw(el, lang(), () => {
    const input = /** @type {HTMLInputElement} */ (h("input", { id: "chat-text", name: "text", maxlength: 200,
      autocomplete: "off", placeholder: t(spectator ? "web.chat_to_spectators" : "web.chat_placeholder"),
      "aria-label": t("web.chat") }));
    const phrase = /** @type {HTMLSelectElement} */ (h("select", { id: "chat-phrase", "aria-label": t("web.chat_phrase"),
      onchange: () => {
        if (phrase.value) send({ type: "say", phrase: phrase.value });
        phrase.value = "";
      } }, h("option", { value: "" }, t("web.chat_phrase")), ...PHRASES.map((p) => h("option", { value: p }, t(`web.chat.${p}`)))));
    return h("form.chat", { onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (text) send({ type: "say", text });
      input.value = "";
    } }, input, h("button.secondary", { type: "submit", id: "chat-send" }, t("web.chat_send")), phrase);
  });
}
