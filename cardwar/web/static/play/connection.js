// The game's WebSocket: connects, answers the server's heartbeats, notices a
// dead link (nothing heard for three heartbeats, or the device going offline)
// and connects again with backoff, saying the last event it saw (?since=N) so
// the server sends only what was missed (cardwar/web/socket.py). No DOM: what
// happens is told to the page through the callbacks.

/** @typedef {import("./messages.js").ServerMessage} ServerMessage */
/** @typedef {import("./messages.js").ClientMessage} ClientMessage */

/** Longest wait between two attempts, in ms (before the random part). */
const MAX_DELAY = 15000;
/** Close code of a seat handed to the computer or whose link was replaced. */
const SEAT_MOVED = 4001;

/**
 * How long to wait before attempt number `attempt` (1, 2, ...) after a loss, in
 * ms: 1 s doubling up to 15 s, each time between half and all of it (so the
 * pages of a restarted server do not all come back at once).
 * @param {number} attempt
 * @param {number} random  in [0, 1)
 */
export function backoff(attempt, random) {
  return Math.min(MAX_DELAY, 1000 * Math.pow(2, attempt - 1)) * (0.5 + random / 2);
}

/**
 * The answer to the server's heartbeat: a numbered one (a seated player's, whose
 * round trips measure the latency slaps are judged with) echoes its `id`.
 * @param {{type: "ping", id?: number}} ping
 * @returns {ClientMessage}
 */
export function pongFor(ping) {
  return typeof ping.id === "number" ? { type: "pong", id: ping.id } : { type: "pong" };
}

/**
 * @typedef {object} ConnectionHooks
 * @property {string} path  the socket's path, e.g. /ws/g/ID
 * @property {number} heartbeat  seconds between the server's pings
 * @property {() => (number | null)} since  the last event number the page has (null: none)
 * @property {(message: ServerMessage) => void} message  every message, in order
 * @property {() => void} connecting  a socket is about to open
 * @property {() => void} lost  the link is gone (closed, dead or offline): retrying
 * @property {() => void} back  the first message after a loss
 * @property {() => void} moved  our seat is no longer ours here (handed over, new link)
 */

/**
 * Start the connection.
 * @param {ConnectionHooks} on
 * @returns {{send: (message: ClientMessage) => void}} `send` drops the message
 *   while there is no open socket (the page shows that it is reconnecting)
 */
export function connect(on) {
  /** @type {WebSocket | null} */
  let ws = null;
  let attempts = 0;  // since the last good connection
  /** @type {number | undefined} */
  let retryTimer;
  let lastHeard = Date.now();
  const heartbeat = on.heartbeat * 1000;

  /** @param {ClientMessage} message */
  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  function dropped() {
    ws = null;
    attempts += 1;
    on.lost();
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(open, backoff(attempts, Math.random()));
  }

  function open() {
    window.clearTimeout(retryTimer);
    if (navigator.onLine === false) { dropped(); return; }  // the "online" event retries
    on.connecting();
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const seq = on.since();
    const since = seq === null ? "" : "?since=" + seq;
    const sock = new WebSocket(scheme + location.host + on.path + since);
    ws = sock;
    sock.addEventListener("open", () => { lastHeard = Date.now(); });
    sock.addEventListener("message", (e) => {
      if (ws !== sock) return;  // a socket we gave up on (e.g. on going offline)
      lastHeard = Date.now();
      if (attempts) { attempts = 0; on.back(); }
      const message = /** @type {ServerMessage} */ (JSON.parse(e.data));
      // at once, echoing a numbered heartbeat's id: its round trip is our latency
      if (message.type === "ping") send(pongFor(message));
      on.message(message);
    });
    sock.addEventListener("close", (e) => {
      if (ws !== sock) return;
      ws = null;
      if (e.code === SEAT_MOVED) { on.moved(); return; }
      dropped();
    });
  }

  window.setInterval(() => {
    // a socket that has heard nothing for three heartbeats is dead: start again
    const silent = Date.now() - lastHeard > 3 * heartbeat;
    if (ws && ws.readyState === WebSocket.OPEN && silent) ws.close();
  }, Math.min(heartbeat, 5000));
  window.addEventListener("online", () => {
    if (!ws) open();
  });
  window.addEventListener("offline", () => {
    // no network: say so at once and treat the socket as dropped
    const sock = ws;
    if (!sock) { on.lost(); return; }
    ws = null;
    try { sock.close(); } catch { /* already closing */ }
    dropped();
  });
  open();
  return { send };
}
