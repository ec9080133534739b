// @ts-check
// A finished game's replay: step forward and back through the moves with every hand revealed, download the record,
// and have one seat's decisions analysed (the moves where it lost the most win chance, with the better move named).
import { get, postWithStatus, Refused } from "../api.js";
import { card } from "../cards.js";
import { fill, h, link } from "../dom.js";
import { join, percent, t } from "../i18n.js";
import { gameModule } from "../games/index.js";
import { chatWords } from "./table/log.js";
import { byBotsMark } from "./tables.js";

/**
 * @typedef {{key: string, text: string}} StepEvent an event of a step, in words
 * @typedef {{version: number, text: string, events?: StepEvent[]}} Step a move of a finished game, with its events
 * @typedef {{table: {game: string, totals?: number[] | null, winners?: number[] | null, by_bots?: boolean}, names: string[], steps: Step[],
 *   chat?: {seat: number, name: string, text: string | null, phrase: string | null, version: number}[],
 *   taken_back?: {version: number, seat: number, count: number}[]}} Replay a finished game's moves in words (GET
 *   /api/tables/{id}/replay), with the moves taken back during play
 * @typedef {{version: number, loss: number, played: {text: string, chance: number},
 *   best: {text: string, chance: number}}} Decision a decision of the seat analysed, rated
 * @typedef {{status: string, total?: number, done?: number, worst: number[], decisions: Decision[]}} Analysis
 * @typedef {(version: number) => Promise<void>} Show show the position at a step
 */

/**
 * @param {HTMLElement} root where the page goes
 * @param {{setTitle: (text: string) => void}} app
 * @param {string} tableId
 */
export async function replayPage(root, app, tableId) {
  /** @type {Replay} */
  const replay = await get(`/api/tables/${tableId}/replay`);
  const game = replay.table.game;
  const module = await gameModule(game);
  const last = replay.steps.length;
  /** @type {Map<number, any[]>} */
  const views = new Map();
  let at = 0;
  /** @type {Analysis | null} */
  let analysis = null;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let polling = undefined;
  let disposed = false;
  app.setTitle(`${t(`${game}.title`)}: ${t("web.replay")}`);

  const board = h("div.replay-board", { id: "replay-board" });
  const position = h("span.position", { id: "replay-position", "aria-live": "polite" });
  const steps = h("ol.steps", { id: "steps" });
  const analysisBox = h("section.analysis", { id: "analysis" });
  const button = (/** @type {string} */ id, /** @type {string} */ label, /** @type {() => number} */ to) => h("button.secondary", { type: "button", id, "aria-label": label, title: label, onclick: () => show(to()) }, label);
  const controls = h("div.replay-controls", {},
    button("first", t("web.first"), () => 0), button("back", t("web.back_step"), () => at - 1),
    position, button("forward", t("web.forward_step"), () => at + 1), button("last", t("web.last"), () => last));
  const seatSelect = seatChoice(replay.names);

  fill(root, layout(replay, tableId, { controls, board, steps, analysisBox, seatSelect, ask }));

  /** @param {number} version */
  async function viewAt(version) {
    if (!views.has(version)) views.set(version, (await get(`/api/tables/${tableId}/replay/${version}`)).views);
    return views.get(version) || [];
  }

  /** @type {Show} */
  async function show(version) {
    at = Math.max(0, Math.min(last, version));
    const wanted = at;
    const seatViews = await viewAt(at);
    if (wanted !== at || disposed) return;
    const names = replay.names;
    const first = seatViews[0];
    const ctx = { names, seat: null, legal: [], selected: null, canAct: false, prefs: {}, act() {}, select() {}, setPref() {}, arrange() {}, open: true,
      handRow: (/** @type {unknown[]} */ cards) => (cards.length ? h("div.hand", {}, cards) : null) };
    const decision = analysis && analysis.decisions.find((d) => d.version + 1 === at);  // the move that made this step
    fill(board, decision ? decisionNote(decision) : null, module.draw({ ...first, hand: [] }, ctx), hands(game, names, seatViews));
    fill(position, t("web.step", { n: at, last }));
    for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (steps.children)) {
      li.classList.toggle("current", Number(li.dataset.version) === at);
      li.classList.toggle("decided", Boolean(decision) && Number(li.dataset.version) === at); // the move analysed
    }
    const current = steps.querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  async function ask() {
    const seat = Number(seatSelect.value);
    try {
      analysis = /** @type {Analysis} */ ((await postWithStatus(`/api/tables/${tableId}/analysis`, { seat })).data);
    } catch (err) {
      fill(analysisBox, h("p.error", {}, err instanceof Refused && err.detail ? err.message : t("web.analysis_unavailable")));
      return;
    }
    drawAnalysis(analysisBox, analysis, last, show);
    drawSteps(steps, replay, analysis, show);
    clearInterval(polling);
    polling = setInterval(poll, 1000);
    if (analysis && analysis.status !== "running") { clearInterval(polling); show(at); }
    async function poll() {
      if (disposed) { clearInterval(polling); return; }
      try { analysis = await get(`/api/tables/${tableId}/analysis/${seat}`); } catch { clearInterval(polling); return; }
      drawAnalysis(analysisBox, analysis, last, show);
      drawSteps(steps, replay, analysis, show);
      if (analysis && analysis.status !== "running") { clearInterval(polling); show(at); }
    }
  }

  const onKey = replayKeys((to) => show(to(at)), last);
  document.addEventListener("keydown", onKey);
  drawSteps(steps, replay, analysis, show);
  await show(0);
  return { dispose() { disposed = true; clearInterval(polling); document.removeEventListener("keydown", onKey); } };
}

