// The table page's state (src/dreizehn/web/pages/table/model.js): what each server message changes, the log's
// numbered lines, whose turn it is, the totals.
import assert from "node:assert/strict";
import test from "node:test";

import { allAccepted, boardHeld, botToMove, closeDialog, rematchAnswers, hear, isMine, legalOf, LOG_LINES, linesOf, newState, receive, say, sending, totalsOf } from "../../src/dreizehn/web/pages/table/model.js";

/** A view of seat `seat` with `current` to move. */
function view(version, current, extra = {}) {
  return { version, game_id: "knizia13", players: 3, seat: 0, current_player: current, is_over: false, stage: 0,
    stage_scores: [], legal_actions: [{ text: "B5", index: 4, words: "B5 on blue" }], history: [[1, 2]], options: {}, ...extra };
}

const seats = [0, 1, 2].map((seat) => ({ seat, name: `P${seat}`, kind: "person", joined: true, connected: true }));
const welcome = (v, extra = {}) => ({ type: "welcome", game: "knizia13", seat: 0, table: "t1", seats, view: v, recent: [], ...extra });

test("an action's lines: its events' sentences (or the action when it has none), then the closing ones", () => {
  const ev = (key, text) => ({ key, text, params: {} });
  assert.deepEqual(linesOf({ text: "Anna plays B5", events: [] }), ["Anna plays B5"]);
  assert.deepEqual(linesOf({ text: "x", events: [ev("stage.scored", "scored"), ev("k13.played", "played"), ev("stage.dealt", "dealt")] }),
    ["played", "scored", "dealt"]);
});

test("the log numbers its lines and keeps the last ones", () => {
  const state = newState();
  say(state, ["a", "", "b"]);
  assert.deepEqual(state.log, [{ n: 1, text: "a" }, { n: 2, text: "b" }]);
  say(state, Array.from({ length: LOG_LINES + 5 }, (_, i) => `l${i}`));
  assert.equal(state.log.length, LOG_LINES);
  assert.equal(state.log[state.log.length - 1].n, LOG_LINES + 7);
});

test("a welcome sets the table and calls the turn once; a resync keeps the line numbers growing", () => {
  const state = newState();
  const said = receive(state, welcome(view(3, 0), { recent: [{ text: "Ben plays Y2", events: [] }] }));
  assert.deepEqual(said, { before: null, announce: true, askFinal: false });
  assert.equal(state.table, "t1");
  assert.ok(isMine(state));
  assert.deepEqual(legalOf(state).map((a) => a.text), ["B5"]);
  assert.deepEqual(state.log, [{ n: 1, text: "Ben plays Y2" }]);
  const again = receive(state, { ...welcome(view(3, 0), { recent: [{ text: "Ben plays Y2", events: [] }] }), type: "resync" });
  assert.equal(again.announce, false);
  assert.deepEqual(state.log, [{ n: 2, text: "Ben plays Y2" }]);
});

test("an update keeps the course, says its lines, opens the stage's window and the game's end", () => {
  const state = newState();
  receive(state, welcome(view(3, 0)));
  state.selected = "B5";
  const scored = { key: "stage.scored", text: "stage over", params: { stage: 0, totals: [1, 2, 3], scores: [1, 2, 3] }, lines: ["why"] };
  const over = { key: "game.over", text: "P0 wins", params: { totals: [1, 2, 3], winners: [0] } };
  const said = receive(state, { type: "update", view: { ...view(4, 1), history: undefined }, seats, text: "Anna plays B5",
    events: [{ key: "k13.played", text: "Anna plays B5 onto blue", params: {} }, scored, over] });
  assert.equal(said.announce, true);
  assert.equal(said.before?.version, 3);
  assert.deepEqual(state.view?.history, [[1, 2]]);
  assert.equal(state.selected, null);
  assert.ok(!isMine(state));
  assert.deepEqual(legalOf(state), []);
  assert.deepEqual(state.log.map((l) => l.text), ["Anna plays B5 onto blue", "stage over", "P0 wins"]);
  assert.deepEqual(state.dialogs.map((d) => [d.id, d.kind]), [[1, "stage"], [2, "over"]]);
  assert.deepEqual(state.final, { totals: [1, 2, 3], winners: [0] });
});

