// @ts-check
// The table page: a seat's (or a spectator's) view drawn by the game's module, the legal moves marked, moves by
// click, tap and keyboard, the last moves in words (an ARIA live region), the score sheet, the scoring between
// stages, the final standings with a rematch, hints, and the connection's state.
//
// Each part of the page is drawn by its own module (pages/table/) and drawn again only when what it shows changed,
// so that the focus and the scroll stay where the person left them: an update redraws the board and the log's new
// lines, a presence notice only the players' bar.
import { gameFacts, get, post } from "../api.js";
import { refreshWaiting } from "../notices.js";
import { fill, h, keepingFocus, link, redraw } from "../dom.js";
import { lang, t } from "../i18n.js";
import { gameModule } from "../games/index.js";
import { TableSocket, windowId } from "../ws.js";
import { keepSeat } from "../account.js";
import { Attention, drawSoundSwitch } from "./table/attention.js";
import { drawBoard, handRow } from "./table/board.js";
import { drawOverlay } from "./table/dialogs.js";
import { drawHead, drawSeats, namesOf, saidNamesOf, sentence, stageWords } from "./table/head.js";
import { invitePanel } from "./table/invites.js";
import { tableKeys } from "./table/keys.js";
import { drawChat } from "./table/chat.js";
import { drawLog } from "./table/log.js";
import { drawHint, drawMoves, drawUndo } from "./table/moves.js";
import { allAccepted, boardHeld, botToMove, closeDialog, isMine, legalOf, newState, receive, say, sending, showOffer, tell } from "./table/model.js";
import { drawScoreSheet } from "./table/scoring.js";
import { drawTakeOver } from "./table/takeover.js";
import { Tutorial } from "./table/tutorial.js";
import { deadEnd } from "./dead-end.js";

/** @typedef {import("./table/model.js").View} View */
/** @typedef {{setTitle: (text: string) => void, again: () => void}} TableApp the app, as the table page uses it */
/**
 * @typedef {{token?: string, table?: string, seat?: number, spectator?: string, watch?: boolean, tutorial?: string}} Who
 *   a seat's token, or a table and the signed-in person's own seat at it (`/seat/{table}/{seat}`: the session's
 *   cookie says who may play it, no token), or a table and its spectators' token, or a table watched from the list
 *   of tables; `tutorial`: the game whose tutorial the seat's table is (table/tutorial.js)
 */
/** @typedef {import("./table/board.js").Drawing & {seatInfo: (view: View, seat: number) => string[], openMoves?: boolean}} GameModule */

/** Milliseconds a bot may think before the head says "Bruno is thinking…" (a quick bot's move comes first). */
export const THINKING_AFTER_MS = 1500;

/** The page's parts, each drawn on its own. */
function layout() {
  return {
    conn: h("div.conn", { role: "status", "aria-live": "polite", id: "connection" }),
    head: h("div.table-head"),
    sound: h("div.sound-holder"),
    seats: h("ul.seats"),
    board: h("div.board"),
    moves: h("div.moves"),
    undo: h("div.undo-holder"),
    alert: h("div.alert", { role: "alert", id: "alert" }),
    turn: h("div.turn-live.sr-only", { "aria-live": "assertive" }),
    overlay: h("div.overlay-holder"),
    hint: h("div.hint-holder"),
    invites: h("div.invites-holder"),
    logTitle: h("h2"),
    chat: h("div.chat-holder"),
    log: h("ol.log", { id: "log", "aria-live": "polite", "aria-relevant": "additions" }),
    scores: h("section.score-box"),
    replay: h("p.replay-link"),
    deadline: h("p.deadline", { id: "deadline" }),
  };
}

