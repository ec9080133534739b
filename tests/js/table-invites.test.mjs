// The invitation links of a new table (src/dreizehn/web/pages/table/invites.js): a friend invited by user name is
// named by it, never by a seat number ("Einladung für Bruno", not "Einladung für Platz 2"); the seats nobody is named
// for yet are counted in the order of the seats ("Erste Einladung", as the table says "der erste eingeladene
// Mitspieler"); a seat taken needs no invitation.
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

test("an invitation names the friend it is kept for; the seats nobody is named for are counted, never numbered", async () => {
  await i18n.loadLanguage("de");
  assert.deepEqual(labels(invitePanel(invites, seats)), ["Einladung für Bruno", "Einladung"]);
  serve("nl");
  await i18n.loadLanguage("nl");
  assert.deepEqual(labels(invitePanel(invites, seats)), ["Uitnodiging voor Bruno", "Uitnodiging"]);
  const two = seats.map((seat, i) => (i === 1 ? { name: "", joined: false } : seat));
  assert.deepEqual(labels(invitePanel(invites, two)), ["Eerste uitnodiging", "Tweede uitnodiging"]);
  serve("en");
  await i18n.loadLanguage("en");
  assert.deepEqual(labels(invitePanel({ ...invites, me: null }, null)),
    ["First invitation", "Second invitation", "Third invitation", "Fourth invitation"]);
});