test("a refusal is shown (again when said again), a hint kept only for the view it was asked for", () => {
  const state = newState();
  receive(state, welcome(view(3, 0)));
  receive(state, { type: "refused", message: "not now" });
  receive(state, { type: "refused", message: "not now" });
  assert.equal(state.message, "not now");
  assert.equal(state.messages, 2);
  state.thinking = true;
  receive(state, { type: "hint", version: 2, analysis: { ratings: [] } });
  assert.equal(state.hint, null);
  assert.equal(state.thinking, false);
  receive(state, { type: "hint", version: 3, analysis: { ratings: [] } });
  assert.deepEqual(state.hint, { ratings: [] });
});

test("a presence notice changes the seats only; a game found over asks for its standings", () => {
  const state = newState();
  receive(state, welcome(view(3, 0), { seats: seats.map((s) => ({ ...s, joined: s.seat !== 0 })) }));
  assert.equal(state.joinNeeded, true);
  const log = state.log;
  receive(state, { type: "presence", seats });
  assert.equal(state.joinNeeded, false);
  assert.equal(state.log, log);
  const ended = newState();
  assert.equal(receive(ended, welcome(view(9, 0, { is_over: true }))).askFinal, true);
  assert.ok(!isMine(ended));
});

test("totals add each stage's points per seat", () => {
  assert.deepEqual(totalsOf(view(1, 0, { stage_scores: [[1, 2, 3], [10, 0, -1]] })), [11, 2, 2]);
  assert.deepEqual(totalsOf(view(1, 0)), [0, 0, 0]);
});

test("a double click sends one action: the second for the same version is dropped until the server answers", () => {
  const state = newState();
  receive(state, welcome(view(4, 0)));
  assert.equal(sending(state), true);
  assert.equal(sending(state), false);
  receive(state, { type: "refused", code: "knizia13.error.colour", rule: "K10", params: {}, message: "No.", view: view(4, 0), version: 4 });
  assert.equal(state.message, "No.");
  assert.equal(sending(state), true, "after a refusal the person may choose again");
  receive(state, { type: "update", version: 5, seat: 0, action: "B5", text: "P0 plays B5", events: [], view: view(5, 0), seats });
  assert.equal(sending(state), true, "a new version takes a new action");
});

test("a stale refusal of an action the page superseded says nothing; one the page has not caught up with does", () => {
  const state = newState();
  receive(state, welcome(view(4, 0)));
  receive(state, { type: "update", version: 5, seat: 0, action: "B5", text: "P0 plays B5", events: [], view: view(5, 0), seats });
  const stale = { type: "refused", code: "table.stale", rule: "W6", params: { given: 4, current: 5 }, message: "The game has moved on.", view: view(5, 0), version: 5 };
  receive(state, stale);
  assert.equal(state.message, "");
  assert.equal(state.view?.version, 5);
  receive(state, { ...stale, params: { given: 5, current: 6 }, view: view(6, 1), version: 6 });
  assert.equal(state.message, "The game has moved on.");
  assert.equal(state.view?.version, 6);
});

test("closing a stage's scoring tells the server the person read it (the bots wait for that); the game's end does not", () => {
  const state = newState();
  receive(state, welcome(view(5, 1)));
  const scored = { key: "stage.scored", text: "", params: { stage: 0, scores: [1, 2, 3], totals: [1, 2, 3] } };
  const over = { key: "game.over", text: "", params: { totals: [1, 2, 3], winners: [0] } };
  receive(state, { type: "update", version: 6, view: view(6, 2), seats, seat: 1, action: "x", text: "", events: [scored] });
  receive(state, { type: "update", version: 7, view: view(7, 2, { is_over: true }), seats, seat: 2, action: "y", text: "", events: [over] });
  assert.deepEqual(closeDialog(state), { type: "ready", version: 6 });
  assert.equal(closeDialog(state), null);
  assert.equal(closeDialog(state), null);
  const watching = newState();
  receive(watching, welcome(view(5, 1), { seat: null }));
  receive(watching, { type: "update", version: 6, view: view(6, 2), seats, seat: 1, action: "x", text: "", events: [scored] });
  assert.equal(closeDialog(watching), null);
  assert.equal(watching.dialogs.length, 0);
});