class TablePage {
  /**
   * @param {HTMLElement} root where the page goes
   * @param {Who} who
   * @param {TableApp} app
   */
  constructor(root, who, app) {
    this.root = root;
    this.who = who;
    this.app = app;
    this.state = newState();
    this.spectator = !who.token && who.seat === undefined;
    /** whether the page ended at a dead end (its hello refused) */
    this.ended = false;
    /** whether the page asks before taking its seat over, or says another window took it (takeover.js) */
    this.takeover = false;
    /** @type {boolean[]} each seat's stand-in as last said in the log */
    this.standIns = [];
    /** @type {string | null} the hand whose arrangement is being asked for */
    this.arranging = null;
    /** @type {GameModule | null} the game's drawing module, once loaded (games/index.js) */
    this.module = null;
    /** @type {{seat: number | null, timer: ReturnType<typeof setTimeout> | null, long: boolean}} the bot to move:
     * its seat, the timer that says it thinks, whether it has thought long */
    this.botWait = { seat: null, timer: null, long: false };
    /** whether the asker's page is starting the rematch (its request on the way) */
    this.starting = false;
    this.els = layout();
    const e = this.els;
    /** @type {{pace: string | null, version: number, deadline: string | null}} a turn-based table's clock, as the
     * server last said (GET /api/tables/{id}: ``pace`` null until asked) */
    this.clock = { pace: null, version: -1, deadline: null };
    this.page = h("div.table-page", {}, e.conn, h("div.head-row", {}, e.head, e.sound), e.deadline, e.seats, e.alert,
      h("div.table-main", {}, h("main.play", {}, e.board, e.moves, e.undo),
        h("aside.side", {}, e.hint, e.invites, h("section.log-box", {}, e.logTitle, e.log, e.chat), e.scores, e.replay)),
      e.turn, e.overlay);
    fill(root, this.page);
    this.tutorial = who.tutorial && who.token ? new Tutorial(who.tutorial, who.token, this.page, () => this.render()) : null;
    this.attention = new Attention(e.turn, () => isMine(this.state));
    root.addEventListener("pointerdown", () => this.attention.unlock(), { once: true });
    this.onKey = tableKeys({ board: e.board, moves: e.moves, overlay: e.overlay, hint: () => this.askHint(),
      undo: () => this.undo(),
      escape: () => { this.state.selected = null; this.closeDialog(); } });
    document.addEventListener("keydown", this.onKey);
    /** @type {import("../ws.js").HelloFields} */
    const hello = who.token ? { token: who.token, lang: lang(), window: windowId(), takeover: "ask" }
      : who.seat !== undefined ? { table: who.table || "", seat: who.seat, lang: lang(), window: windowId(), takeover: "ask" }
      : who.watch ? { table: who.table || "", watch: true, lang: lang() }
        : { table: who.table || "", spectator: who.spectator || "", lang: lang() };
    this.socket = new TableSocket(hello, (m) => this.onMessage(m), (s) => this.onConnection(s));
  }

  /** @param {any} m a message of the server */
  onMessage(m) {
    if ((m.type === "refused" && m.code === "server.seat_open") || m.type === "taken_over") {
      this.takeover = true;
      drawTakeOver(this.els.overlay, m.type === "taken_over" ? "taken" : "ask", m.message || "", () => {
        this.takeover = false;
        fill(this.els.overlay);
        this.socket.takeOver();
      });
      return;
    }
    if (m.type === "refused" && !this.state.view && !m.view) { this.leadBack(m.message); return; }
    if (m.type === "welcome" || m.type === "resync") {
      const names = m.seats.map((/** @type {{name: string | null}} */ s) => s.name || t("web.free_seat"));
      m.standInLines = (m.stand_ins || []).map((/** @type {{version: number, seat: number, playing: boolean}} */ c) => ({
        version: c.version, text: t(c.playing ? "web.stand_in_plays" : "web.seat_back", { player: names[c.seat] || "" }) }));
    }
    const effect = receive(this.state, m);
    if (m.type === "welcome") this.loadPrefs();
    if (m.type === "welcome" && this.who.token && !this.who.tutorial) keepSeat(this.who.token);  // a guest's seat: its account's at sign-up
    if (this.tutorial) this.tutorial.hear(m);
    this.sayStandIns(m.type === "welcome" || m.type === "resync");
    this.sayRematch(m);
    if (effect.go && this.state.rematch) { location.assign(this.state.rematch); return; }
    if ((m.type === "welcome" || m.type === "resync") && !this.module) {
      gameModule(m.game).then((found) => { this.module = /** @type {GameModule} */ (found); this.render(); });
    }
    if (effect.askFinal && this.state.table) this.finalStandings(this.state.table);
    this.askClock();
    this.keepArranged();
    this.render();
    if (effect.announce && isMine(this.state) && !isMine(this.state, effect.before)) this.attention.call();
  }

