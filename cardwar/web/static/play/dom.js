// General DOM helpers of the page scripts (cards.js re-exports them): an element,
// an element by id, and the JSON the page embeds, checked by a small schema.

/**
 * A new element with a class and a text (as text, never markup).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [cls]
 * @param {string | null} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

/**
 * The element with this id; the page's template always has it.
 * @param {string} id
 * @returns {HTMLElement}
 * @throws {Error} when the page has no such element
 */
export function byId(id) {
  const e = document.getElementById(id);
  if (!e) throw new Error("no #" + id + " on this page");
  return e;
}

/**
 * The JSON embedded in `<script type="application/json" id=...>`, unchecked
 * (prefer {@link embeddedAs}).
 * @param {string} id
 * @returns {unknown}
 */
export function embedded(id) {
  return JSON.parse(byId(id).textContent || "null");
}

/**
 * A schema: each key's JSON type ("string", "number", "boolean", "object",
 * "array"), "?" after it when the key may be missing or null.
 * @typedef {Record<string, string>} Schema
 */

/**
 * The problems of `data` against `schema` (none: it fits).
 * @param {unknown} data
 * @param {Schema} schema
 * @returns {string[]}
 */
export function problems(data, schema) {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return ["not an object"];
  const o = /** @type {Record<string, unknown>} */ (data);
  /** @type {string[]} */
  const out = [];
  for (const [key, want] of Object.entries(schema)) {
    const optional = want.endsWith("?");
    const type = optional ? want.slice(0, -1) : want;
    const v = o[key];
    if (v === undefined || v === null) {
      if (!optional) out.push(key + ": missing");
      continue;
    }
    const got = Array.isArray(v) ? "array" : typeof v;
    if (got !== type) out.push(key + ": " + got + ", not " + type);
  }
  return out;
}

/**
 * The JSON embedded as `id`, checked against `schema` at load.
 * @template T
 * @param {string} id
 * @param {Schema} schema
 * @returns {T}  what the schema describes (the caller names it)
 * @throws {Error} naming each key that does not fit
 */
export function embeddedAs(id, schema) {
  const data = embedded(id);
  const wrong = problems(data, schema);
  if (wrong.length) throw new Error("#" + id + ": " + wrong.join("; "));
  return /** @type {T} */ (data);
}
