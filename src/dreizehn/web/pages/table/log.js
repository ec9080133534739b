// @ts-check
// The last moves in words (an ARIA live region that says only what is added): the new lines are appended and the
// oldest removed, never the whole list, so a log the person scrolled up stays where it was, and one scrolled to its
// end follows the new lines.
import { h } from "../../dom.js";

/** How near its end (in pixels) a log counts as read to the end. */
const AT_END = 8;

/**
 * @param {HTMLElement} list the log's list
 * @param {{n: number, text: string}[]} lines the lines to show, numbered, oldest first
 */
export function drawLog(list, lines) {
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < AT_END;
  const first = lines.length ? lines[0].n : Infinity;
  let gone = 0;
  for (let old = firstItem(list); old && Number(old.dataset.n) < first; old = firstItem(list)) {
    gone += old.offsetHeight;
    old.remove();
  }
  const last = list.lastElementChild instanceof HTMLElement ? Number(list.lastElementChild.dataset.n) : 0;
  for (const line of lines) if (line.n > last) list.append(h("li", { "data-n": line.n }, line.text));
  if (atEnd) list.scrollTop = list.scrollHeight;
  else if (gone) list.scrollTop = Math.max(0, list.scrollTop - gone);
}

/** @param {HTMLElement} list */
function firstItem(list) {
  return list.firstElementChild instanceof HTMLElement ? list.firstElementChild : null;
}
