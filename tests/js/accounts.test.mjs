// The accounts in the browser (src/dreizehn/web/account.js, pages/account/): what a sign-up sends (the seats this
// browser played as a guest), the CSRF token on every changing request once signed in, the settings the server keeps
// applied to this browser, where a sign-in leads, and how the home and a profile say a game (issue 45).
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { catalogue } from "./words.mjs";

openPage("http://127.0.0.1/signup");
const templates = Object.assign({}, ...["dreizehn", "web", "knizia13", "three_thirteen", "holzwurm"].map((d) => catalogue("de", d)));
const GAMES = [{ id: "holzwurm", high_score_wins: true, faces: {} }, { id: "knizia13", high_score_wins: false, faces: {} }];
/** @type {{url: string, method: string, headers: Record<string, string>, body: any}[]} */
const sent = [];
/** @type {Record<string, [number, unknown]>} answers by "METHOD path" */
const answers = {};
globalThis.fetch = /** @type {any} */ (async (/** @type {string} */ url, /** @type {any} */ init = {}) => {
  const path = String(url).split("?")[0];
  const method = init.method || "GET";
  sent.push({ url: path, method, headers: init.headers || {}, body: init.body ? JSON.parse(init.body) : undefined });
  const [status, body] = path.startsWith("/api/words/") ? [200, { lang: "de", templates }]
    : path === "/api/games" ? [200, GAMES] : answers[`${method} ${path}`] || [404, { detail: { code: "server.not_found", message: "nicht da" } }];
  return { ok: status < 400, status, json: async () => body };
});
const i18n = await import("../../src/dreizehn/web/i18n.js");
const api = await import("../../src/dreizehn/web/api.js");
const account = await import("../../src/dreizehn/web/account.js");
const form = await import("../../src/dreizehn/web/pages/account/form.js");
const games = await import("../../src/dreizehn/web/pages/account/games.js");
await i18n.loadLanguage("de");
await api.games();

const SESSION = { name: "Anna", csrf: "c-123", email: null, email_verified: false,
  settings: { language: "nl", sound: false, reduced_motion: true, bot_level: "hard" } };

test("a guest's seats go with the sign-up, and the browser holds none after it", async () => {
  localStorage.clear();
  account.keepSeat("tok-a");
  account.keepSeat("tok-b");
  account.keepSeat("tok-a");  // played again: kept once, the newest last
  assert.deepEqual(account.heldSeats(), ["tok-b", "tok-a"]);
  answers["POST /api/accounts"] = [201, SESSION];
  sent.length = 0;
  await account.signUp("Anna", "secret-password", "");
  assert.deepEqual(sent[0].body, { name: "Anna", password: "secret-password", seats: ["tok-b", "tok-a"] });
  assert.deepEqual(account.heldSeats(), []);
  assert.equal(account.session()?.name, "Anna");
  account.keepSeat("tok-c");  // a signed-in person's seats are the account's already
  assert.deepEqual(account.heldSeats(), []);
});

test("a sign-up without seats or address sends neither field", () => {
  assert.deepEqual(account.signBody({ name: "Bo", password: "p" }, []), { name: "Bo", password: "p" });
});

test("at most the newest seats are kept", () => {
  localStorage.clear();
  answers["DELETE /api/session"] = [204, null];
  return account.signOut().then(() => {
    for (let i = 0; i < account.MAX_SEATS + 5; i++) account.keepSeat(`t${i}`);
    const held = account.heldSeats();
    assert.equal(held.length, account.MAX_SEATS);
    assert.equal(held[held.length - 1], `t${account.MAX_SEATS + 4}`);
    assert.equal(held[0], "t5");
  });
});

test("signed in, every changing request carries the CSRF token; signed out, none does", async () => {
  answers["POST /api/session"] = [200, SESSION];
  await account.signIn("Anna", "secret-password");
  answers["PUT /api/me/settings"] = [200, SESSION.settings];
  sent.length = 0;
  await api.get("/api/games");
  await account.saveSettings(SESSION.settings);
  assert.equal(sent[0].headers["X-CSRF-Token"], undefined, "a GET needs none");
  assert.equal(sent[1].headers["X-CSRF-Token"], "c-123");
  await account.signOut();
  assert.equal(sent[2].method, "DELETE");
  assert.equal(sent[2].headers["X-CSRF-Token"], "c-123", "signing out is a change too");
  sent.length = 0;
  await api.post("/api/tables", {}).catch(() => null);
  assert.equal(sent[0].headers["X-CSRF-Token"], undefined);
  assert.equal(localStorage.getItem("dreizehn.account"), null);
});