test("lines of chat join the log once, in the order they came with the moves of a welcome", () => {
  const state = newState();
  const line = (id, version, text) => ({ id, seat: 0, name: "P0", text, phrase: null, version });
  const told = (version) => ({ version, seat: 1, action: "x", text: `move ${version}`, events: [] });
  receive(state, welcome(view(7, 1), { recent: [told(5), told(6), told(7)], chat: [line(2, 6, "b"), line(1, 5, "a")] }));
  assert.deepEqual(state.log.map((l) => l.chat ? `chat ${l.chat.text}` : l.text), ["move 5", "chat a", "move 6", "chat b", "move 7"]);
  receive(state, { type: "said", ...line(3, 7, "c") });
  hear(state, line(3, 7, "c"));
  assert.equal(state.log.filter((l) => l.chat).length, 3);
  assert.deepEqual(state.log.map((l) => l.n), [1, 2, 3, 4, 5, 6]);
});

test("a rematch another seat asked for opens a window that asks; the asker's own does not; a decline is kept", () => {
  const state = newState();
  receive(state, welcome(view(9, 1)));
  receive(state, { type: "rematch", table: "t2", token: "tok", by: 0 });
  assert.equal(state.dialogs.length, 0);  // seat 0 asked: its page goes there itself
  receive(state, { type: "rematch", table: "t2", token: "tok", by: 2 });
  assert.equal(state.rematch, "/play/tok");
  assert.deepEqual(state.dialogs.map((d) => [d.kind, d.event.params.by]), [["offer", 2]]);
  receive(state, { type: "declined", seat: 1 });
  receive(state, { type: "declined", seat: 1 });
  assert.deepEqual(state.declined, [1]);
});

test("a double click whose first click was applied before the second came sends no attempt", () => {
  const state = newState();
  receive(state, welcome(view(3, 0)));
  assert.equal(sending(state, true, 1000), true);  // the first click: a legal move
  receive(state, { type: "update", version: 4, view: view(4, 0), seats, seat: 0, action: "x", text: "", events: [] });
  assert.equal(sending(state, false, 1200), false, "the second click, on what is no longer legal");
  assert.equal(sending(state, false, 2000), true, "a deliberate click later is sent, to be explained");
  receive(state, { type: "update", version: 5, view: view(5, 0), seats, seat: 0, action: "x", text: "", events: [] });
  assert.equal(sending(state, true, 2100), true, "a legal move is never held back");
});

test("the log is the whole game's, a heading before each stage: the first action opens the first, a deal the next", () => {
  const state = newState();
  const ev = (key, text, params = {}) => ({ key, text, params });
  receive(state, welcome(view(3, 0), { recent: [
    { version: 1, text: "P1 plays", events: [ev("k13.played", "P1 plays B5")] },
    { version: 2, text: "P2 plays", events: [ev("stage.scored", "round over"), ev("k13.played", "P2 plays Y2"), ev("stage.dealt", "round 2 dealt", { stage: 1 })] },
    { version: 3, text: "P0 plays", events: [ev("k13.played", "P0 plays G1")] },
  ] }));
  assert.deepEqual(state.log.map((l) => (l.stage !== undefined ? `# ${l.stage}` : l.text)),
    ["# 0", "P1 plays B5", "P2 plays Y2", "round over", "# 1", "round 2 dealt", "P0 plays G1"]);
});

test("the server says when a move may be taken back; a take-back is said in the log, a refusal hides the button", () => {
  const state = newState();
  receive(state, welcome(view(3, 0), { undo: true }));
  assert.equal(state.undo, true);
  receive(state, { type: "update", view: { ...view(4, 1), history: undefined }, seats, text: "x", events: [], undo: false });
  assert.equal(state.undo, false);
  receive(state, { ...welcome(view(3, 0), { undo: true }), type: "resync" });
  receive(state, { type: "taken_back", seat: 0, version: 3, count: 1, text: "P0 took back the move that came next: play went on from here." });
  assert.equal(state.log[state.log.length - 1].text, "P0 took back the move that came next: play went on from here.");
  assert.equal(state.undo, true);
  receive(state, { type: "refused", code: "server.undo_drawn", message: "no", params: {}, view: null });
  assert.equal(state.undo, false);
});

