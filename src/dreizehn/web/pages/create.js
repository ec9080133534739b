// @ts-check
// Creating a table: the game, the number of players, each option with its explanation, and each seat: me, a friend
// to invite, or a bot level. Then the invitation links with a copy button.
import { games, get, levelsAt, LEVELS_ABOUT, post } from "../api.js";
import { session } from "../account.js";
import { fill, h, link } from "../dom.js";
import { t } from "../i18n.js";
import { deadEnd } from "./dead-end.js";
import { invitePanel } from "./table/invites.js";

/** @typedef {HTMLInputElement | HTMLSelectElement} Field */

/**
 * @param {HTMLElement} root where the page goes
 * @param {{setTitle: (text: string) => void, go: (path: string) => void}} app
 * @param {string} gameId
 */
export async function createPage(root, app, gameId) {
  friendNames = null;  // friends asked again on each new-table page
  const found = (await games()).find((g) => g.id === gameId);
  if (!found) { app.setTitle(t("web.not_found")); fill(root, deadEnd(t("web.not_found"))); return; }
  const game = found;
  app.setTitle(`${game.title}: ${t("web.new_table")}`);
  let players = game.min_players;
  /** @type {string[]} */
  const seatKinds = [];
  /** @type {string[]} each seat's friend invited by user name (a signed-in person's "a friend by user name") */
  const seatUsers = [];
  const name = /** @type {HTMLInputElement} */ (h("input", { id: "my-name", name: "name", maxlength: 40, value: session()?.name || localStorage.getItem("dreizehn.name") || "", autocomplete: "nickname" }));
  const count = /** @type {HTMLSelectElement} */ (h("select", { id: "players", name: "players" }));
  for (let n = game.min_players; n <= game.max_players; n++) count.append(h("option", { value: n }, n));
  const seatsBox = h("fieldset.seats-form", {});
  const optionsBox = h("fieldset.options-form", {});
  const error = h("p.error", { role: "alert" });

  const say = () => sayLevels(seatsBox, seatKinds.slice(0, players));
  function drawForm() {
    fill(seatsBox, h("legend", {}, t("web.seats")),
      Array.from({ length: players }, (_, i) => seatChoice(game, players, i, seatKinds, seatUsers, say)));
    say();
    fill(optionsBox, h("legend", {}, t("web.options")), game.options.map((/** @type {any} */ o) => optionField(o, game.id, players)));
  }
  count.addEventListener("change", () => { players = Number(count.value); drawForm(); });
  drawForm();

  function options() {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const o of game.options) {
      const input = /** @type {HTMLInputElement} */ (optionsBox.querySelector(`#option-${o.name}`));
      if (o.kind === "bool") out[o.name] = input.checked;
      else if (o.kind === "int") { if (input.value !== "") out[o.name] = Number(input.value); }
      else if (o.kind === "seat") out[o.name] = input.value === "random" ? "random" : Number(input.value);
      else out[o.name] = input.value;
    }
    return out;
  }

  const pace = paceFields(Boolean(session()));
  const create = /** @type {HTMLButtonElement} */ (h("button.primary", { type: "submit", id: "create" }, t("web.create")));

  /** @param {Event} e */
  async function submit(e) {
    e.preventDefault();
    // one table, however many clicks: the button stays disabled until the answer came (again usable after a refusal)
    if (create.disabled) return;
    const me = name.value.trim();
    const kinds = seatKinds.slice(0, players);
    if (!me && kinds.includes("me")) {  // the others read this name at the table: none is no name ("you" was shown)
      fill(error, t("web.name_needed"));
      name.setAttribute("aria-invalid", "true");
      name.focus();
      return;
    }
    name.removeAttribute("aria-invalid");
    const unnamed = kinds.findIndex((kind, i) => kind === "user" && !(seatUsers[i] || "").trim());
    if (unnamed >= 0) {  // a friend invited by name needs the name
      fill(error, t("web.user_needed", { n: unnamed + 1 }));
      /** @type {HTMLElement | null} */ (seatsBox.querySelector(`#seat-user-${unnamed}`))?.focus();
      return;
    }
    create.disabled = true;
    // a bot is given no name: the server names it (Ada, Bruno…), and its level is shown beside it in each reader's
    // language
    const seats = kinds.map((kind, i) => kind === "me" ? { kind: "person", name: me }
      : kind === "friend" ? { kind: "person" } : kind === "user" ? { kind: "person", user: seatUsers[i].trim() }
        : { kind: "bot", bot: kind });
    try {
      const created = await post("/api/tables", { game: game.id, options: options(), seats, ...pace.body() });
      if (me) localStorage.setItem("dreizehn.name", me);
      const mySeat = seatKinds.slice(0, players).indexOf("me");
      const invites = { me: mySeat, invitations: created.invitations, spectator: created.spectator.url };
      localStorage.setItem(`dreizehn.invites.${created.table.id}`, JSON.stringify(invites));
      const mine = created.invitations.find((/** @type {{seat: number, token: string}} */ inv) => inv.seat === mySeat);
      if (mine) { app.go(`/play/${mine.token}`); return; }
      fill(root, h("h1", {}, t("web.table_made")), invitePanel(invites, created.table.seats), h("p", {}, link("/", t("web.home"), "button")));
    } catch (err) {
      fill(error, err instanceof Error ? err.message : String(err));
      create.disabled = false;
    }
  }

  fill(root, h("form.create", { onsubmit: submit }, h("h1", {}, t("web.new_table"), ": ", game.title),
    h("div.field", {}, h("label", { for: "my-name" }, t("web.your_name")), name),
    h("div.field", {}, h("label", { for: "players" }, t("web.player_count")), count),
    seatsBox, optionsBox, pace.box, error, create));
}

