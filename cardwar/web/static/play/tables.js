// The open tables page: public games waiting for players, kept live over a
// WebSocket (cardwar/web/listing.py): `tables` (all of them), then `listed`
// and `unlisted` as tables open, fill, start or go, from every server process.
// A table also leaves once its time on the list is up (`expires`). `applyListing`
// is pure (tested with node); the rest draws the list.

import { byId, el, embedded } from "./cards.js";
import { connect } from "./connection.js";
import { fmt, numberFormat } from "./words.js";

/**
 * One open table as the server sends it (cardwar.tables.listing.OpenTable).
 * @typedef {object} OpenTable
 * @property {string} id
 * @property {string} variant
 * @property {number} players
 * @property {number} seated
 * @property {number} free
 * @property {string} locale  the creator's language
 * @property {number} waiting  seconds since it was created
 * @property {number} expires  seconds until it leaves the list
 */
/**
 * @typedef {{type: "tables", seq: null, tables: OpenTable[]} |
 *   {type: "listed", seq: null, table: OpenTable} | {type: "unlisted", seq: null, id: string} |
 *   {type: "ping", seq: null}} ListingMessage
 */
/**
 * An open table on this page: `since` and `until` on the page's clock (ms).
 * @typedef {OpenTable & {since: number, until: number}} Listed
 */

/**
 * The list after `message` at `now` (ms): the newest first, none whose time is up.
 * @param {Listed[]} list
 * @param {ListingMessage | {type: "local:tick"}} message
 * @param {number} now
 * @returns {Listed[]}
 */
export function applyListing(list, message, now) {
  /** @param {OpenTable} t @returns {Listed} */
  const timed = (t) => ({ ...t, since: now - t.waiting * 1000, until: now + t.expires * 1000 });
  let next = list;
  if (message.type === "tables") next = message.tables.map(timed);
  else if (message.type === "listed") {
    next = [timed(message.table), ...list.filter((t) => t.id !== message.table.id)];
  } else if (message.type === "unlisted") next = list.filter((t) => t.id !== message.id);
  next = next.filter((t) => t.until > now);
  next.sort((a, b) => b.since - a.since || (a.id < b.id ? -1 : 1));
  return next.length === list.length && next.every((t, i) => t === list[i]) ? list : next;
}

/**
 * The words of the page (cardwar.web.strings.listing_strings).
 * @typedef {object} ListingStrings
 * @property {Record<string, string>} variants
 * @property {Record<string, string>} languages
 * @property {Record<string, string>} count
 * @property {string} none
 * @property {Record<string, string>} players
 * @property {Record<string, string>} free
 * @property {string} new
 * @property {Record<string, string>} waiting
 * @property {string} join
 * @property {string} join_label
 * @property {string} connecting
 * @property {string} reconnecting
 * @property {import("./words.js").NumberWords} number  how numbers are written (CLDR)
 */

function start() {
  const S = /** @type {ListingStrings} */ (embedded("tables-strings"));
  const C = /** @type {{locale: string, socket: string, game: string, heartbeat: number,
    tables: OpenTable[]}} */ (embedded("tables-config"));
  const nf = { format: numberFormat(S.number) };  // the server's CLDR data, as everywhere
  const pr = new Intl.PluralRules(C.locale);
  /** @param {Record<string, string>} forms @param {number} n @param {Record<string, string>} [args] */
  const plural = (forms, n, args) =>
    fmt(forms[pr.select(n)] || forms.other, { ...args, count: nf.format(n) });
  /** @type {Listed[]} */
  let list = applyListing([], { type: "tables", seq: null, tables: C.tables }, Date.now());
  let live = false;

  function draw() {
    const now = Date.now();
    const ul = byId("open-tables");
    ul.textContent = "";
    for (const t of list) {
      const game = S.variants[t.variant] || t.variant;
      const language = S.languages[t.locale] || t.locale;
      const li = el("li", "open-table");
      li.dataset.game = t.id;
      li.appendChild(el("h2", "open-table__game", game));
      const facts = el("p", "open-table__facts");
      const minutes = Math.floor((now - t.since) / 60000);
      const lang = el("span", "open-table__lang", language);
      lang.lang = t.locale;
      facts.append(
        el("span", "", plural(S.players, t.players, { seated: nf.format(t.seated) })), " · ",
        el("span", "open-table__free", plural(S.free, t.free)), " · ", lang, " · ",
        el("span", "open-table__waiting", minutes < 1 ? S.new : plural(S.waiting, minutes)));
      li.appendChild(facts);
      const join = el("a", "button open-table__join", S.join);
      join.href = C.game + t.id;
      join.setAttribute("aria-label", fmt(S.join_label, { game, language }));
      li.appendChild(join);
      ul.appendChild(li);
    }
    byId("open-count").textContent = !live ? S.connecting
      : list.length ? plural(S.count, list.length) : S.none;
  }

  /** @param {ListingMessage | {type: "local:tick"}} message */
  function dispatch(message) {
    if (message.type === "tables") live = true;
    const next = applyListing(list, message, Date.now());
    if (next === list && message.type !== "tables" && message.type !== "local:tick") return;
    list = next;
    draw();
  }

  connect({
    path: C.socket,
    heartbeat: C.heartbeat || 20,
    since: () => null,
    message: (m) => dispatch(/** @type {ListingMessage} */ (/** @type {unknown} */ (m))),
    connecting() {},
    lost() { live = false; byId("open-count").textContent = S.reconnecting; },
    back() {},
    moved() {},
  });
  window.setInterval(() => dispatch({ type: "local:tick" }), 15000);  // waiting times, expiry
  draw();
}

if (typeof document !== "undefined" && document.getElementById("tables-config")) start();
