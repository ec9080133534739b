// @ts-check
// The app's router: one page, routed by the path (/, /new/{game}, /play/{token}, /watch/{table}/{token}, /watch/{table}, /tables,
// /games/{id}/rules, /replay/{table}, /learn/{game}, /learn/{game}/{token}, /daily, /leaderboard, /leaderboard/{game}, /lobby;
// the accounts' /signup, /signin, /forgot, /reset/{token}, /verify/{token}, /me, /me/friends, /me/settings,
// /players/{name}, /seat/{table}/{seat}); the header with who is signed in (or "Sign in") and the language switch.
import { chosenLanguage, lang, LANGUAGES, loadLanguage, t } from "./i18n.js";
import { applyMotion, loadSession, onSessionChange, saveSettings, session } from "./account.js";
import { forgotPage, resetPage, signInPage, signUpPage, verifyPage } from "./pages/account/sign.js";
import { friendsPage, mePage } from "./pages/account/me.js";
import { playerPage } from "./pages/account/player.js";
import { settingsPage } from "./pages/account/settings.js";
import { signInFirst } from "./pages/account/form.js";
import { fill, h, link } from "./dom.js";
import { homePage } from "./pages/home.js";
import { createPage } from "./pages/create.js";
import { tablesPage } from "./pages/tables.js";
import { rulesPage } from "./pages/rules.js";
import { replayPage } from "./pages/replay.js";
import { tablePage } from "./pages/table.js";
import { learnPage } from "./pages/learn.js";
import { deadEnd } from "./pages/dead-end.js";
import { dailyPage } from "./pages/daily.js";
import { leaderboardPage } from "./pages/leaderboard.js";
import { lobbyPage } from "./pages/lobby.js";
import { refreshWaiting, waitingBadge, watchWaiting } from "./notices.js";
import { unsubscribePage } from "./pages/account/notices.js";

const root = /** @type {HTMLElement} */ (document.getElementById("app"));
const header = /** @type {HTMLElement} */ (document.getElementById("header"));
/** @type {{dispose?: () => void, relang?: (code: string) => void} | null} */
let page = null;

const app = {
  /** @param {string} text */
  setTitle(text) { document.title = text === t("web.title") ? text : `${text} · dreizehn`; },
  /** @param {string} path */
  go(path) { history.pushState(null, "", path); route(); },
  /** The page at this address made again (in a language chosen since). */
  again() { route(); },
};

// Each page draws into its own element (`el`): a page still loading when the person goes elsewhere (or changes the
// language) draws into an element no longer shown, and never over the page that came after it.
/** @typedef {(match: RegExpMatchArray, el: HTMLElement) => any} Route a page made for a matched address */
/** @type {Array<[RegExp, Route]>} */
const ROUTES = [
  [/^\/$/, (m, el) => homePage(el, app)],
  [/^\/tables$/, (m, el) => tablesPage(el, app)],
  [/^\/new\/([\w-]+)$/, (m, el) => createPage(el, app, m[1])],
  [/^\/games\/([\w-]+)\/rules$/, (m, el) => rulesPage(el, app, m[1])],
  [/^\/replay\/([\w-]+)$/, (m, el) => replayPage(el, app, m[1])],
  [/^\/play\/([\w-]+)$/, (m, el) => tablePage(el, { token: m[1] }, app)],
  [/^\/watch\/([\w-]+)\/([\w-]+)$/, (m, el) => tablePage(el, { table: m[1], spectator: m[2] }, app)],
  [/^\/watch\/([\w-]+)$/, (m, el) => tablePage(el, { table: m[1], watch: true }, app)],
  [/^\/learn\/([\w-]+)$/, (m, el) => learnPage(el, app, m[1])],
  [/^\/learn\/([\w-]+)\/([\w-]+)$/, (m, el) => tablePage(el, { token: m[2], tutorial: m[1] }, app)],
  [/^\/signup$/, (m, el) => signUpPage(el, app)],
  [/^\/signin$/, (m, el) => signInPage(el, app)],
  [/^\/forgot$/, (m, el) => forgotPage(el, app)],
  [/^\/reset\/([\w-]+)$/, (m, el) => resetPage(el, app, m[1])],
  [/^\/verify\/([\w-]+)$/, (m, el) => verifyPage(el, app, m[1])],
  [/^\/me$/, (m, el) => mePage(el, app)],
  [/^\/me\/friends$/, (m, el) => friendsPage(el, app)],
  [/^\/me\/settings$/, (m, el) => settingsPage(el, app)],
  [/^\/players\/([^/]+)$/, (m, el) => playerPage(el, app, m[1])],
  [/^\/seat\/([\w-]+)\/(\d{1,2})$/, (m, el) => (session() ? tablePage(el, { table: m[1], seat: Number(m[2]) }, app)
    : fill(el, signInFirst(t("web.account.your_seat"), location.pathname)))],
  [/^\/daily$/, (m, el) => dailyPage(el, app)],
  [/^\/unsubscribe\/([\w.-]+)$/, (m, el) => unsubscribePage(el, app, m[1])],
  [/^\/leaderboard(?:\/([\w-]+))?$/, (m, el) => leaderboardPage(el, app, m[1] || null)],
  [/^\/lobby$/, (m, el) => lobbyPage(el, app)],
];