/**
 * The seat whose decisions are analysed, by its player's name; a name two seats share says which seat it is.
 * @param {string[]} names
 */
function seatChoice(names) {
  const shared = (/** @type {string} */ name) => names.filter((other) => other === name).length > 1;
  return /** @type {HTMLSelectElement} */ (h("select", { id: "analysis-seat" },
    names.map((n, i) => h("option", { value: i }, shared(n) ? `${n} (${t("web.seat_n", { n: i + 1 })})` : n))));
}

/**
 * The replay page: its heading, the step controls, the board, and at the side the analysis and the moves played.
 * @param {Replay} replay
 * @param {string} tableId
 * @param {{controls: HTMLElement, board: HTMLElement, steps: HTMLElement, analysisBox: HTMLElement,
 *   seatSelect: HTMLSelectElement, ask: () => void}} parts
 */
function layout(replay, tableId, parts) {
  return h("div.replay-page", {}, heading(replay, tableId), parts.controls,
    h("div.replay-main", {}, parts.board, h("aside.side", {},
      h("section", {}, h("h2", {}, t("web.analysis")), h("div.analysis-ask", {}, h("label", { for: "analysis-seat" }, t("web.player")),
        parts.seatSelect, h("button.secondary", { type: "button", id: "analyse", onclick: parts.ask }, t("web.analyse"))), parts.analysisBox),
      h("section", {}, h("h2", {}, t("web.moves_played")), parts.steps))));
}

/** The replay's title, who won, the players, their totals and the record to download. */
/**
 * @param {Replay} replay
 * @param {string} tableId
 */
function heading(replay, tableId) {
  const winners = replay.table.winners || [];
  return [h("h1", {}, t(`${replay.table.game}.title`), " — ", t("web.replay")),
    winners.length ? h("p.winner", { id: "replay-winner" }, h("img.trophy", { src: "/static/img/trophy.svg", alt: "", width: 18, height: 18 }), " ",
      capital(t("web.won_by", { names: join(winners.map((seat) => replay.names[seat])) }))) : null,
    h("p", {}, replay.names.join(", "), " · ", t("web.totals", { totals: (replay.table.totals || []).join(" : ") }), " ",
      replay.table.by_bots ? [byBotsMark(), " "] : null,
      h("a.button.small-button", { href: `/api/tables/${tableId}/record`, download: `dreizehn-${tableId}.json`, id: "download" }, t("web.download"))),
    replay.taken_back && replay.taken_back.length
      ? h("p.muted", { id: "taken-back" }, t("web.taken_back_replay", { n: replay.taken_back.length })) : null];
}

/** @param {string} text */
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** The replay's keys: → and ← a step forward and back, Home and End the deal and the end (`go` takes the step to
 * go to from the one shown). */
/**
 * @param {(to: (at: number) => number) => void} go
 * @param {number} last
 * @returns {(e: KeyboardEvent) => void}
 */
function replayKeys(go, last) {
  return (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === "ArrowRight") go((at) => at + 1);
    else if (e.key === "ArrowLeft") go((at) => at - 1);
    else if (e.key === "Home") go(() => 0);
    else if (e.key === "End") go(() => last);
  };
}

/** Every seat's hand revealed. */
/**
 * @param {string} game
 * @param {string[]} names
 * @param {{hand: string[]}[]} seatViews
 */