/** The times to move a turn-based table offers, in seconds. */
const MOVE_TIMES = [3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400];

/**
 * The table's pace (rule P1 of docs/turns.md): real-time or turn-based (a signed-in person's), its time to move and
 * what happens when it runs out; rated, and private.
 * @param {boolean} signedIn
 * @returns {{box: HTMLElement, body: () => Record<string, unknown>}}
 */
function paceFields(signedIn) {
  const select = (/** @type {string} */ id, /** @type {[string, string][]} */ choices) => /** @type {HTMLSelectElement} */ (
    h("select", { id, name: id }, choices.map(([value, label]) => h("option", { value }, label))));
  const pace = select("pace", [["realtime", t("web.pace.realtime")], ["turn-based", t("web.pace.turn_based")]]);
  const moveTime = select("move-time", MOVE_TIMES.map((s) => [String(s), s < 86400
    ? t("web.pace.hours", { n: s / 3600 }) : t("web.pace.days", { n: s / 86400 })]));
  moveTime.value = "86400";
  const onTimeout = select("on-timeout", [["move", t("web.pace.timeout_move")], ["seat", t("web.pace.timeout_seat")],
    ["end", t("web.pace.timeout_end")]]);
  const check = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (h("input", { id, name: id, type: "checkbox" }));
  const rated = check("rated");
  const hidden = check("private");
  const turnBox = h("div.turn-based", { hidden: true },
    h("div.field", {}, h("label", { for: "move-time" }, t("web.pace.move_time")), moveTime),
    h("div.field", {}, h("label", { for: "on-timeout" }, t("web.pace.on_timeout")), onTimeout));
  pace.addEventListener("change", () => { turnBox.hidden = pace.value !== "turn-based"; });
  const box = h("fieldset.pace-form", {}, h("legend", {}, t("web.pace.legend")),
    signedIn ? h("div.field", {}, h("label", { for: "pace" }, t("web.pace.label")), pace)
      : h("p.hint", {}, t("web.pace.sign_in")),
    turnBox,
    signedIn ? h("div.field.check", {}, rated, h("label", { for: "rated" }, t("web.pace.rated"))) : null,
    h("div.field.check", {}, hidden, h("label", { for: "private" }, t("web.pace.private"))));
  const body = () => pace.value === "turn-based" && signedIn
    ? { pace: "turn-based", move_time: Number(moveTime.value), on_timeout: onTimeout.value, rated: rated.checked, private: hidden.checked }
    : { rated: signedIn && rated.checked, private: hidden.checked };
  return { box, body };
}

/**
 * A level with a line of its own says what it is once, under the first seat that plays it (not under each).
 * @param {HTMLElement} seatsBox
 * @param {string[]} kinds each seat's choice
 */
function sayLevels(seatsBox, kinds) {
  kinds.forEach((kind, i) => {
    const about = /** @type {HTMLElement | null} */ (seatsBox.querySelector(`#seat-${i}-about`));
    if (!about) return;
    about.hidden = !LEVELS_ABOUT.includes(kind) || kinds.indexOf(kind) < i;
    fill(about, about.hidden ? "" : t(`web.level_about.${kind}`));
  });
}

/**
 * A seat's choice: me, a friend to invite by link, a friend by user name (signed in), or a bot level offered at
 * this player count (the account's default level first chosen); a level with a line of its own says what it is
 * under the first seat that plays it (``sayLevels``).
 * @param {import("../api.js").GameFacts} game
 * @param {number} players the seats at the table
 * @param {number} i the seat
 * @param {string[]} seatKinds each seat's choice, kept here
 * @param {string[]} seatUsers each seat's friend by user name, kept here
 * @param {() => void} say says the chosen levels' lines again
 */
