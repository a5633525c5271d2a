// The public HTTP API, as any third-party client uses it. A seat's token lives in this browser's
// localStorage, never in a URL: its stream opens with a short-lived ticket.
import { has, t } from "./i18n.js";

export class Problem extends Error {
  constructor(status, body) {
    super(body && body.detail ? body.detail : `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code;
    this.title = body && body.title;
  }
}

export async function api(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  const data = text ? JSON.parse(text) : null;
  if (!r.ok) throw new Problem(r.status, data);
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

export const seats = {
  get: (table) => JSON.parse(localStorage.getItem(`gcbc:seat:${table}`) || "null"),
  set: (table, seat, token) => localStorage.setItem(`gcbc:seat:${table}`, JSON.stringify({ seat, token })),
};

export function commandId() {
  return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2);
}

// the view now (drawn at once), then its changes: Server-Sent Events, a seat's with a ticket
export function follow(tableId, token, onView) {
  let source = null, closed = false, failures = 0;
  async function open() {
    if (closed) return;
    let url = `/tables/${tableId}/stream`;
    if (token) {
      try {
        const got = await api("POST", `/tables/${tableId}/tickets`, { token });
        url += `?ticket=${encodeURIComponent(got.ticket)}`;
      } catch (e) { showProblem(e); setTimeout(open, 2000); return; }
    }
    source = new EventSource(url);
    source.onmessage = (m) => { failures = 0; onView(JSON.parse(m.data)); };
    // the game is over: the server closed the stream, and a reconnection would only end again
    source.addEventListener("end", () => { closed = true; source.close(); });
    source.onerror = () => {
      source.close();  // a ticket lasts a minute: a reconnection asks for a new one
      failures += 1;
      setTimeout(open, Math.min(500 * failures, 5000));
    };
  }
  api("GET", `/tables/${tableId}/view`, { token }).then(onView, showProblem).finally(open);
  return () => { closed = true; if (source) source.close(); };
}