  /**
   * The hello was refused (a wrong or expired invitation or spectators' link): no board, but what went wrong and
   * the way back; the socket is closed, so it does not try again.
   * @param {string} reason the refusal's words
   */
  leadBack(reason) {
    this.ended = true;
    this.socket.close();
    this.app.setTitle(t("web.bad_link"));
    fill(this.root, deadEnd(t("web.bad_link"), reason));
  }

  /** A turn-based table's clock: asked of the server once a version (a real-time table's once alone). */
  askClock() {
    const { view, table } = this.state;
    const clock = this.clock;
    if (!view || !table || clock.version === view.version || clock.pace === "realtime") return;
    clock.version = view.version;
    get(`/api/tables/${table}`).then((/** @type {{pace: string, deadline: string | null}} */ found) => {
      Object.assign(clock, { pace: found.pace, deadline: found.deadline });
      this.drawClock();
      if (found.pace === "turn-based") refreshWaiting();  // the header's count of games waiting changed with the turn
    }).catch(() => {});
  }

  /** "Anna has until Tue 14:00 to move" at a turn-based table. */
  drawClock() {
    const { view } = this.state;
    const due = this.clock.deadline;
    const player = view && !view.is_over ? saidNamesOf(this.state)[view.current_player] || "" : "";
    const time = due ? new Date(due).toLocaleString(lang(), { weekday: "short", hour: "2-digit", minute: "2-digit", day: "numeric", month: "short" }) : "";
    redraw(this.els.deadline, JSON.stringify([lang(), due, player]), () => (due && player ? sentence(t("web.pace.deadline", { name: player, time }), this.state, view ? view.current_player : -1) : ""));
  }

  /** @param {string} s the connection's state: "open", "lost" or "back" */
  onConnection(s) {
    const conn = this.els.conn;
    this.state.conn = s;
    fill(conn, s === "lost" ? t("web.reconnecting") : s === "back" ? t("web.back") : "");
    conn.dataset.state = s;
    if (s === "back") setTimeout(() => { if (this.state.conn === "back") this.onConnection("open"); }, 3000);
  }

  /** Draw what changed. */
  render() {
    const { state, module, els } = this;
    const view = state.view;
    if (!view || !module) return;
    Object.assign(this.page.dataset, { version: view.version, current: view.current_player, seat: state.seat ?? "",
      over: view.is_over ? "yes" : "no", table: state.table });
    this.app.setTitle(t(`${state.game}.title`));
    els.seats.setAttribute("aria-label", t("web.players"));
    const names = namesOf(state);
    this.watchBot();
    keepingFocus(this.root, () => {
      if (this.tutorial) this.tutorial.draw(state);  // first: a step that waited for the person's turn ends
      drawHead(els.head, state, view, this.spectator, this.botWait.long);
      this.drawClock();
      if (!this.spectator) drawSoundSwitch(els.sound);  // the tone says "your turn": a spectator has none
      drawSeats(els.seats, state, view, module.seatInfo);
      redraw(els.alert, JSON.stringify([state.messages, state.message]), () => state.message);
      if (!boardHeld(state)) drawBoard(els.board, module, view, this.context(names), state.last);
      drawMoves(els.moves, this.legal(), { selected: state.selected, hint: state.hint, open: !!module.openMoves,
        game: view.game_id, act: (text) => this.act(text) });
      drawUndo(els.undo, this.mayUndo(), this.spectator || this.tutorial ? null : state.undoBlocked, () => this.undo());
      this.drawSide(view, names);
      if (!this.takeover) drawOverlay(els.overlay, state, names, { spectator: this.spectator, join: (name) => this.join(name),
        close: () => this.closeDialog(), rematch: () => this.rematch(), decline: () => this.decline(),
        start: () => this.startRematch(true) });
    });
  }

