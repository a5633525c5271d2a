// The public HTTP API, as any third-party client uses it. A seat's token lives in this browser's
// localStorage, never in a URL: its stream opens with a short-lived ticket.
import { has, t } from "./i18n.js";

export class Problem extends Error {
  constructor(status, body, retryAfter = null) {
    super(body && body.detail ? body.detail : `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code;
    this.title = body && body.title;
    this.body = body || {};  // what else it carries: a 503's token, for the seat it may have taken
    this.retryAfter = retryAfter;  // seconds the server asked to wait (Retry-After), or null
  }
}

// a refusal that asking again cannot change: the token, the seat or the table is not the caller's
export const isFinal = (e) => e instanceof Problem && [401, 403, 404].includes(e.status);

// how long to wait before asking again after `failures` failures in a row: drawn at random below
// a ceiling that doubles up to a minute (so pages that lost the server at the same moment do not
// come back at the same moment), after what the server asked for, if it did
export function backoff(failures, retryAfter = null) {
  const ceiling = Math.min(60_000, 1000 * 2 ** Math.min(Math.max(failures, 1), 6));
  return (retryAfter ?? 0) * 1000 + Math.random() * ceiling;
}

export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function retryAfterOf(r) {
  const text = r.headers.get("Retry-After");
  const seconds = text === null ? NaN : Number(text);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

export async function api(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) {
    if (r.ok) throw e;  // a refusal in another shape (a proxy's HTML page) is still a refusal
  }
  if (!r.ok) throw new Problem(r.status, data, retryAfterOf(r));
  return data;
}

// a refusal in words: the catalogue's sentence for its code, else the server's title and detail
export function showProblem(e) {
  const box = document.getElementById("problem");
  if (!e) { box.replaceChildren(); box.removeAttribute("data-code"); return; }
  const words = e.code && has(`problem.${e.code}`) ? t(`problem.${e.code}`)
    : [e.title, e.message].filter(Boolean).join(": ") || t("problem.unknown");
  box.textContent = words;
  if (e.code) box.dataset.code = e.code;
}

// What this browser keeps per table (a seat's token, a creator's invitation codes), under
// `gcbc:<kind>:<table>`, each dated as it is written: writing one drops that kind's entries untouched
// for a month and those past the latest `KEPT.tables`, so tables played long ago never fill the storage.
export const KEPT = { days: 30, tables: 200 };

export function perTable(kind) {
  const prefix = `gcbc:${kind}:`;
  const read = (key) => {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch { return undefined; }
  };
  function prune(now, written) {
    const keys = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i));
    const dated = [];
    for (const key of keys.filter((k) => k && k.startsWith(prefix))) {
      const got = read(key);
      if (got === undefined || got === null) { localStorage.removeItem(key); continue; }
      // an entry from before they were dated: dated now, so it lasts a month from today
      if (typeof got.at !== "number") localStorage.setItem(key, JSON.stringify({ value: got, at: now }));
      dated.push([typeof got.at === "number" ? got.at : now, key]);
    }
    dated.sort((a, b) => (b[1] === written) - (a[1] === written) || b[0] - a[0]);
    dated.forEach(([at, key], i) => {
      if (i >= KEPT.tables || now - at > KEPT.days * 86_400_000) localStorage.removeItem(key);
    });
  }
  return {
    get: (table) => {
      const got = read(prefix + table);
      return got && typeof got.at === "number" ? got.value : got ?? null;
    },
    set: (table, value) => {
      const now = Date.now();
      localStorage.setItem(prefix + table, JSON.stringify({ value, at: now }));
      prune(now, prefix + table);
    },
    forget: (table) => localStorage.removeItem(prefix + table),
  };
}

const seatStore = perTable("seat");
export const seats = {
  get: (table) => seatStore.get(table),
  set: (table, seat, token) => seatStore.set(table, { seat, token }),
  forget: (table) => seatStore.forget(table),
};

// randomUUID exists on secure pages only (https, localhost): elsewhere the same 128 random bits
export function commandId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// a 503 that may have taken a seat carries its token (and table): kept, the table's page asks
export function mayHaveSeat(e) {
  if (e instanceof Problem && e.status === 503 && e.body.token) return { table_id: e.body.table_id, token: e.body.token };
  throw e;
}

// how long a hidden page keeps its stream (ms)
export const STREAMS = { hiddenFor: 60_000 };

// the view now (drawn at once), then its changes: Server-Sent Events, a seat's with a ticket.
// A lost stream is opened again after a backoff; a refusal asking again cannot change (the seat
// left, the token replaced, no such table) stops it and goes to `onGone`. A page hidden for
// `STREAMS.hiddenFor` lets its stream go (a tab left in the background holds no connection);
// shown again, it reads the view and follows it once more.
export function follow(tableId, token, onView, onGone = showProblem) {
  let source = null, closed = false, failures = 0, paused = false, hiding = null;
  const stop = () => {
    closed = true;
    clearTimeout(hiding);
    document.removeEventListener("visibilitychange", visibility);
    if (source) source.close();
  };
  const gone = (e) => { stop(); onGone(e); };
  const again = (retryAfter) => { failures += 1; setTimeout(open, backoff(failures, retryAfter)); };
  function pause() {
    hiding = null;
    if (closed || !document.hidden) return;
    paused = true;
    if (source) { source.close(); source = null; }
  }
  function visibility() {
    clearTimeout(hiding);
    hiding = null;
    if (document.hidden) hiding = setTimeout(pause, STREAMS.hiddenFor);
    else if (paused && !closed) { paused = false; failures = 0; start(); }
  }
  document.addEventListener("visibilitychange", visibility);
  async function open() {
    if (closed || paused) return;
    let url = `/tables/${tableId}/stream`;
    if (token) {
      try {
        const got = await api("POST", `/tables/${tableId}/tickets`, { token });
        url += `?ticket=${encodeURIComponent(got.ticket)}`;
      } catch (e) {
        if (isFinal(e)) { gone(e); return; }
        showProblem(e); again(e.retryAfter); return;
      }
    }
    if (closed || paused) return;
    source = new EventSource(url);
    source.onmessage = (m) => { failures = 0; onView(JSON.parse(m.data)); };
    // the game is over: the server closed the stream, and a reconnection would only end again
    source.addEventListener("end", () => stop());
    source.onerror = () => {
      source.close();  // a ticket lasts a minute: a reconnection asks for a new one
      again(null);
    };
  }
  function start() {
    api("GET", `/tables/${tableId}/view`, { token }).then(
      (v) => { if (closed) return; try { onView(v); } finally { open(); } },
      (e) => { if (isFinal(e)) gone(e); else { showProblem(e); open(); } });
  }
  if (document.hidden) visibility();  // opened in a background tab: it lets go in time too
  start();
  return stop;
}
