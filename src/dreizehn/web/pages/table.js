// @ts-check
// The table page: a seat's (or a spectator's) view drawn by the game's module, the legal moves marked, moves by
// click, tap and keyboard, the last moves in words (an ARIA live region), the score sheet, the scoring between
// stages, the final standings with a rematch, hints, and the connection's state.
import { gameFacts, get, post, Refused } from "../api.js";
import { h, fill, link } from "../dom.js";
import { join, lang, percent, t } from "../i18n.js";
import { standingsOrder } from "../scores.js";
import { TableSocket } from "../ws.js";
import { gameModule } from "../games/index.js";

const LOG_LINES = 40;
/** Events said after an action's own lines: the end of a stage, a new deal, the end of the game. */
const CLOSING = new Set(["stage.scored", "game.over", "stage.dealt"]);

/**
 * @param {HTMLElement} root where the page goes
 * @param {{token?: string, table?: string, spectator?: string}} who a seat's token, or a table and its spectators' token
 * @param {{setTitle: (text: string) => void}} app
 */
export function tablePage(root, who, app) {
  const state = {
    game: null, seat: null, table: null, view: null, seats: [], log: [], selected: null, hint: null,
    thinking: false, dialogs: [], message: "", conn: "connecting", rematch: null, prefs: {}, joinNeeded: false,
    final: null,
  };
  const spectator = !who.token;
  let module = null; // the game's drawing module, once loaded (games/index.js)
  let flashTimer = null;
  let audio = null;

  const els = {
    conn: h("div.conn", { role: "status", "aria-live": "polite", id: "connection" }),
    head: h("div.table-head"),
    seats: h("ul.seats", { "aria-label": t("web.players") }),
    board: h("div.board"),
    moves: h("div.moves"),
    side: h("aside.side"),
    alert: h("div.alert", { role: "alert", id: "alert" }),
    turn: h("div.turn-live.sr-only", { "aria-live": "assertive" }),
    overlay: h("div.overlay-holder"),
  };
  fill(root, h("div.table-page", {}, els.conn, els.head, els.seats, els.alert,
    h("div.table-main", {}, h("main.play", {}, els.board, els.moves), els.side), els.turn, els.overlay));

  const names = () => state.seats.map((s) => s.name || t("web.free_seat"));
  const mine = () => state.view && state.seat !== null && state.view.current_player === state.seat && !state.view.is_over;
  const legal = () => (mine() ? state.view.legal_actions : []);

  const socket = new TableSocket(spectator ? { table: who.table, spectator: who.spectator, lang: lang() } : { token: who.token, lang: lang() },
    onMessage, (s) => { state.conn = s; drawConn(); });

  function drawConn() {
    const text = state.conn === "lost" ? t("web.reconnecting") : state.conn === "back" ? t("web.back") : "";
    fill(els.conn, text);
    els.conn.dataset.state = state.conn;
    if (state.conn === "back") setTimeout(() => { if (state.conn === "back") { state.conn = "open"; drawConn(); } }, 3000);
  }

  // The lines the log shows for an action told (an update, or one of a welcome's recent actions): its events'
  // sentences (the action itself when it has none), then a stage scored, a deal and the game's end.
  function linesOf(told) {
    const texts = told.events.filter((e) => !CLOSING.has(e.key)).map((e) => e.text);
    return [...(texts.length ? texts : [told.text]), ...told.events.filter((e) => CLOSING.has(e.key)).map((e) => e.text)];
  }

  function say(lines) {
    for (const line of lines) if (line) state.log.push(line);
    state.log = state.log.slice(-LOG_LINES);
  }

  function onMessage(m) {
    if (m.type === "welcome" || m.type === "resync") {
      if (!module) gameModule(m.game).then((found) => { module = found; render(); });
      state.game = m.game;
      state.seat = m.seat;
      state.table = m.table;
      state.seats = m.seats;
      const was = state.view;
      state.view = m.view;
      state.log = [];
      for (const told of m.recent) say(linesOf(told));
      state.joinNeeded = m.seat !== null && !m.seats[m.seat].joined;
      if (m.view.is_over && !state.final) finalStandings(m.table);
      state.selected = null;
      state.hint = null;
      render();
      if (!was) announceTurn(null);
      return;
    }
    if (m.type === "update") {
      const before = state.view;
      const view = { ...m.view, history: before ? before.history : [] };
      state.view = view;
      state.seats = m.seats;
      state.selected = null;
      state.hint = null;
      state.message = "";
      say(linesOf(m));
      for (const event of m.events) {
        if (event.key === "stage.scored") {
          state.dialogs.push({ kind: "stage", event, lines: event.lines });
        } else if (event.key === "game.over") {
          state.final = { totals: event.params.totals, winners: event.params.winners };
          state.dialogs.push({ kind: "over", event });
        }
      }
      render();
      announceTurn(before);
      return;
    }
    if (m.type === "refused") {
      state.message = m.message;
      if (m.view) { state.view = m.view; state.selected = null; }
      state.thinking = false;
      render();
      return;
    }
    if (m.type === "presence") {
      state.seats = m.seats;
      if (state.seat !== null) state.joinNeeded = !m.seats[state.seat].joined;
      render();
      return;
    }
    if (m.type === "hint") {
      state.thinking = false;
      if (state.view && m.version === state.view.version) state.hint = m.analysis;
      render();
      return;
    }
    if (m.type === "rematch") {
      state.rematch = m.token ? `/play/${m.token}` : null;
      render();
    }
  }

  function totalsOf(view) {
    return view.stage_scores.reduce((acc, row) => acc.map((v, i) => v + row[i]), new Array(view.players).fill(0));
  }

  async function finalStandings(table) {
    // a game found over (a reload after its end): the server says who won, by the game's own rules
    const finished = await get(`/api/tables/${table}`);
    state.final = { totals: finished.totals, winners: finished.winners };
    render();
  }

  function announceTurn(before) {
    const now = mine();
    const was = before && state.seat !== null && before.current_player === state.seat && !before.is_over;
    if (now && !was) {
      fill(els.turn, t("web.your_turn"));
      flash();
      beep();
    }
  }

  function flash() {
    clearInterval(flashTimer);
    let on = false;
    let count = 0;
    const title = document.title;
    flashTimer = setInterval(() => {
      on = !on;
      document.title = on ? `● ${t("web.your_turn")}` : title;
      if (++count >= 6 || !mine()) { clearInterval(flashTimer); document.title = title; }
    }, 600);
  }

  function beep() {
    if (!audio || localStorage.getItem("dreizehn.sound") === "off") return;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.06;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.12);
  }

  function unlockAudio() {
    if (!audio && window.AudioContext) audio = new AudioContext();
  }
  root.addEventListener("pointerdown", unlockAudio, { once: true });

  function act(text) {
    unlockAudio();
    const found = state.view.legal_actions.find((a) => a.text === text);
    state.message = "";
    socket.send({ type: "action", version: state.view.version, action: found ? found.index : text });
  }

  const ctx = () => ({
    names: names(), seat: state.seat, legal: legal(), selected: state.selected, canAct: !spectator, prefs: state.prefs,
    act, select: (card) => { state.selected = state.selected === card ? null : card; render(); },
    setPref: (p) => { Object.assign(state.prefs, p); render(); },
    arrange: async () => {
      if (state.prefs.arranged) { state.prefs.arranged = false; render(); return; }
      try {
        const v = state.view;
        state.prefs.arrangement = await post("/api/web/arrange", { hand: v.hand, wild_rank: v.wild_rank, options: v.options });
        state.prefs.arrangementKey = v.hand.join(",");
        state.prefs.arranged = true;
      } catch (err) { state.message = err.message; }
      render();
    },
    handRow: (cards) => h("div.hand", { role: "group", "aria-label": t("web.your_hand") }, cards),
  });

  function render() {
    if (!state.view || !module) return;
    const focused = /** @type {HTMLElement | null} */ (document.activeElement);
    const focusKey = focused && (focused.dataset.card || focused.dataset.action || focused.dataset.row || focused.dataset.target || focused.dataset.do);
    const view = state.view;
    Object.assign(/** @type {HTMLElement} */ (root.firstElementChild).dataset, { version: view.version, current: view.current_player,
      seat: state.seat ?? "", over: view.is_over ? "yes" : "no", table: state.table });
    app.setTitle(t(`${state.game}.title`));
    drawHead(view);
    drawSeats(view, module);
    fill(els.alert, state.message);
    fill(els.board, spectator ? h("p.watching", {}, t("web.watching")) : null, module.draw(view, ctx()));
    drawMoves(view);
    drawSide(view);
    drawOverlay(view);
    if (focusKey) {
      const again = /** @type {HTMLElement | null} */ (root.querySelector(`[data-card="${focusKey}"],[data-action="${focusKey}"],[data-row="${focusKey}"],[data-target="${focusKey}"],[data-do="${focusKey}"]`));
      if (again && !els.overlay.contains(document.activeElement)) again.focus();
    }
  }

  function drawHead(view) {
    const stageName = t(`${state.game}.stage`, { n: 1 });
    const turn = view.is_over ? t("web.game_over")
      : mine() ? t("web.your_turn")
        : t("web.turn_of", { player: names()[view.current_player] || "" });
    fill(els.head,
      h("h1", {}, t(`${state.game}.title`)),
      h("span.stage", {}, t("web.stage", { stage_name: stageName, n: view.stage + 1 })),
      h("span.turn", { id: "turn", "data-mine": mine() ? "yes" : "no", "data-over": view.is_over ? "yes" : "no" }, turn),
      spectator ? h("span.badge", {}, t("web.spectator")) : null);
  }

  function drawSeats(view, module) {
    const totals = totalsOf(view);
    fill(els.seats, state.seats.map((s) => h(`li.seat${view.current_player === s.seat ? ".current" : ""}${s.seat === state.seat ? ".me" : ""}`, { "data-seat": s.seat },
      h(`span.dot.${s.kind === "bot" || s.connected ? "on" : "off"}`, { title: s.kind === "bot" ? t("web.bot") : s.connected ? t("web.online") : t("web.away") }),
      h("strong.name", {}, s.name || t("web.free_seat")),
      s.seat === state.seat ? h("span.tag", {}, t("web.you")) : null,
      s.kind === "bot" && s.name !== s.bot ? h("span.tag", {}, t(`web.level.${s.bot}`) === `web.level.${s.bot}` ? s.bot : t(`web.level.${s.bot}`)) : null,
      s.stand_in ? h("span.tag.warn", {}, t("web.stand_in")) : null,
      h("span.info", {}, module.seatInfo(view, s.seat).join(" · ")),
      h("span.total", { title: t("web.total") }, totals[s.seat]))));
  }

  function drawMoves(view) {
    const moves = legal();
    if (!moves.length) { fill(els.moves); return; }
    const selected = state.selected;
    const shown = selected ? moves.filter((a) => a.text === selected || a.text.includes(selected)) : moves;
    const best = state.hint && state.hint.ratings.length ? state.hint.ratings[0].action : null;
    fill(els.moves, h("details.move-list", { open: selected || moves.length <= 6 || module.openMoves ? true : undefined },
      h("summary", {}, t("web.moves", { n: moves.length })),
      h("ol", {}, shown.map((a, i) => h("li", {}, h(`button.move${a.text === best ? ".best" : ""}`, { type: "button", "data-action": a.text, onclick: () => act(a.text),
        "aria-keyshortcuts": i < 9 ? String(i + 1) : undefined }, i < 9 ? h("kbd", {}, i + 1) : null, a.words))))));
  }

  function drawSide(view) {
    const parts = [];
    if (!spectator && mine()) {
      parts.push(h("div.hint-box", {}, h("button.secondary", { type: "button", id: "hint", disabled: state.thinking ? true : undefined,
        "aria-keyshortcuts": "H", onclick: askHint }, state.thinking ? t("web.thinking") : t("web.hint")),
      state.hint ? h("ol.hint", {}, state.hint.ratings.slice(0, 3).map((r) => h("li", {},
        h("button.link", { type: "button", onclick: () => act(r.action) }, r.words), " ",
        h("span.chance", {}, t("web.win_chance", { chance: percent(r.win), spread: percent(r.win_sd) }))))) : null));
    }
    const invites = JSON.parse(localStorage.getItem(`dreizehn.invites.${state.table}`) || "null");
    if (invites && !view.is_over) parts.push(invitePanel(invites, state.seats));
    parts.push(h("section.log-box", {}, h("h2", {}, t("web.last_moves")),
      h("ol.log", { id: "log", "aria-live": "polite", "aria-relevant": "additions" }, state.log.slice(-12).map((line) => h("li", {}, line)))));
    parts.push(scoreSheet(view));
    if (view.is_over) parts.push(h("p", {}, link(`/replay/${state.table}`, t("web.replay"), "button")));
    fill(els.side, parts);
    // the newest lines that fit, each whole: the oldest go rather than be scrolled half out of view
    const log = els.side.querySelector(".log");
    while (log && log.children.length > 1 && log.scrollHeight > log.clientHeight) log.firstElementChild.remove();
  }

  function scoreSheet(view) {
    const n = names();
    const stageName = t(`${state.game}.stage`, { n: 1 });
    return h("section.score-box", {}, h("h2", {}, t("web.score_sheet")),
      h("table.scores", { id: "scores" }, h("thead", {}, h("tr", {}, h("th", {}, stageName), n.map((x) => h("th", {}, x)))),
        h("tbody", {}, view.stage_scores.map((row, i) => h("tr", {}, h("td", {}, i + 1), row.map((v) => h("td", {}, v))))),
        h("tfoot", {}, h("tr", {}, h("th", {}, t("web.total")), totalsOf(view).map((v) => h("th", {}, v))))));
  }

  function askHint() {
    if (state.thinking || !mine()) return;
    state.thinking = true;
    socket.send({ type: "hint" });
    render();
  }

  function drawOverlay(view) {
    const keep = els.overlay.querySelector("input");
    if (state.joinNeeded) {
      if (keep) return;
      const input = h("input", { id: "join-name", name: "name", required: true, maxlength: 40, autocomplete: "nickname",
        value: localStorage.getItem("dreizehn.name") || "" });
      const form = h("form.dialog", { role: "dialog", "aria-modal": "true", "aria-labelledby": "join-title", onsubmit: async (e) => {
        e.preventDefault();
        try {
          await post("/api/seats/join", { token: who.token, name: input.value });
          localStorage.setItem("dreizehn.name", input.value.trim());
          state.joinNeeded = false;
          render();
        } catch (err) { fill(form.querySelector(".error"), err.message); }
      } }, h("h2", { id: "join-title" }, t("web.join_title", { game: t(`${state.game}.title`) })),
      h("label", { for: "join-name" }, t("web.your_name")), input, h("p.error", { role: "alert" }),
      h("button.primary", { type: "submit" }, t("web.take_seat")));
      fill(els.overlay, h("div.overlay", {}, form));
      input.focus();
      return;
    }
    const dialog = state.dialogs[0];
    if (!dialog) { fill(els.overlay); return; }
    const close = () => { state.dialogs.shift(); render(); };
    let body;
    if (dialog.kind === "stage") {
      const p = dialog.event.params;
      body = [h("h2", { id: "dialog-title" }, t("web.stage_end", { stage_name: t(`${state.game}.stage`, { n: 1 }), n: p.stage + 1 })),
        dialog.lines ? h("ul.explain", {}, dialog.lines.map((l) => h("li", {}, l))) : h("p", {}, t("web.thinking")),
        standings(p.totals, null, p.scores)];
    } else {
      const p = dialog.event.params;
      body = [h("h2", { id: "dialog-title" }, t("web.game_over")), h("p.winner", {}, dialog.event.text), standings(p.totals, p.winners, null),
        h("div.buttons", {}, !spectator ? h("button.secondary", { type: "button", id: "rematch", onclick: rematch }, t("web.rematch")) : null,
          link(`/replay/${state.table}`, t("web.replay"), "button"))];
    }
    const cont = h("button.primary", { type: "button", id: "continue", onclick: close }, t("web.continue"));
    fill(els.overlay, h("div.overlay", {}, h("div.dialog", { role: "dialog", "aria-modal": "true", "aria-labelledby": "dialog-title" }, body, cont)));
    cont.focus();
  }

  function standings(totals, winners, scores) {
    const n = names();
    const order = standingsOrder(totals, !!gameFacts(state.game)?.high_score_wins);
    return h("table.standings", {}, h("thead", {}, h("tr", {}, h("th", {}, t("web.player")), scores ? h("th", {}, t("web.points")) : null, h("th", {}, t("web.total")))),
      h("tbody", {}, order.map((i) => h(`tr${winners && winners.includes(i) ? ".winner" : ""}`, {}, h("td", {}, n[i], winners && winners.includes(i) ? " 🏆" : ""),
        scores ? h("td", {}, scores[i]) : null, h("td", {}, totals[i])))));
  }

  async function rematch() {
    if (state.rematch) { location.assign(state.rematch); return; }
    try {
      const data = await post(`/api/tables/${state.table}/rematch`, { token: who.token });
      location.assign(`/play/${data.invitations[0].token}`);
    } catch (err) { state.message = err.message; render(); }
  }

  function onKey(e) {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "Escape") { if (state.dialogs.length) state.dialogs.shift(); state.selected = null; render(); return; }
    if (els.overlay.childElementCount) return;
    const moves = [...els.moves.querySelectorAll("button.move")];
    if (/^[1-9]$/.test(e.key) && moves[Number(e.key) - 1]) { moves[Number(e.key) - 1].click(); e.preventDefault(); return; }
    if (e.key === "h" || e.key === "H") { askHint(); return; }
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      const cards = [...els.board.querySelectorAll(".hand button.card")];
      if (!cards.length) return;
      const at = cards.indexOf(document.activeElement);
      const next = at < 0 ? 0 : (at + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
      cards[next].focus();
      e.preventDefault();
    }
  }
  document.addEventListener("keydown", onKey);

  return {
    dispose() { socket.close(); document.removeEventListener("keydown", onKey); clearInterval(flashTimer); },
    relang(code) { socket.setLanguage(code); },
  };
}

/** The panel with the invitation links of a new table, each with a copy button. */
export function invitePanel(invites, seats) {
  const rows = invites.invitations.filter((inv) => inv.seat !== invites.me && (!seats || !seats[inv.seat].joined));
  return h("section.invites", { "aria-label": t("web.invite") }, rows.length ? h("h2", {}, t("web.invite")) : null,
    rows.map((inv) => copyRow(t("web.seat_link", { n: inv.seat + 1 }), inv.url, `invite-${inv.seat}`)),
    invites.spectator ? copyRow(t("web.spectator_link"), invites.spectator, "spectator-link") : null);
}

export function copyRow(label, url, id) {
  const input = h("input.copy-text", { id, readonly: true, value: url });
  const button = h("button.small-button", { type: "button", onclick: async () => {
    input.select();
    try { await navigator.clipboard.writeText(url); button.textContent = t("web.copied"); } catch { button.textContent = t("web.copy_select"); }
  } }, t("web.copy"));
  return h("div.copy-row", {}, h("label", { for: id }, label), h("div.copy-line", {}, input, button));
}

export { Refused, join };