function hands(game, names, seatViews) {
  return h("div.hands", {}, seatViews.map((v, seat) => h("section.reveal", { "data-seat": seat },
    h("h3", {}, names[seat], " ", h("span.muted", {}, t("web.in_hand", { n: v.hand.length }))),
    h("div.pile", {}, v.hand.map((c) => card(game, c, { small: true }))))));
}

/** What the analysis says of the move that made this step: the move played and its chance, and the better one. */
/** @param {Decision} d */
function decisionNote(d) {
  return h("p.decision", {}, t("web.decision", { played: d.played.text, chance: percent(d.played.chance) }), " ",
    d.loss > 0 ? t("web.better", { best: d.best.text, chance: percent(d.best.chance) }) : t("web.was_best"));
}

/** Events told with the stage that comes next, not with the move's own lines (a deal's "your cards"). */
const DEALT = "stage.dealt";
/** Events that close a move: said after its other lines. */
const CLOSING = new Set(["stage.scored", "game.over"]);

/**
 * A move as the list of moves says it: its first line (what was played, and what it took), then the others (the
 * card drawn, the stage's end and its points, the game's end), as the table's log said them during play.
 * @param {Step} step
 * @returns {string[]}
 */
export function stepLines(step) {
  const events = (step.events || []).filter((e) => e.key !== DEALT);
  const own = events.filter((e) => !CLOSING.has(e.key)).map((e) => e.text);
  return [...(own.length ? own : [step.text]), ...events.filter((e) => CLOSING.has(e.key)).map((e) => e.text)];
}

/** The moves played, each a step to go to, the analysed seat's costly ones marked with their loss. */
/**
 * @param {HTMLElement} steps
 * @param {Replay} replay
 * @param {Analysis | null} analysis
 * @param {Show} show
 */
export function drawSteps(steps, replay, analysis, show) {
  const worst = new Set(analysis ? analysis.worst : []);
  const byVersion = new Map((analysis ? analysis.decisions : []).map((d) => [d.version, d]));
  /** @type {Map<number, HTMLElement[]>} what the players said after each number of moves */
  const said = new Map();
  for (const line of replay.chat || []) {
    const at = said.get(line.version) || [];
    at.push(h("span.step-chat", {}, chatWords({ ...line, id: 0 })));
    said.set(line.version, at);
  }
  fill(steps, h("li", { "data-version": 0 }, h("button.link", { type: "button", onclick: () => show(0) }, t("web.start")), said.get(0) || []),
    replay.steps.map((s) => {
      const d = byVersion.get(s.version - 1);
      const [first, ...more] = stepLines(s);
      return h(`li${worst.has(s.version - 1) ? ".blunder" : ""}`, { "data-version": s.version },
        h("button.link", { type: "button", onclick: () => show(s.version) }, `${s.version}. `, first),
        d && d.loss > 0.05 ? h("span.loss", { title: t("web.better", { best: d.best.text, chance: percent(d.best.chance) }) }, ` −${percent(d.loss)}`) : null,
        more.map((line) => h("span.step-more", {}, line)), said.get(s.version) || []);
    }));
}

/** The analysis of a seat: its progress, or its worst decisions with the better moves. */
/**
 * @param {HTMLElement} box
 * @param {Analysis | null} analysis
 * @param {number} last
 * @param {Show} show
 */
function drawAnalysis(box, analysis, last, show) {
  if (!analysis) { fill(box); return; }
  const { decisions } = analysis;
  const worst = /** @type {Decision[]} */ (analysis.worst.map((v) => decisions.find((d) => d.version === v)).filter(Boolean));
  fill(box,
    analysis.status === "running" ? [h("progress", { max: analysis.total || 1, value: analysis.done }), " ", t("web.analysing", { done: analysis.done, total: analysis.total })] : null,
    analysis.status === "failed" ? h("p.error", {}, t("web.analysis_failed")) : null,
    analysis.status === "done" && !worst.length ? h("p", {}, t("web.no_mistakes")) : null,
    worst.length ? h("ol.worst", {}, worst.map((d) => h("li", {}, h("button.link", { type: "button", onclick: () => show(d.version + 1) }, t("web.step", { n: d.version + 1, last })),
      ": ", t("web.decision", { played: d.played.text, chance: percent(d.played.chance) }), " ", t("web.better", { best: d.best.text, chance: percent(d.best.chance) })))) : null);
}

export { link };
