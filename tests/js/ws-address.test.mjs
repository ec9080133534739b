// The table's websocket (src/dreizehn/web/ws.js) names its table in its address once it is known (a spectator's
// hello names it, a seat's welcome says it), so that a load balancer in front of several server processes can send
// every connection of a table to the same process (docs/server.md, "Across machines").
import assert from "node:assert/strict";
import test from "node:test";

import { openPage } from "./page.mjs";

openPage("http://127.0.0.1:8000/play/tok");
/** @type {FakeSocket[]} */
const opened = [];
class FakeSocket extends EventTarget {
  static OPEN = 1;
  /** @param {string} url */
  constructor(url) { super(); this.url = url; this.readyState = 0; opened.push(this); }
  send() {}
  close() {}
}
Object.assign(globalThis, { WebSocket: FakeSocket, fetch: async () => ({ json: async () => ({ protocol: 1 }) }) });
const { TableSocket } = await import("../../src/dreizehn/web/ws.js");

test("a seat's socket names its table once the welcome said it; a spectator's from the start", () => {
  const seat = new TableSocket({ lang: "en", token: "tok" }, () => {}, () => {});
  assert.equal(opened.at(-1)?.url, "ws://127.0.0.1:8000/ws");
  const welcome = new Event("message");
  Object.assign(welcome, { data: JSON.stringify({ type: "welcome", table: "Ab_c-1" }) });
  opened.at(-1)?.dispatchEvent(welcome);
  seat.open();
  assert.equal(opened.at(-1)?.url, "ws://127.0.0.1:8000/ws?table=Ab_c-1");
  new TableSocket({ lang: "de", table: "Xy9", spectator: "s" }, () => {}, () => {});
  assert.equal(opened.at(-1)?.url, "ws://127.0.0.1:8000/ws?table=Xy9");
});
