// The invitation links of a new table (src/dreizehn/web/pages/table/invites.js): a friend invited by user name is
// named by it, never by a seat number ("Einladung für Bruno", not "Einladung für Platz 2"); a seat nobody is named
// for yet is told apart by its place at the table; a seat taken needs no invitation.
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";
import { serve } from "./words.mjs";

openPage();
serve("de");
const i18n = await import("../../src/dreizehn/web/i18n.js");
const { invitePanel } = await import("../../src/dreizehn/web/pages/table/invites.js");

const invites = { me: 0, spectator: null, invitations: [0, 1, 2, 3].map((seat) => ({ seat, url: `https://example.org/${seat}` })) };
const seats = [
  { name: "Anna", joined: true },  // the creator's own seat
  { name: "Bruno", joined: false },  // a friend invited by user name, not come yet
  { name: "", joined: false },  // a friend invited by a link
  { name: "Clara", joined: true },  // come already
];
const labels = (/** @type {HTMLElement} */ panel) => [...panel.querySelectorAll("label")].map((l) => l.textContent);

test("an invitation names the friend it is kept for; a seat nobody is named for says its place", async () => {
  await i18n.loadLanguage("de");
  assert.deepEqual(labels(invitePanel(invites, seats)), ["Einladung für Bruno", "Einladung für Platz 3"]);
  serve("nl");
  await i18n.loadLanguage("nl");
  assert.deepEqual(labels(invitePanel(invites, seats)), ["Uitnodiging voor Bruno", "Uitnodiging voor plaats 3"]);
  serve("en");
  await i18n.loadLanguage("en");
  assert.deepEqual(labels(invitePanel({ ...invites, me: null }, null)),
    ["Invitation for seat 1", "Invitation for seat 2", "Invitation for seat 3", "Invitation for seat 4"]);
});
