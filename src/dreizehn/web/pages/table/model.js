// @ts-check
// The table page's state and what each server message changes in it. Pure: no page, no socket, no words (node's
// test runner checks it on its own, tests/js/table-model.test.mjs).

/** How many lines the log keeps (the oldest go first): more than any whole game says, so the log is the game's. */
export const LOG_LINES = 5000;
/** Events said after an action's own lines: the end of a stage, a new deal, the end of the game. */
const CLOSING = new Set(["stage.scored", "game.over", "stage.dealt"]);

/**
 * @typedef {{text: string, index: number, words: string, takes?: {cards: number, points: number}}} Action a legal
 *   action: notation, number, words, and what it takes (a capture: the cards and their points)
 */
/**
 * @typedef {{version: number, game_id: string, players: number, seat: number | null, current_player: number,
 *   is_over: boolean, stage: number, stage_scores: number[][], legal_actions: Action[], history: unknown[],
 *   options: Record<string, unknown>, [field: string]: any}} View a view in its wire form (docs/wire.md)
 */
/** @typedef {{seat: number, name: string | null, kind: string, bot?: string | null, joined: boolean,
 *   connected: boolean, stand_in?: boolean}} Seat a seat as the server tells it */
/** @typedef {{key: string, text: string, params: Record<string, any>, lines?: string[] | null}} Told an event in words */
/** @typedef {{text: string, events: Told[]}} Said an action in words, with its events */
/**
 * @typedef {{id: number, kind: "stage" | "over" | "offer", event: Told, version: number}} Dialog a window between
 *   stages, the game's end, or a rematch asked for (`event.params.by`: the asker, the person themselves or another
 *   seat; shown over the standings at once); `version`: the update's that opened it
 */
/**
 * @typedef {{by: number, answers: Record<number, boolean>}} Offer a rematch asked for: the asker's seat and each
 *   answer heard (true: they play again)
 */
/** @typedef {{card: string, seat: number, version: number}} LastMove the card a move played: its seat, its version */
/**
 * @typedef {{id: number, seat: number | null, name: string, text: string | null, phrase: string | null,
 *   version: number}} ChatLine a line said at the table (a spectator's has no seat)
 */
/**
 * @typedef {{n: number, text: string, chat?: ChatLine, stage?: number}} LogLine a line of the log: words, a line of
 *   chat, or the heading of a stage (its number, from 0: the page says it in the reader's language)
 */
/** @typedef {{search?: string | null, choice?: string | null, level?: string | null, note?: "level" | "search" | null, rival?: string | null, ratings: {action: string, words: string, win: number, win_sd: number, points: number}[]}} Hint the hint's
 * analysis: each move's win chance and the total it is expected to end the game on; where another move shows a
 * better number than the bot's (``rival``), why the bot's comes first (``note``) */

/**
 * @typedef {object} TableState
 * @property {string | null} game the game's id
 * @property {number | null} seat the person's seat (null: a spectator)
 * @property {string | null} table the table's id
 * @property {number | null} stages how many stages the game has (null: not known beforehand)
 * @property {View | null} view the view now
 * @property {Seat[]} seats
 * @property {LogLine[]} log the last lines said (and lines of chat heard), numbered from the page's start
 * @property {number} said how many lines were ever said (the number of the newest)
 * @property {LastMove | null} last the card the latest move played, shown marked on the table
 * @property {string | null} selected the card chosen before its place
 * @property {Hint | null} hint
 * @property {boolean} thinking whether a hint is being worked out
 * @property {Dialog[]} dialogs the windows still to show, the first shown
 * @property {number} dialogsMade
 * @property {string} message a refusal's words
 * @property {number} messages how many were said (the same words said again are shown again)
 * @property {string} conn the connection's state
 * @property {string | null} rematch the address of the rematch's seat
 * @property {number[]} declined the seats whose person declined the rematch
 * @property {Offer | null} offer the rematch asked for at the finished table (its answers)
 * @property {number} watching how many spectators' windows are open at the table
 * @property {Record<string, any>} prefs the drawing's own choices (a sort, an arrangement)
 * @property {boolean} joinNeeded whether the person must give a name first
 * @property {{totals: number[], winners: number[], rematch?: string | null} | null} final the game's end (and the
 *   id of its rematch, once one began, for a page that came back after it)
 * @property {number | null} sent the version an action was sent for, until the server answers it (a second click
 *   on the same version sends nothing: the first one is on its way)
 * @property {number | null} sentAt when the last action was sent (performance.now())
 * @property {boolean} undo whether the person may take back their latest move now (the server says so)
 * @property {string | null} undoBlocked why they may not, when it is a deal or a card seen since their move (the
 *   server's `undo_blocked`: the refusal's code)
 */

