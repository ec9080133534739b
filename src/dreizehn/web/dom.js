// @ts-check
// A small helper to build elements: h("button.primary", {onclick}, "text", child, ...). Text is always text: no
// attribute writes markup (an attribute named "html" is an attribute like any other).
/**
 * @param {string} spec the tag and its classes: "button.primary"
 * @param {Record<string, unknown> | null} [attrs] attributes; a function for on…; `dataset`; `text`
 * @param {...unknown} children elements, texts (always text), lists of them; none, null and false are left out
 * @returns {HTMLElement}
 */
export function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = String(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * Replace the children of `el`.
 * @param {HTMLElement} el
 * @param {...unknown} children as {@link h} takes them
 */
export function fill(el, ...children) {
  el.replaceChildren();
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * A link handled by the app's router (no page load).
 * @param {string} href
 * @param {unknown} text
 * @param {string} [cls] its classes
 */
export function link(href, text, cls = "") {
  return h(`a${cls ? "." + cls : ""}`, { href, "data-route": "" }, text);
}

/** The key each element was last filled for by {@link redraw}. */
const drawnFor = new WeakMap();

/**
 * Fill `el` with what `build` makes, only when `key` differs from the one it was last filled for: a part of the page
 * whose data did not change is left as it is, so the focus, the scroll and a text selection in it stay.
 * @param {HTMLElement} el
 * @param {string} key what the part is drawn from (its data, as JSON)
 * @param {() => unknown} build its children
 * @returns {boolean} whether it was filled again
 */
export function redraw(el, key, build) {
  if (drawnFor.get(el) === key) return false;
  drawnFor.set(el, key);
  fill(el, build());
  return true;
}

/** The data attributes that name what an element stands for (a card, an action, a row, a target, a tool): an element
 * drawn again for the same thing gets the focus back. */
const FOCUS_KEYS = ["card", "action", "row", "target", "do"];

/**
 * Run `draw` (which may replace parts of `root`); if the focused element was replaced, focus the element drawn for
 * the same thing (the same `data-card`, `data-action`, …), unless something else took the focus meanwhile.
 * @param {HTMLElement} root
 * @param {() => void} draw
 */
export function keepingFocus(root, draw) {
  const before = document.activeElement;
  const name = before instanceof HTMLElement ? FOCUS_KEYS.find((k) => before.dataset[k]) : undefined;
  draw();
  if (!(before instanceof HTMLElement) || !name || before.isConnected) return;
  if (document.activeElement && document.activeElement !== document.body) return;
  const value = before.dataset[name];
  const again = [...root.querySelectorAll(`[data-${name}]`)].find((e) => e instanceof HTMLElement && e.dataset[name] === value);
  if (again instanceof HTMLElement) again.focus();
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * An SVG element with its attributes and, if given, its text (the pages' small plots).
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 */
export function svg(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}