  /** A bot's turn began: after {@link THINKING_AFTER_MS} without its end, the head says the bot thinks. */
  watchBot() {
    const wait = this.botWait;
    const seat = botToMove(this.state);
    if (seat === wait.seat) return;
    if (wait.timer !== null) clearTimeout(wait.timer);
    Object.assign(wait, { seat, long: false, timer: seat === null ? null : setTimeout(() => {
      wait.timer = null;
      wait.long = true;
      this.render();
    }, THINKING_AFTER_MS) });
  }

  /** Close the window shown, and tell the server when it was a stage's scoring (its bots wait for the people). */
  closeDialog() {
    const ready = closeDialog(this.state);
    if (ready) this.socket.send(ready);
    this.render();
  }

  /**
   * The side: the hint, the invitations, the log, the score sheet and, at the end, the replay's link.
   * @param {View} view
   * @param {string[]} names
   */
  drawSide(view, names) {
    const { state, els } = this;
    drawHint(els.hint, !this.spectator && isMine(state), { thinking: state.thinking, hint: state.hint,
      moves: legalOf(state), game: view.game_id, ask: () => this.askHint(), act: (text) => this.act(text) });
    const invites = JSON.parse(localStorage.getItem(`dreizehn.invites.${state.table}`) || "null");
    const open = invites && !view.is_over;
    redraw(els.invites, JSON.stringify([lang(), open ? invites : null, open ? state.seats.map((s) => s.joined) : null]),
      () => (open ? invitePanel(invites, state.seats) : null));
    redraw(els.logTitle, lang(), () => t("web.last_moves"));
    drawLog(els.log, state.log, (stage) => stageWords(state.game, stage, state.stages));
    drawChat(els.chat, this.spectator, (message) => this.socket.send(message));
    drawScoreSheet(els.scores, state.game, view, names);
    redraw(els.replay, JSON.stringify([lang(), view.is_over]), () => (view.is_over ? link(`/replay/${state.table}`, t("web.replay"), "button") : null));
    for (const part of [els.invites, els.replay]) part.hidden = !part.childElementCount;
  }

  /**
   * What the game's drawing is given (board.js, DrawContext).
   * @param {string[]} names
   * @returns {import("./table/board.js").DrawContext}
   */
  context(names) {
    const state = this.state;
    return {
      names, seat: state.seat, legal: this.legal(), selected: state.selected, canAct: !this.spectator, prefs: state.prefs,
      act: (text) => this.act(text),
      select: (card) => { state.selected = state.selected === card ? null : card; this.render(); },
      setPref: (p) => { Object.assign(state.prefs, p); this.savePrefs(); this.render(); },
      arrange: state.game && gameFacts(state.game)?.arranges ? () => this.arrange() : undefined,
      handRow,
    };
  }

  /** The person's moves the page offers now: the legal ones (in a tutorial, those its step accepts). */
  legal() {
    const legal = legalOf(this.state);
    return this.tutorial ? this.tutorial.allowed(legal) : legal;
  }