/** @returns {TableState} */
export function newState() {
  return {
    game: null, seat: null, table: null, stages: null, view: null, seats: [], log: [], said: 0, last: null, selected: null,
    hint: null, thinking: false, dialogs: [], dialogsMade: 0, message: "", messages: 0, conn: "connecting", rematch: null, declined: [], offer: null, watching: 0, sentAt: null,
    prefs: {}, joinNeeded: false, final: null, sent: null, undo: false, undoBlocked: null,
  };
}

/**
 * The lines the log shows for an action told (an update, or one of a welcome's recent actions): its events'
 * sentences (the action itself when it has none), then a stage scored, a deal and the game's end.
 * @param {Said} told
 * @returns {string[]}
 */
export function linesOf(told) {
  const texts = told.events.filter((e) => !CLOSING.has(e.key)).map((e) => e.text);
  return [...(texts.length ? texts : [told.text]), ...told.events.filter((e) => CLOSING.has(e.key)).map((e) => e.text)];
}

/**
 * Add an action told to the log: its lines (linesOf), each stage's heading before its first line (the game's first
 * action opens the first stage, a deal each later one).
 * @param {TableState} state
 * @param {Said & {version: number}} told
 */
export function sayAction(state, told) {
  if (told.version === 1) head(state, 0);
  const texts = told.events.filter((e) => !CLOSING.has(e.key)).map((e) => e.text);
  say(state, texts.length ? texts : [told.text]);
  for (const closing of told.events.filter((e) => CLOSING.has(e.key))) {
    if (closing.key === "stage.dealt") head(state, closing.params.stage);
    say(state, [closing.text]);
  }
}

/**
 * A stage's heading joins the log.
 * @param {TableState} state
 * @param {number} stage from 0
 */
function head(state, stage) {
  state.log.push({ n: ++state.said, text: "", stage });
  state.log = state.log.slice(-LOG_LINES);
}

/**
 * The card an action told played (its first event with a card that is not a draw: a card put on a target or a row,
 * a discard), or none (a draw, a take from the pile).
 * @param {{version: number, seat: number, events: Told[]}} told
 * @returns {LastMove | null}
 */
export function lastPlayed(told) {
  const played = told.events.find((e) => typeof e.params.card === "string" && !/\.(drew|took)$/.test(e.key));
  // a card that took a row went into the hand with it (Holzwurm's "took"): nothing on the table to mark
  if (!played || told.events.some((e) => e.key.endsWith(".took") && e.params.row !== undefined)) return null;
  return { card: played.params.card, seat: told.seat, version: told.version };
}

/**
 * Add lines to the log, each numbered (so the drawing knows which are new), keeping the last {@link LOG_LINES}.
 * @param {TableState} state
 * @param {string[]} lines
 */
export function say(state, lines) {
  for (const text of lines) if (text) state.log.push({ n: ++state.said, text });
  state.log = state.log.slice(-LOG_LINES);
}

/**
 * A line of chat joins the log (once: a line already in it is not added again).
 * @param {TableState} state
 * @param {ChatLine} line
 */
export function hear(state, line) {
  if (state.log.some((l) => l.chat && l.chat.id === line.id)) return;
  state.log.push({ n: ++state.said, text: "", chat: line });
  state.log = state.log.slice(-LOG_LINES);
}

/**
 * Show a refusal's words (or none).
 * @param {TableState} state
 * @param {string} text
 */
export function tell(state, text) {
  state.message = text;
  state.messages += 1;
}

/** Milliseconds within which a second click is taken for the second half of a double click. */
export const DOUBLE_CLICK_MS = 500;

/**
 * Mark an action as sent for the view now; false when one was sent for this version already, or when the click
 * is not a legal move and comes within a double click's time of the last action sent (a double click whose first
 * click was applied before its second came: the second is dropped, neither refused as stale nor sent as an attempt
 * to be explained).
 * @param {TableState} state
 * @param {boolean} [legal] whether the click is one of the legal moves
 * @param {number} [now] the time of the click (milliseconds, performance.now())
 * @returns {boolean} whether to send it
 */
export function sending(state, legal = true, now = 0) {
  if (!state.view || state.sent === state.view.version) return false;
  if (!legal && state.sentAt !== null && now - state.sentAt < DOUBLE_CLICK_MS) return false;
  state.sent = state.view.version;
  state.sentAt = now;
  return true;
}

