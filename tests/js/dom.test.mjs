// The element builder (src/dreizehn/web/dom.js): text is always text, a part is drawn again only when its key
// changed, and the focus comes back to the element drawn again for the same thing.
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";

openPage();
const { fill, h, keepingFocus, link, redraw } = await import("../../src/dreizehn/web/dom.js");

test("h builds the tag, its classes, attributes, data and children", () => {
  const el = h("button.primary.big", { type: "button", disabled: true, hidden: false, title: null, dataset: { card: "B5" } },
    "play ", h("kbd", {}, 1), null, [["B5"]]);
  assert.equal(el.tagName, "BUTTON");
  assert.equal(el.className, "primary big");
  assert.equal(el.getAttribute("type"), "button");
  assert.equal(el.getAttribute("disabled"), "");
  assert.ok(!el.hasAttribute("hidden") && !el.hasAttribute("title"));
  assert.equal(el.dataset.card, "B5");
  assert.equal(el.textContent, "play 1B5");
  assert.equal(h(".x").tagName, "DIV");
});

test("text is never markup: not as a child, not as an attribute named html, not as text", () => {
  const el = h("p", { html: "<b>bold</b>", text: "<i>x</i>" }, "<script>alert(1)</script>");
  assert.equal(el.querySelector("b, i, script"), null);
  assert.equal(el.getAttribute("html"), "<b>bold</b>");
  assert.equal(el.textContent, "<i>x</i><script>alert(1)</script>");
  assert.equal(fill(h("div"), "<b>a</b>").children.length, 0);
});

test("on… attributes that are functions listen; others are attributes", () => {
  let clicks = 0;
  const el = h("button", { onclick: () => { clicks += 1; }, onload: "alert(1)" });
  el.click();
  assert.equal(clicks, 1);
  assert.equal(el.getAttribute("onload"), "alert(1)");  // written as an attribute by the test, never by the client
});

test("fill replaces the children; link is routed by the app", () => {
  const el = h("div", {}, "old");
  fill(el, h("span"), "new", undefined, false);
  assert.equal(el.innerHTML, "<span></span>new");
  const a = link("/tables", "Tables", "button");
  assert.equal(a.getAttribute("href"), "/tables");
  assert.ok(a.hasAttribute("data-route") && a.classList.contains("button"));
});

test("redraw fills a part only when its key changed, so its elements stay the same", () => {
  const el = h("div");
  let built = 0;
  const build = () => { built += 1; return h("button", {}, "hint"); };
  assert.equal(redraw(el, "a", build), true);
  const first = el.firstElementChild;
  assert.equal(redraw(el, "a", build), false);
  assert.equal(el.firstElementChild, first);
  assert.equal(built, 1);
  assert.equal(redraw(el, "b", build), true);
  assert.notEqual(el.firstElementChild, first);
  assert.equal(built, 2);
});

test("keepingFocus gives the focus to the element drawn again for the same card, and only then", () => {
  const root = h("div", {}, h("div.hand", {}, h("button", { "data-card": "B5" }), h("button", { "data-card": "Y2" })));
  document.body.replaceChildren(root);
  const hand = root.querySelector(".hand");
  /** @type {HTMLElement} */ (hand.querySelector("[data-card=Y2]")).focus();
  keepingFocus(root, () => fill(hand, h("button", { "data-card": "Y2" }), h("button", { "data-card": "B5" })));
  assert.equal(document.activeElement, hand.querySelector("[data-card=Y2]"));
  const kept = document.activeElement;
  keepingFocus(root, () => {});  // nothing replaced: the same element keeps it
  assert.equal(document.activeElement, kept);
  const other = h("input");
  root.append(other);
  keepingFocus(root, () => { fill(hand, h("button", { "data-card": "Y2" })); other.focus(); });
  assert.equal(document.activeElement, other);  // something else took the focus meanwhile: it keeps it
});
