// @ts-check
// The table's websocket (docs/server.md): hello, then messages to a handler; when the connection drops it says
// "Reconnecting…" and opens it again (the server answers with the whole view), then "You're back". A seat's hello
// names the browser tab (the same across reloads) and asks before taking the seat from another window; a window
// whose seat was taken over does not reconnect until its person asks (takeOver). The protocol
// version the hello names is the server's own (GET /api/server), never written here.

/** @type {Promise<number> | null} */
let protocol = null;

/** This browser tab's id, kept across its reloads (sessionStorage), so that a reload is not taken for a second window. */
export function windowId() {
  let id = sessionStorage.getItem("dreizehn.window");
  if (!id) {
    id = Math.random().toString(36).slice(2, 12);
    sessionStorage.setItem("dreizehn.window", id);
  }
  return id;
}
/** The protocol version of the server (asked once; asked again after a failure). */
function protocolVersion() {
  protocol = protocol || fetch("/api/server").then((r) => r.json()).then((about) => about.protocol)
    .catch((err) => { protocol = null; throw err; });
  return protocol;
}

/**
 * @typedef {{lang: string, token?: string, table?: string, seat?: number, spectator?: string, watch?: boolean,
 *   window?: string, takeover?: "ask" | "yes"}} HelloFields
 */

export class TableSocket {
  /**
   * @param {HelloFields} hello the hello's fields besides type and protocol: {token, window, takeover}, {table,
   *   seat, window, takeover} (a signed-in person's own seat: the websocket carries the session's cookie) or
   *   {table, spectator}, and lang
   * @param {(message: object) => void} onMessage every message of the server
   * @param {(state: "open"|"lost"|"back") => void} onState the connection's state
   */
  constructor(hello, onMessage, onState) {
    this.hello = hello;
    this.onMessage = onMessage;
    this.onState = onState;
    this.lost = false;
    this.closed = false;
    this.delay = 250;
    /** The table, once known (a spectator's hello names it; a seat's welcome says it): named in the address too. */
    this.table = hello.table || "";
    this.open();
  }

  /** The websocket's address: `/ws`, with `?table=` once the table is known, so that a load balancer in front of
   * several server processes can send every connection of a table to the same one (docs/server.md). */
  address() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = this.table ? `?table=${encodeURIComponent(this.table)}` : "";
    return `${scheme}://${location.host}/ws${query}`;
  }

  open() {
    const socket = new WebSocket(this.address());
    this.socket = socket;
    const version = protocolVersion();
    socket.addEventListener("open", async () => {
      try {
        const said = await version;
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "hello", protocol: said, ...this.hello }));
      } catch {
        socket.close();  // the server did not say its protocol: try again as after a lost connection
      }
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "welcome" || message.type === "resync") {
        if (typeof message.table === "string") this.table = message.table;
        this.delay = 250;
        this.onState(this.lost ? "back" : "open");
        this.lost = false;
        if (this.hello.takeover === "yes") this.hello = { ...this.hello, takeover: /** @type {"ask"} */ ("ask") };  // taken once, not again
      }
      if (message.type === "taken_over") this.closed = true;  // another window plays the seat: no reconnecting
      this.onMessage(message);
    });
    socket.addEventListener("close", () => {
      if (this.closed || this.socket !== socket) return;
      this.lost = true;
      this.onState("lost");
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    });
  }

  /** @param {object} message */
  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** @param {string} code */
  setLanguage(code) {
    this.hello = { ...this.hello, lang: code };
    this.send({ type: "lang", lang: code });
  }

  /** Take the seat over from the other window (the person said so): say hello again, with ``takeover: "yes"``. */
  takeOver() {
    this.hello = { ...this.hello, takeover: /** @type {"yes"} */ ("yes") };
    this.closed = false;
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      protocolVersion().then((said) => this.send({ type: "hello", protocol: said, ...this.hello }));
    } else this.open();
  }

  close() {
    this.closed = true;
    if (this.socket) this.socket.close();
  }
}