/**
 * A refusal: its words shown, unless it is a stale action's whose newer view the page shows already (an action
 * the page superseded is dropped without a word).
 * @param {TableState} state
 * @param {any} m
 */
function refused(state, m) {
  state.sent = null;
  state.thinking = false;
  if (String(m.code).startsWith("server.undo_")) state.undo = false;
  const superseded = m.code === "table.stale" && state.view && state.view.version >= m.params.current;
  if (superseded) return;
  tell(state, m.message);
  if (m.view) { state.view = m.view; state.selected = null; }
}

/**
 * Each seat's total of the stages scored so far.
 * @param {View} view
 * @returns {number[]}
 */
export function totalsOf(view) {
  return view.stage_scores.reduce((acc, row) => acc.map((v, i) => v + row[i]), new Array(view.players).fill(0));
}

/**
 * Whether it is the person's turn in `view`.
 * @param {TableState} state
 * @param {View | null} [view]
 */
export function isMine(state, view = state.view) {
  return !!view && state.seat !== null && view.current_player === state.seat && !view.is_over;
}

/**
 * The seat of the bot to move (a bot's seat, or a person's that a stand-in plays), or null when none is (a
 * person's turn, the game over): the page says "Bruno is thinking…" when its turn lasts (a turn of several
 * actions, a draw and a discard, counts as one).
 * @param {TableState} state
 * @returns {number | null}
 */
export function botToMove(state) {
  const view = state.view;
  if (!view || view.is_over) return null;
  const seat = state.seats[view.current_player];
  return seat && (seat.kind === "bot" || seat.stand_in) ? seat.seat : null;
}

/**
 * The person's legal actions now (none when it is not their turn).
 * @param {TableState} state
 * @returns {Action[]}
 */
export function legalOf(state) {
  return state.view && isMine(state) ? state.view.legal_actions : [];
}

/**
 * The people asked for the rematch offered (every person's seat but the asker's), each with their answer (null:
 * none yet).
 * @param {TableState} state
 * @returns {{seat: number, answer: boolean | null}[]}
 */
export function rematchAnswers(state) {
  const offer = state.offer;
  if (!offer) return [];
  return state.seats.filter((s) => s.kind !== "bot" && s.seat !== offer.by)
    .map((s) => ({ seat: s.seat, answer: s.seat in offer.answers ? offer.answers[s.seat] : null }));
}

/**
 * Show the window of the rematch offered first, over any other (the standings), unless it is shown already; none
 * for a spectator.
 * @param {TableState} state
 */
export function showOffer(state) {
  const offer = state.offer;
  if (!offer || state.seat === null) return;
  state.dialogs = state.dialogs.filter((d) => d.kind !== "offer");
  state.dialogs.unshift({ id: ++state.dialogsMade, kind: "offer", event: { key: "rematch", text: "", params: { by: offer.by } },
    version: state.view ? state.view.version : 0 });
}

/**
 * Whether every person asked for the rematch said yes (then it begins).
 * @param {TableState} state
 */
export function allAccepted(state) {
  return !!state.offer && rematchAnswers(state).every((a) => a.answer === true);
}

/**
 * @param {TableState} state
 * @param {"stage" | "over" | "offer"} kind
 * @param {Told} event
 * @param {number} version the update's version
 */
function openDialog(state, kind, event, version) {
  state.dialogs.push({ id: ++state.dialogsMade, kind, event, version });
}

/**
 * Whether the board is held as it was while a stage's scoring is shown: the next deal (told with the update that
 * ended the stage) is drawn, and its cards move into place, once the window closes, not behind it.
 * @param {TableState} state
 */
export function boardHeld(state) {
  const shown = state.dialogs[0];
  return !!shown && shown.kind === "stage";
}

/**
 * Close the window shown; the message that tells the server so (the bots wait for the people to read a stage's
 * scoring), or null when there is none to send.
 * @param {TableState} state
 * @returns {{type: "ready", version: number} | null}
 */
export function closeDialog(state) {
  const shown = state.dialogs.shift();
  return shown && shown.kind === "stage" && state.seat !== null ? { type: "ready", version: shown.version } : null;
}

/**
 * A welcome or a resync: the whole view, the seats and every action so far (the whole game's log), with the
 * lines of chat and the moves taken back where they came.
 * @param {TableState} state
 * @param {any} m
 */