function drawHeader() {
  /** @type {Record<string, string>} */
  const NAMES = { en: "English", de: "Deutsch", nl: "Nederlands" };
  const select = /** @type {HTMLSelectElement} */ (h("select", { id: "lang", "aria-label": t("web.language"), onchange: () => changeLanguage(select.value) },
    LANGUAGES.map((code) => h("option", { value: code }, NAMES[code]))));
  select.value = lang();
  const who = session();
  const account = who ? h("a.account", { href: "/me", "data-route": "", id: "account", title: t("web.me.title") },
    h("span.account-mark", { "aria-hidden": "true" }, "●"), h("span.account-name", {}, who.name))
    : h("a.account", { href: "/signin", "data-route": "", id: "account", onclick: comeBack }, t("web.account.sign_in"));
  fill(header, h("nav.top", { "aria-label": t("web.navigation") }, h("a.brand", { href: "/", "data-route": "" }, "13", h("span.brand-long", {}, " · dreizehn")),
    link("/tables", h("span", {}, h("span.tables-long", {}, t("web.tables")), h("span.tables-short", {}, t("web.tables_short")))),
    link("/lobby", t("web.lobby.nav")), link("/daily", t("web.daily.nav")), link("/leaderboard", t("web.board.nav")),
    waitingBadge(), account, h("label.lang", {}, h("span.sr-only", {}, t("web.language")), select)));
}

/**
 * "Sign in" in the header leads back to the page it was clicked on (a table, a replay), once signed in.
 * @param {Event} e
 */
function comeBack(e) {
  const a = /** @type {HTMLAnchorElement} */ (e.currentTarget);
  const here = location.pathname;
  const back = /^\/(signin|signup|forgot|reset|verify)\b/.test(here) || here === "/" ? "" : `?next=${encodeURIComponent(here)}`;
  a.setAttribute("href", `/signin${back}`);
}

/**
 * The language chosen in the header: saved (signed in), its words loaded, the header and the page drawn again; the
 * language already shown changes nothing (a page being filled in is not drawn again for nothing).
 * @param {string} code
 */
async function changeLanguage(code) {
  if (code === lang()) return;
  const who = session();
  if (who) {  // the account's language, on every device (a failure leaves it for this browser)
    const kept = who.settings || {};
    saveSettings({ sound: true, reduced_motion: false, bot_level: "medium", ...kept, language: code }).catch(() => null);
  }
  await loadLanguage(code);
  drawHeader();
  if (page && page.relang) page.relang(code);
  else await route();
}

let routed = 0;

async function route() {
  if (page && page.dispose) page.dispose();
  page = null;
  const mine = ++routed;
  const el = h("div.route", {}, h("p.loading", {}, "…"));
  root.replaceChildren(el);
  const path = location.pathname.replace(/\/+$/, "") || "/";
  for (const [pattern, make] of ROUTES) {
    const match = path.match(pattern);
    if (match) {
      let made = null;
      try {
        made = await make(match, el);
      } catch (err) {
        fill(el, deadEnd(t("web.page_failed"), err instanceof Error ? err.message : String(err)));
      }
      if (mine !== routed) {  // another page was asked for meanwhile: this one goes
        if (made && made.dispose) made.dispose();
        return;
      }
      page = made;
      window.scrollTo(0, 0);
      return;
    }
  }
  app.setTitle(t("web.not_found"));
  fill(el, deadEnd(t("web.not_found")));
}

document.addEventListener("click", (e) => {
  const target = /** @type {Element | null} */ (e.target instanceof Element ? e.target : null);
  const a = /** @type {HTMLAnchorElement | null} */ (target && target.closest("a[data-route]"));
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || a.target) return;
  e.preventDefault();
  app.go(a.getAttribute("href") || "/");
});
window.addEventListener("popstate", route);

applyMotion();
await loadSession();  // a browser that signed in before: who, and the account's settings (its language among them)
await loadLanguage(chosenLanguage());
onSessionChange(drawHeader);
onSessionChange(() => { refreshWaiting(); });
drawHeader();
watchWaiting(app.go);
await route();