test("the account's settings are applied to this browser", async () => {
  localStorage.clear();
  answers["POST /api/session"] = [200, SESSION];
  await account.signIn("Anna", "secret-password");
  assert.equal(localStorage.getItem("dreizehn.sound"), "off");
  assert.equal(localStorage.getItem("dreizehn.motion"), "reduce");
  assert.equal(document.documentElement.dataset.motion, "reduce");
  assert.equal(localStorage.getItem("dreizehn.bot_level"), "hard");
  assert.equal(localStorage.getItem("dreizehn.lang"), "nl");
  account.applySettings({ reduced_motion: false, language: null, bot_level: "nonsense" });
  assert.equal(document.documentElement.dataset.motion, undefined);
  assert.equal(localStorage.getItem("dreizehn.bot_level"), "hard", "a level the server does not have changes nothing");
  assert.equal(localStorage.getItem("dreizehn.lang"), "nl", "no language chosen leaves the browser's");
  assert.deepEqual(account.storedSettings({}), {});
});

test("a browser whose session ended elsewhere is a guest again, and a guest asks nothing", async () => {
  answers["GET /api/session"] = [401, { detail: { code: "account.signed_out", message: "nicht angemeldet" } }];
  localStorage.setItem("dreizehn.account", "Anna");
  assert.equal(await account.loadSession(), null);
  assert.equal(localStorage.getItem("dreizehn.account"), null);
  sent.length = 0;
  assert.equal(await account.loadSession(), null);
  assert.equal(sent.length, 0);
});

test("after signing in, the page asked for, on this site only", () => {
  assert.equal(form.nextPath("?next=%2Fseat%2Fabc%2F1"), "/seat/abc/1");
  assert.equal(form.nextPath(""), "/me");
  for (const elsewhere of ["?next=https://evil.example/", "?next=//evil.example/x", "?next=/\\evil.example", "?next=javascript:alert(1)"]) {
    assert.equal(form.nextPath(elsewhere), "/me", elsewhere);
  }
});

const player = (/** @type {string} */ name, /** @type {string | null} */ bot = null, former = false) => ({ name, account: bot ? null : name, bot, former });

test("the home says a seat of a former player, a bot with its level, and the totals best first", () => {
  assert.equal(games.playerName(player("", null, true)), "ein ehemaliger Spieler");
  assert.equal(games.playerName(player("Ada", "easy")), "Ada (Bot: leicht)");
  assert.equal(games.playerName(player("Bruno")), "Bruno");
  const g = { table: "t", game: "knizia13", players: [player("Anna"), player("", null, true), player("Ada", "hard")], status: "finished",
    totals: [-9, -2, -30], won: true, created_at: "2026-11-01T10:00:00Z", finished_at: "2026-11-01T11:00:00Z", url: "/replay/t" };
  assert.equal(games.totalsWords(g), "Ada (Bot: schwer) -30, Anna -9, ein ehemaliger Spieler -2");  // the lowest wins
  assert.equal(games.totalsWords({ ...g, game: "holzwurm" }), "ein ehemaliger Spieler -2, Anna -9, Ada (Bot: schwer) -30");
  assert.equal(games.totalsWords({ ...g, totals: null }), "");
  assert.equal(games.resultKey(g), "web.me.won");
  assert.equal(games.resultKey({ ...g, won: false }), "web.me.lost");
  assert.equal(games.resultKey({ ...g, won: undefined }), null, "a profile's game says no result of the visitor's");
});

test("a game in progress says whose turn it is; your turn first is the server's order, kept", () => {
  const base = { table: "t", game: "knizia13", players: [], status: "playing", totals: null, created_at: "", finished_at: null, url: "/seat/t/0" };
  assert.equal(games.playingState({ ...base, your_turn: true }).key, "web.me.your_turn");
  assert.equal(games.playingState({ ...base, invited: true }).key, "web.me.invited");
  assert.equal(games.playingState(base).key, "web.me.waiting");
  const list = games.playingList([{ ...base, table: "a", your_turn: true }, { ...base, table: "b" }], { knizia13: "13" });
  assert.deepEqual([...list.querySelectorAll("li")].map((li) => /** @type {HTMLElement} */ (li).dataset.table), ["a", "b"]);
  assert.equal(list.querySelector("li a")?.getAttribute("href"), "/seat/t/0");
  assert.equal(list.querySelector("li .state")?.textContent, "Du bist dran");
});

test("statistics: an average in the page's language, a game not played left out", () => {
  assert.equal(games.average(-9.25), "-9,3");
  assert.equal(games.average(null), "–");
  const table = games.statsTable([{ game: "knizia13", games: 3, wins: 1, average: 12.5, best: 4, left_to_bots: 0 },
    { game: "holzwurm", games: 0, wins: 0, average: null, best: null, left_to_bots: 0 }], { knizia13: "13", holzwurm: "Holzwurm" });
  assert.deepEqual([...table.querySelectorAll("tbody tr")].map((tr) => /** @type {HTMLElement} */ (tr).dataset.game), ["knizia13"]);
  assert.equal(table.querySelector("tbody td")?.getAttribute("data-label"), "Gespielt");
});
