// "Your turn" in the browser (src/dreizehn/web/notices.js, pages/account/notices.js; docs/notices.md, N1, N3, N4):
// the header's count in the page's language (plural forms), which games are newly waiting, whether this browser
// notifies, and the server's key turned into bytes for PushManager.subscribe.
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { catalogue } from "./words.mjs";

openPage("http://127.0.0.1/me");
const templates = Object.assign({}, ...["dreizehn", "web"].map((d) => catalogue("de", d)));
/** @type {Record<string, [number, unknown]>} answers by "METHOD path" */
const answers = {};
globalThis.fetch = /** @type {any} */ (async (/** @type {string} */ url, /** @type {any} */ init = {}) => {
  const path = String(url).split("?")[0];
  const [status, body] = path.startsWith("/api/words/") ? [200, { lang: "de", templates }]
    : answers[`${init.method || "GET"} ${path}`] || [404, { detail: { code: "server.not_found", message: "nicht da" } }];
  return { ok: status < 400, status, json: async () => body };
});
const i18n = await import("../../src/dreizehn/web/i18n.js");
const notices = await import("../../src/dreizehn/web/notices.js");
const settingsPart = await import("../../src/dreizehn/web/pages/account/notices.js");
await i18n.loadLanguage("de");

/** @param {string} table */
const game = (table) => ({ table, game: "knizia13", seat: 0, due_at: "2026-11-29T10:00:00+00:00", url: `/seat/${table}/0`, players: ["Bert"] });

test("N1: the count is said with the language's plural forms, hidden at none", () => {
  assert.equal(i18n.t("web.notices.waiting", { n: 1 }), "1 Partie wartet auf dich");
  assert.equal(i18n.t("web.notices.waiting", { n: 3 }), "3 Partien warten auf dich");
  const badge = notices.waitingBadge();
  assert.equal(badge.hidden, true);
  assert.equal(badge.getAttribute("href"), "/me");
});

test("N3: only games not waiting at the last look are new; the first look tells of none", () => {
  assert.deepEqual(notices.newlyWaiting(null, [game("a")]), []);
  assert.deepEqual(notices.newlyWaiting(new Set(["a"]), [game("a"), game("b")]).map((g) => g.table), ["b"]);
  assert.deepEqual(notices.newlyWaiting(new Set(["a", "b"]), [game("b")]), []);
});

test("N3: a browser notifies only where the person turned it on and the browser allows it", () => {
  assert.equal(notices.notifying(), false);  // no Notification at all
  /** @type {any} */ (globalThis).Notification = { permission: "granted" };
  assert.equal(notices.notifying(), false);  // allowed, not turned on
  localStorage.setItem(notices.NOTIFY_KEY, "on");
  assert.equal(notices.notifying(), true);
  /** @type {any} */ (globalThis).Notification = { permission: "denied" };
  assert.equal(notices.notifying(), false);
  delete (/** @type {any} */ (globalThis)).Notification;
});

test("N4: the server's key (base64url) becomes the 65 bytes of a P-256 point", () => {
  const bytes = settingsPart.urlBytes("BA" + "A".repeat(85));
  assert.equal(bytes.length, 65);
  assert.equal(bytes[0], 4);
  assert.deepEqual([...settingsPart.urlBytes("-_8")], [0xfb, 0xff]);
});
