// @ts-check
// The table's websocket (docs/server.md): hello, then messages to a handler; when the connection drops it says
// "Reconnecting…" and opens it again (the server answers with the whole view), then "You're back". The protocol
// version the hello names is the server's own (GET /api/server), never written here.

/** @type {Promise<number> | null} */
let protocol = null;
/** The protocol version of the server (asked once; asked again after a failure). */
function protocolVersion() {
  protocol = protocol || fetch("/api/server").then((r) => r.json()).then((about) => about.protocol)
    .catch((err) => { protocol = null; throw err; });
  return protocol;
}

export class TableSocket {
  /**
   * @param {object} hello the hello's fields besides type and protocol: {token} or {table, spectator}, and lang
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
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
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
        this.delay = 250;
        this.onState(this.lost ? "back" : "open");
        this.lost = false;
      }
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

  close() {
    this.closed = true;
    if (this.socket) this.socket.close();
  }
}
