// @ts-check
// The game's log in words, a heading before each stage (an ARIA live region that says only what is added): the new
// lines are appended and the oldest removed, never the whole list, so a log the person scrolled up stays where it
// was, and one scrolled to its end follows the new lines.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";

/** How near its end (in pixels) a log counts as read to the end. */
const AT_END = 8;

/**
 * @param {HTMLElement} list the log's list
 * @param {import("./model.js").LogLine[]} lines the lines to show, numbered, oldest first
 * @param {(stage: number) => string} heading a stage's heading in words ("Round 3 of 11")
 */
export function drawLog(list, lines, heading) {
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < AT_END;
  const first = lines.length ? lines[0].n : Infinity;
  let gone = 0;
  let removed = 0;
  for (let old = firstItem(list); old && Number(old.dataset.n) < first; old = firstItem(list)) {
    gone += old.offsetHeight;
    removed += 1;
    old.remove();
  }
  const replaced = removed > 0 && !list.childElementCount;  // a new log (a resync): its end, where the news is
  const last = list.lastElementChild instanceof HTMLElement ? Number(list.lastElementChild.dataset.n) : 0;
  for (const line of lines) {
    if (line.n > last) list.append(itemOf(line, heading));
  }
  if (atEnd || replaced) list.scrollTop = list.scrollHeight;
  else if (gone) list.scrollTop = Math.max(0, list.scrollTop - gone);
}

/**
 * A line's item: a line of chat, a stage's heading, or words.
 * @param {import("./model.js").LogLine} line
 * @param {(stage: number) => string} heading
 */
function itemOf(line, heading) {
  if (line.chat) return h("li.chat", { "data-n": line.n }, chatWords(line.chat));
  if (line.stage !== undefined) {
    const words = heading(line.stage);
    return h("li.stage-head", { "data-n": line.n, "data-stage": line.stage }, words.charAt(0).toUpperCase() + words.slice(1));
  }
  return h("li", { "data-n": line.n }, line.text);
}

/** @param {HTMLElement} list */
function firstItem(list) {
  return list.firstElementChild instanceof HTMLElement ? list.firstElementChild : null;
}

/**
 * A line of chat in words: who said it (a spectator as such), then the text or the phrase in the reader's language.
 * @param {import("./model.js").ChatLine} line
 */
export function chatWords(line) {
  const spectator = t("web.spectator");
  const who = line.seat === null ? spectator.charAt(0).toUpperCase() + spectator.slice(1) : line.name;
  return `${who}: ${line.text !== null ? line.text : t(`web.chat.${line.phrase}`)}`;
}
