// @ts-check
// Who is signed in on this browser (docs/web.md, Accounts): the session as the server says it (GET /api/session,
// SessionOut), its CSRF token handed to api.js for every changing request, the settings the server keeps for the
// account applied to this browser (language, sound, reduced motion, default bot level), and the invitation tokens
// of the seats this browser played as a guest, sent at sign-up and sign-in so that those seats become the account's.
//
// The session cookie is HttpOnly: no script reads it. The browser keeps the name it was signed in to last
// (`dreizehn.account`) so that only a browser that signed in asks who it is; a guest's page asks nothing.
import { del, get, post, put, Refused, setCsrf } from "./api.js";

/** Where the name of the account this browser signed in to is kept (a guest has none). */
const SIGNED = "dreizehn.account";
/** Where the invitation tokens of the seats this browser played as a guest are kept. */
const SEATS = "dreizehn.seats";
/** The most seat tokens kept (the newest). */
export const MAX_SEATS = 100;
/** The bot levels the settings offer (the server's, docs/server.md). */
export const BOT_LEVELS = ["easy", "medium", "hard", "expert", "master"];

/** @typedef {{language: string | null, sound: boolean, reduced_motion: boolean, bot_level: string}} Settings */
/** @typedef {{name: string, csrf: string, email: string | null, email_verified: boolean, settings: Partial<Settings>}} Session */

/** @type {Session | null} */
let current = null;
/** @type {Array<(session: Session | null) => void>} */
const listeners = [];

/** The session this browser is signed in with, or null (a guest). */
export function session() {
  return current;
}

/** @param {(session: Session | null) => void} fn called whenever the person signs in or out */
export function onSessionChange(fn) {
  listeners.push(fn);
}

/**
 * What a session's settings set in this browser's storage: `dreizehn.sound` ("on"/"off"), `dreizehn.motion`
 * ("reduce" or removed: null), `dreizehn.bot_level`, `dreizehn.lang` (a language chosen; none leaves the browser's).
 * A setting the server did not name changes nothing. Pure.
 * @param {Partial<Settings>} settings
 * @returns {Record<string, string | null>}
 */
export function storedSettings(settings) {
  /** @type {Record<string, string | null>} */
  const out = {};
  if (typeof settings.sound === "boolean") out["dreizehn.sound"] = settings.sound ? "on" : "off";
  if (typeof settings.reduced_motion === "boolean") out["dreizehn.motion"] = settings.reduced_motion ? "reduce" : null;
  if (typeof settings.bot_level === "string" && BOT_LEVELS.includes(settings.bot_level)) out["dreizehn.bot_level"] = settings.bot_level;
  if (typeof settings.language === "string") out["dreizehn.lang"] = settings.language;
  return out;
}

/**
 * Apply the account's settings to this browser (every device applies them on load).
 * @param {Partial<Settings>} settings
 */
export function applySettings(settings) {
  for (const [key, value] of Object.entries(storedSettings(settings))) {
    if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value);
  }
  applyMotion();
}

/** The page moves nothing where the person asked for reduced motion (the system's choice counts too: motion.js). */
export function applyMotion() {
  if (localStorage.getItem("dreizehn.motion") === "reduce") document.documentElement.dataset.motion = "reduce";
  else delete document.documentElement.dataset.motion;
}

/** @param {Session | null} found the session the server answered, or null: signed out */
function setSession(found) {
  current = found;
  setCsrf(found ? found.csrf : null);
  if (found) {
    localStorage.setItem(SIGNED, found.name);
    applySettings(found.settings || {});
  } else localStorage.removeItem(SIGNED);
  for (const fn of listeners) fn(found);
}

/**
 * Ask the server who is signed in, where this browser signed in before; a session that ended (signed out
 * elsewhere, the account deleted) makes the browser a guest again. A failure to ask leaves it a guest for now.
 */
export async function loadSession() {
  if (!localStorage.getItem(SIGNED)) return null;
  try {
    setSession(await get("/api/session"));
  } catch (err) {
    if (err instanceof Refused && err.status === 401) setSession(null);
    else current = null;
  }
  return current;
}

/** The invitation tokens of the seats this browser played as a guest (the newest last). */
export function heldSeats() {
  try {
    const kept = JSON.parse(localStorage.getItem(SEATS) || "[]");
    return Array.isArray(kept) ? kept.filter((s) => typeof s === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Keep a seat's invitation token this browser plays as a guest (the newest {@link MAX_SEATS}); a signed-in
 * person's seats are the account's already.
 * @param {string} token
 */
export function keepSeat(token) {
  if (current) return;
  const seats = heldSeats().filter((s) => s !== token);
  seats.push(token);
  localStorage.setItem(SEATS, JSON.stringify(seats.slice(-MAX_SEATS)));
}

/**
 * The body of a sign-up or sign-in: what the person typed and the seats this browser holds (none: no field).
 * @param {Record<string, string>} fields
 * @param {string[]} seats
 */
export function signBody(fields, seats) {
  return seats.length ? { ...fields, seats } : { ...fields };
}

/** Signed in: the seats handed over are the account's now, and this browser holds none for another person. */
function signedIn(/** @type {Session} */ found) {
  localStorage.removeItem(SEATS);
  setSession(found);
  return found;
}

/**
 * Make an account and sign in (POST /api/accounts); a refusal throws its message.
 * @param {string} name
 * @param {string} password
 * @param {string} email none: ""
 */
export async function signUp(name, password, email) {
  /** @type {Record<string, string>} */
  const fields = email ? { name, password, email } : { name, password };
  return signedIn(await post("/api/accounts", signBody(fields, heldSeats())));
}

/**
 * Sign in (POST /api/session).
 * @param {string} name
 * @param {string} password
 */
export async function signIn(name, password) {
  return signedIn(await post("/api/session", signBody({ name, password }, heldSeats())));
}

/** Sign this browser out (DELETE /api/session). */
export async function signOut() {
  await del("/api/session");
  setSession(null);
}

/** Sign out every browser and device signed in to the account (DELETE /api/sessions). */
export async function signOutEverywhere() {
  await del("/api/sessions");
  setSession(null);
}

/**
 * A new password (PUT /api/account/password): the other sessions end, this one is new.
 * @param {string} password the one in use
 * @param {string} newPassword
 */
export async function changePassword(password, newPassword) {
  setSession(await put("/api/account/password", { password, new_password: newPassword }));
}

/**
 * Delete the account (DELETE /api/account), given its password.
 * @param {string} password
 */
export async function deleteAccount(password) {
  await del("/api/account", { password });
  setSession(null);
}

/**
 * Keep settings on the server (PUT /api/me/settings) and apply them here.
 * @param {Partial<Settings>} settings
 * @returns {Promise<Settings>}
 */
export async function saveSettings(settings) {
  /** @type {Settings} */
  const saved = await put("/api/me/settings", settings);
  if (current) current = { ...current, settings: saved };
  applySettings(saved);
  return saved;
}