test("a welcome's moves taken back are said in the log after the action they went back to", () => {
  const state = newState();
  const ev = (text) => ({ key: "k13.played", text, params: {} });
  receive(state, welcome(view(2, 0), {
    recent: [{ version: 1, text: "a", events: [ev("P1 plays")] }, { version: 2, text: "b", events: [ev("P0 plays")] }],
    taken_back: [{ type: "taken_back", version: 1, seat: 0, count: 2, text: "P0 took back the move that came next: play went on from here." }],
    chat: [{ id: 3, seat: 1, name: "P1", text: "hm", phrase: null, version: 1 }],
  }));
  assert.deepEqual(state.log.filter((l) => l.stage === undefined).map((l) => (l.chat ? `chat ${l.chat.text}` : l.text)),
    ["P1 plays", "P0 took back the move that came next: play went on from here.", "chat hm", "P0 plays"]);
});

test("a bot to move is known by its seat (a stand-in's too); a person's turn or the game's end is none", () => {
  const state = newState();
  const at = [{ ...seats[0] }, { ...seats[1], kind: "bot", bot: "master" }, { ...seats[2], stand_in: true }];
  receive(state, welcome(view(4, 0), { seats: at }));
  assert.equal(botToMove(state), null);
  receive(state, welcome(view(5, 1), { seats: at }));
  assert.equal(botToMove(state), 1);
  receive(state, welcome(view(6, 2), { seats: at }));
  assert.equal(botToMove(state), 2);
  receive(state, welcome(view(7, 1, { is_over: true }), { seats: at }));
  assert.equal(botToMove(state), null);
});

test("a rematch offered opens its window over the standings at once; each answer is kept; a yes goes to the new seat", () => {
  const over = { ...view(30, 0), is_over: true };
  const people = [...seats, { seat: 3, name: "Bot", kind: "bot", bot: "easy", joined: true, connected: true }];
  const state = newState();
  receive(state, welcome(over, { seats: people, seat: 1 }));
  state.dialogs.push({ id: 99, kind: "over", event: { key: "game.over", text: "", params: {} }, version: 30 });
  receive(state, { type: "offered", by: 0 });
  assert.equal(state.dialogs[0].kind, "offer");  // before the standings, not after them
  assert.deepEqual(rematchAnswers(state), [{ seat: 1, answer: null }, { seat: 2, answer: null }]);
  receive(state, { type: "accepted", seat: 1 });
  assert.equal(allAccepted(state), false);
  receive(state, { type: "declined", seat: 2 });
  assert.deepEqual(rematchAnswers(state), [{ seat: 1, answer: true }, { seat: 2, answer: false }]);
  assert.equal(receive(state, { type: "rematch", table: "t2", token: "tok", by: 0 }).go, true);
  assert.equal(state.rematch, "/play/tok");
  const other = newState();
  receive(other, welcome(over, { seats: people, seat: 2 }));
  receive(other, { type: "offered", by: 0 });
  receive(other, { type: "accepted", seat: 1 });
  receive(other, { type: "accepted", seat: 2 });
  assert.equal(allAccepted(other), true);
  const spectator = newState();
  receive(spectator, welcome(over, { seats: people, seat: null }));
  receive(spectator, { type: "offered", by: 0 });
  assert.equal(spectator.dialogs.length, 0);
});

test("the board is held while a stage's scoring is shown: the next deal is drawn once the window closes", () => {
  const state = newState();
  receive(state, welcome(view(9, 0)));
  assert.equal(boardHeld(state), false);
  const scored = { key: "stage.scored", text: "End of stage 1", params: { stage: 0, scores: [1, 2, 3], totals: [1, 2, 3] } };
  const dealt = { key: "stage.dealt", text: "New deal", params: { stage: 1 } };
  receive(state, { type: "update", version: 10, seat: 1, action: "B5", text: "P1 plays", events: [scored, dealt], view: view(10, 0, { stage: 1 }), seats });
  assert.equal(boardHeld(state), true);
  closeDialog(state);
  assert.equal(boardHeld(state), false);
});