  /** @param {string} text an action's notation (a legal one is sent by its number) */
  act(text) {
    const view = this.state.view;
    if (!view || (this.tutorial && !this.tutorial.accepts(text, this.state))) return;
    this.attention.unlock();
    const found = view.legal_actions.find((a) => a.text === text);
    if (!sending(this.state, !!found, performance.now())) return;
    this.state.message = "";
    this.socket.send({ type: "action", version: view.version, action: found ? found.index : text });
  }

  /** Whether the person may take back their latest move now: the server says so, and not in a tutorial (whose steps
   * go one way). */
  mayUndo() {
    return !this.spectator && !this.tutorial && this.state.undo;
  }

  /** Take back the latest move (the server answers with the position before it, or says why not). */
  undo() {
    const view = this.state.view;
    if (!view || !this.mayUndo()) return;
    this.state.undo = false;  // once: the answer says whether it may be asked again
    this.socket.send({ type: "undo", version: view.version });
    this.render();
  }

  askHint() {
    if (this.state.thinking || !isMine(this.state)) return;
    this.state.thinking = true;
    this.socket.send({ type: "hint" });
    this.render();
  }

  /** Lay the hand out in its best arrangement, as its game does (POST /api/web/arrange), or back again. */
  async arrange() {
    const { state } = this;
    if (state.prefs.arranged || !state.view) { state.prefs.arranged = false; this.savePrefs(); this.render(); return; }
    state.prefs.arranged = true;
    this.savePrefs();
    await this.arrangeNow();
  }

  /** Where the seat's choices of the hand's order are kept in the tab (a reload keeps them), or null (a spectator). */
  prefsKey() {
    return this.state.table && this.state.seat !== null ? `dreizehn.prefs.${this.state.table}.${this.state.seat}` : null;
  }

  /** Keep the hand's order chosen (a sort, the best arrangement) for a reload of the tab. */
  savePrefs() {
    const key = this.prefsKey();
    const { sort, arranged } = this.state.prefs;
    if (key) sessionStorage.setItem(key, JSON.stringify({ sort, arranged: !!arranged }));
  }

  /** The hand's order chosen before a reload, taken up again (the arrangement is asked for again). */
  loadPrefs() {
    const key = this.prefsKey();
    const kept = key ? JSON.parse(sessionStorage.getItem(key) || "null") : null;
    if (kept) Object.assign(this.state.prefs, { sort: kept.sort, arranged: !!kept.arranged });
  }

  /** The hand changed (a draw, a discard, a new deal) while laid out in its arrangement: arranged again. */
  keepArranged() {
    const { prefs } = this.state;
    const hand = this.state.view?.hand;
    if (prefs.arranged && Array.isArray(hand) && prefs.arrangementKey !== hand.join(",")) this.arrangeNow();
  }

  /** Ask for the arrangement of the hand now, and draw it (an answer for a hand changed since is dropped). */
  async arrangeNow() {
    const { state } = this;
    const view = state.view;
    if (!view) return;
    const key = view.hand.join(",");
    if (this.arranging === key) return;
    this.arranging = key;
    try {
      const arrangement = await post("/api/web/arrange", { game: state.game, view: { ...view, history: [] } });
      if (state.view && state.view.hand.join(",") === key) Object.assign(state.prefs, { arrangement, arrangementKey: key });
    } catch (err) {
      state.prefs.arranged = false;
      tell(state, err instanceof Error ? err.message : String(err));
    } finally { this.arranging = null; }
    this.render();
  }

  /** @param {string} name the name the person gives */
  async join(name) {
    await post("/api/seats/join", { token: this.who.token, name });
    localStorage.setItem("dreizehn.name", name.trim());
    this.state.joinNeeded = false;
    this.render();
  }

  /** @param {string} table a game found over (a reload after its end): the server says who won, by its rules */
  async finalStandings(table) {
    const finished = await get(`/api/tables/${table}`);
    this.state.final = { totals: finished.totals, winners: finished.winners, rematch: finished.rematch };
    this.render();
  }