function welcome(state, m) {
  const was = state.view;
  Object.assign(state, { game: m.game, seat: m.seat, table: m.table, stages: m.stages ?? null, seats: m.seats, view: m.view,
    log: [], sent: null });
  /** @type {[number, number, () => void][]} the actions and the lines of chat, in the order they came */
  const told = m.recent.map((/** @type {any} */ r) => [r.version, 0, () => sayAction(state, r)]);
  const chat = (m.chat || []).map((/** @type {ChatLine} */ c) => [c.version, 1 + c.id, () => hear(state, c)]);
  const backs = (m.taken_back || []).map((/** @type {{version: number, text: string}} */ b) => [b.version, 0.5, () => say(state, [b.text])]);
  // a bot that began to play for someone away, and their coming back: said by the page (`standInLines`, table.js)
  const stands = (m.standInLines || []).map((/** @type {{version: number, text: string}} */ s) => [s.version, 0.25, () => say(state, [s.text])]);
  for (const [, , add] of [...told, ...backs, ...stands, ...chat].sort((a, b) => a[0] - b[0] || a[1] - b[1])) add();
  state.last = m.recent.length ? lastPlayed(m.recent[m.recent.length - 1]) : null;
  state.joinNeeded = m.seat !== null && !m.seats[m.seat].joined;
  state.undo = !!m.undo;
  state.undoBlocked = m.undo_blocked || null;
  state.watching = m.watching || 0;
  state.selected = null;
  state.hint = null;
  return { before: null, announce: !was, askFinal: m.view.is_over && !state.final };
}

/**
 * An update: the new view (the course so far kept from before), its events said and their windows opened.
 * @param {TableState} state
 * @param {any} m
 */
function update(state, m) {
  const before = state.view;
  state.view = { ...m.view, history: before ? before.history : [] };
  Object.assign(state, { seats: m.seats, selected: null, hint: null, sent: null, undo: !!m.undo,
    undoBlocked: m.undo_blocked || null });
  if (state.message) tell(state, "");
  sayAction(state, m);
  state.last = lastPlayed(m);
  for (const event of m.events) {
    if (event.key === "stage.scored") openDialog(state, "stage", event, m.version);
    else if (event.key === "game.over") {
      state.final = { totals: event.params.totals, winners: event.params.winners };
      openDialog(state, "over", event, m.version);
    }
  }
  return { before, announce: true, askFinal: false };
}

/**
 * What a server message changes in the state, and what the page does besides drawing it: `announce` a turn that
 * became the person's (since `before`), `askFinal`: the standings of a game found over, `go`: to the rematch's seat
 * (the person had accepted it, and it began).
 * @param {TableState} state
 * @param {any} m a message of the server (docs/server.md)
 * @returns {{before: View | null, announce: boolean, askFinal: boolean, go?: boolean}}
 */
export function receive(state, m) {
  /** @type {{before: View | null, announce: boolean, askFinal: boolean, go?: boolean}} */
  const nothing = { before: null, announce: false, askFinal: false };
  switch (m.type) {
    case "welcome": case "resync": return welcome(state, m);
    case "update": return update(state, m);
    case "said":
      hear(state, m);
      return nothing;
    case "refused":
      refused(state, m);
      return nothing;
    case "presence":
      state.seats = m.seats;
      state.watching = m.watching || 0;
      if (state.seat !== null) state.joinNeeded = !m.seats[state.seat].joined;
      return nothing;
    case "hint":
      state.thinking = false;
      if (state.view && m.version === state.view.version) state.hint = m.analysis;
      return nothing;
    case "rematch":  // the rematch begins: this seat's invitation to it
      state.rematch = m.token ? `/play/${m.token}` : null;
      if (m.token && m.by !== null && m.by !== undefined && m.by !== state.seat && !state.offer) {  // asked at once
        openDialog(state, "offer", { key: "rematch", text: "", params: { by: m.by } }, state.view ? state.view.version : 0);
      }
      return { ...nothing, go: !!m.token && state.seat !== null && !!state.offer && state.offer.answers[state.seat] === true };
    case "offered":  // a rematch asked for: its window over the standings at once (a spectator only reads the log)
      state.offer = { by: m.by, answers: {} };
      showOffer(state);
      return nothing;
    case "accepted":
      if (state.offer) state.offer.answers[m.seat] = true;
      return nothing;
    case "taken_back":  // the resync before it showed the position before the move: the log says what happened
    case "timed_out":  // a turn-based table's clock ran out: after the move or resync it caused, the log says so
      say(state, [m.text]);
      return nothing;
    case "declined":
      state.declined = [...state.declined.filter((s) => s !== m.seat), m.seat];
      if (state.offer) state.offer.answers[m.seat] = false;
      return nothing;
    default:
      return nothing;
  }
}
