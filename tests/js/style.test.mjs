// The look's colours (src/dreizehn/web/style.css) where people must notice something: the tag "a bot plays for them"
// stands out from the players' bar (3:1 against the seat's white, WCAG's contrast for what is not text) and its
// words can be read on it (4.5:1) (issue 49 item 7: it was pale yellow on white).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

const css = readFileSync(new URL("../../src/dreizehn/web/style.css", import.meta.url), "utf8");

/** @param {string} selector @param {string} property */
function colour(selector, property) {
  const rule = css.match(new RegExp(`^${selector.replace(/\./g, "\\.")} \\{([^}]*)\\}`, "m"));
  assert.ok(rule, selector);
  const found = rule[1].match(new RegExp(`(?:^|;)\\s*${property}:\\s*#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\\b`));
  if (!found) return null;
  return `#${found[1].length === 3 ? [...found[1]].map((c) => c + c).join("") : found[1]}`;
}

/** @param {string} hex */
function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** @param {string} a @param {string} b */
function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test("the stand-in's tag stands out from the seat, and its words can be read", () => {
  const seat = colour(".seat", "background") || "#ffffff";
  const tag = colour(".tag.warn", "background");
  const text = colour(".tag.warn", "color") || "#1c2430";
  assert.ok(tag);
  assert.ok(contrast(tag, seat) >= 3, `${tag} on ${seat}: ${contrast(tag, seat).toFixed(2)}`);
  assert.ok(contrast(text, tag) >= 4.5, `${text} on ${tag}: ${contrast(text, tag).toFixed(2)}`);
});