  /**
   * Say in the log when a bot began to play for a person who is away, and when they came back and took their seat
   * again: once per change of a seat's stand-in, whichever message brought it (a presence notice or an update's
   * seats; a welcome or resync only sets what is known).
   * @param {boolean} quiet whether to take the seats as they are without saying anything
   */
  sayStandIns(quiet) {
    const now = this.state.seats.map((s) => !!s.stand_in);
    const names = namesOf(this.state);
    if (!quiet && this.standIns.length === now.length) {
      say(this.state, now.map((on, i) => (on === this.standIns[i] ? ""
        : t(on ? "web.stand_in_plays" : "web.seat_back", { player: names[i] || "" }))));
    }
    this.standIns = now;
  }

  /**
   * The rematch's news in the log (an offer, each answer), and the asker's page starts it once every person asked
   * said yes.
   * @param {any} m a message of the server
   */
  sayRematch(m) {
    const { state } = this;
    const player = (/** @type {number} */ seat) => namesOf(state)[seat] || "";
    if (m.type === "offered") say(state, [m.by === state.seat ? t("web.rematch_asked") : t("web.rematch_offer", { player: player(m.by) })]);
    else if (m.type === "accepted" && m.seat !== state.seat) say(state, [t("web.rematch_accepted", { player: player(m.seat) })]);
    else if (m.type === "declined" && m.seat !== state.seat) {
      const words = t("web.rematch_declined", { player: player(m.seat) });
      if (state.offer) say(state, [words]); else tell(state, words);
    }
    if (state.offer && state.offer.by === state.seat && (m.type === "accepted" || m.type === "offered") && allAccepted(state)) {
      this.startRematch(false);
    }
  }

  /** Say no to the rematch offered: the server tells the table, and the offer's window closes. */
  decline() {
    this.socket.send({ type: "decline" });
    this.state.dialogs.shift();
    this.render();
  }

  /** "Rematch" at the game's end, or "Play again" when asked: the rematch begun already, an offer, or a yes. */
  rematch() {
    const state = this.state;
    if (state.rematch) { location.assign(state.rematch); return; }
    if (!state.offer && state.final && state.final.rematch) { this.startRematch(false); return; }  // begun: its seat
    if (!state.offer) { this.socket.send({ type: "offer" }); return; }  // its window opens with the server's answer
    if (state.seat === null) return;
    if (state.offer.by === state.seat || state.seat in state.offer.answers) { showOffer(state); this.render(); return; }
    this.socket.send({ type: "accept" });
  }

  /**
   * The asker starts the rematch: when everyone said yes, or at once (`now`), a bot in the seat of each person who
   * said no; then the asker's page goes to its seat there (the others' pages are told over the websocket).
   * @param {boolean} now
   */
  async startRematch(now) {
    const state = this.state;
    if (this.starting) return;
    this.starting = true;
    const bots = now && state.offer ? Object.entries(state.offer.answers).filter(([, yes]) => !yes).map(([seat]) => Number(seat)) : [];
    try {
      const data = await post(`/api/tables/${state.table}/rematch`, { token: this.who.token, bots });
      location.assign(`/play/${data.invitations[0].token}`);
    } catch (err) {
      this.starting = false;
      tell(state, err instanceof Error ? err.message : String(err));
      this.render();
    }
  }

  dispose() {
    if (this.botWait.timer !== null) clearTimeout(this.botWait.timer);
    this.socket.close();
    document.removeEventListener("keydown", this.onKey);
    this.attention.stop();
  }
}

/**
 * @param {HTMLElement} root where the page goes
 * @param {Who} who
 * @param {TableApp} app
 */
export function tablePage(root, who, app) {
  const page = new TablePage(root, who, app);
  return {
    dispose() { page.dispose(); },
    /** @param {string} code */
    relang(code) {
      if (page.ended) app.again();  // the dead end asked again: the refusal said in the language chosen
      else page.socket.setLanguage(code);
    },
  };
}