function seatChoice(game, players, i, seatKinds, seatUsers, say) {
  const levels = levelsAt(game, players);
  const kept = localStorage.getItem("dreizehn.bot_level") || "";  // the account's default bot level (settings)
  const defaultLevel = levels.includes(kept) ? kept : "easy";
  const asked = seatKinds[i];  // a level not offered at this count (learned at 3 players) gives way to the default
  const current = asked && (["me", "friend", "user"].includes(asked) || levels.includes(asked)) ? asked
    : i === 0 ? "me" : i === 1 ? "friend" : defaultLevel;
  const user = userField(i, seatUsers);
  const about = h("p.help.level-about", { id: `seat-${i}-about` });
  const show = (/** @type {string} */ kind) => {
    user.hidden = kind !== "user";
    if (kind === "user") offerFriends(user);
  };
  const select = /** @type {HTMLSelectElement} */ (h("select", { id: `seat-${i}`, name: `seat-${i}`, onchange: () => {
    seatKinds[i] = select.value;
    show(select.value);
    say();
  } },
  h("option", { value: "me" }, t("web.seat.me")), h("option", { value: "friend" }, t("web.seat.friend")),
  session() ? h("option", { value: "user" }, t("web.seat.user")) : null,
  levels.map((level) => h("option", { value: level }, t("web.seat.bot", { level: t(`web.level.${level}`) })))));
  select.value = current;
  seatKinds[i] = current;
  show(current);
  return h("div.field", {}, h("label", { for: `seat-${i}` }, t("web.seat_n", { n: i + 1 })), select, user, about);
}

/** The user names of the signed-in person's friends, asked once per page (offered where a seat invites by name). */
/** @type {Promise<string[]> | null} */
let friendNames = null;

/**
 * The field of a seat that invites a friend by user name (a signed-in person's choice), offering their friends.
 * @param {number} i the seat
 * @param {string[]} users each seat's name typed, kept here
 */
function userField(i, users) {
  const id = `seat-user-${i}`;
  const list = h("datalist", { id: `${id}-friends` });
  const input = /** @type {HTMLInputElement} */ (h("input", { id, maxlength: 20, list: `${id}-friends`, autocomplete: "off",
    autocapitalize: "none", value: users[i] || "", oninput: () => { users[i] = input.value; } }));
  return h("div.seat-user", {}, h("label", { for: id }, t("web.seat.user_name", { n: i + 1 })), input, list);
}

/**
 * Offer the person's friends in a seat's field of a friend by user name (asked when first needed).
 * @param {HTMLElement} field
 */
function offerFriends(field) {
  friendNames = friendNames || get("/api/me/friends").then((f) => f.friends.map((/** @type {{name: string}} */ x) => x.name)).catch(() => []);
  const list = field.querySelector("datalist");
  friendNames.then((names) => { if (list) fill(/** @type {HTMLElement} */ (list), names.map((n) => h("option", { value: n }))); });
}

/**
 * An option's field with its label and explanation (a checkbox first, then its label).
 * @param {any} o an option as /api/games gives it
 * @param {string} gameId
 * @param {number} players the seats to choose from (an option that names a seat)
 */
function optionField(o, gameId, players) {
  const id = `option-${o.name}`;
  /** @type {Field} */
  let input;
  if (o.kind === "bool") {
    input = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id, name: o.name, checked: o.default ? true : undefined }));
  } else if (o.kind === "int") {
    input = /** @type {HTMLInputElement} */ (h("input", { type: "number", id, name: o.name, min: o.low ?? undefined, max: o.high ?? undefined, value: o.default ?? "", placeholder: o.default === null ? t("web.automatic") : undefined }));
  } else if (o.kind === "seat") {
    input = /** @type {HTMLSelectElement} */ (h("select", { id, name: o.name }));
    for (let s = 0; s < players; s++) input.append(h("option", { value: s }, t("web.seat_n", { n: s + 1 })));
    input.append(h("option", { value: "random" }, t(`${gameId}.option.${o.name}.random`)));
    input.value = String(o.default ?? 0);
  } else {
    input = /** @type {HTMLSelectElement} */ (h("select", { id, name: o.name }, o.choices.map((/** @type {{value: string, label: string}} */ c) => h("option", { value: c.value }, c.label))));
    input.value = String(o.default);
  }
  const label = h("label", { for: id }, o.label);
  // a checkbox before its words, as every checkbox of the app (the pace's, the account's settings)
  return h(`div.field.option${o.kind === "bool" ? ".check" : ""}`, { "data-option": o.name },
    o.kind === "bool" ? [input, label] : [label, input], h("p.help", {}, o.help));
}
