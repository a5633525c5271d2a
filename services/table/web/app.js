// The reference web client: the lobby, a seat at play, a spectator's table and a replay, using
// nothing but the public HTTP API (the same as any third-party client). No framework: DOM
// elements built with h(), text always as text (names and chat are other people's words).
// A seat's token lives in this browser's localStorage, never in a URL: its stream opens with a
// short-lived ticket (POST /tables/{id}/tickets).

const main = document.getElementById("main");
const nav = document.getElementById("nav");
const problemBox = document.getElementById("problem");

// --- small tools --------------------------------------------------------------------------------
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "style") Object.assign(el.style, v);  // CSSOM: the page's CSP allows no inline style
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const words = (s) => String(s).replaceAll("_", " ");
const cardName = (c) => (c ? words(c).replace(/^./, (x) => x.toUpperCase()) : "face down");

class Problem extends Error {
  constructor(status, body) {
    super(body && body.detail ? body.detail : `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code;
  }
}

async function api(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  const data = text ? JSON.parse(text) : null;
  if (!r.ok) throw new Problem(r.status, data);
  return data;
}

function showProblem(e) {
  problemBox.textContent = e ? `${e.code ? e.code + ": " : ""}${e.message}` : "";
}

const seats = {
  get: (table) => JSON.parse(localStorage.getItem(`gcbc:seat:${table}`) || "null"),
  set: (table, seat, token) => localStorage.setItem(`gcbc:seat:${table}`, JSON.stringify({ seat, token })),
};

function commandId() {
  return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2);
}

// --- the lobby ----------------------------------------------------------------------------------
async function lobby() {
  nav.replaceChildren();
  const list = h("tbody");
  const form = createForm();
  main.replaceChildren(
    h("h1", {}, "Tables"),
    h("section", { class: "panel", "aria-labelledby": "new" }, h("h2", { id: "new" }, "New table"), form),
    h("section", { class: "panel", "aria-labelledby": "open" },
      h("h2", { id: "open" }, "Waiting for players"),
      h("table", { class: "lobby" },
        h("thead", {}, h("tr", {}, h("th", {}, "Table"), h("th", {}, "Seats"), h("th", {}, "Options"), h("th", {}, ""))),
        list)),
  );
  try {
    const tables = await api("GET", "/tables?limit=100");
    if (!tables.length) list.append(h("tr", {}, h("td", { colspan: 4 }, "No table is waiting: create one.")));
    for (const t of tables) {
      const opts = [t.options.edition, t.options.wounds && `wounds: ${t.options.wounds}`,
        t.options.zombies && "zombies", t.options.bombers_traitors && "bombers & traitors",
        t.options.extra_equipment && "extra equipment", t.bots && `${t.bots.seats.length} house bots`]
        .filter(Boolean).join(", ");
      list.append(h("tr", {},
        h("td", {}, h("a", { href: `/watch/${t.table_id}` }, t.table_id)),
        h("td", {}, `${t.taken} / ${t.seats}`),
        h("td", {}, opts),
        h("td", {}, h("button", { onclick: () => join(t.table_id) }, "Take a seat"))));
    }
  } catch (e) { showProblem(e); }
}

function createForm() {
  const num = (name, value, min, max, label) =>
    h("label", {}, label, " ", h("input", { type: "number", name, value, min, max, step: "any", size: 4 }));
  const check = (name, label) => h("label", {}, h("input", { type: "checkbox", name }), " ", label);
  const form = h("form", { "aria-label": "new table" },
    h("fieldset", {}, h("legend", {}, "Players"),
      h("label", {}, "Your name ", h("input", { name: "name", value: "me", required: true, maxlength: 40 })),
      num("seats", 4, 4, 8, "Seats"),
      num("bots", 3, 0, 8, "House bots"),
      h("label", {}, "Bot kind ", h("select", { name: "kind" }, h("option", {}, "random"), h("option", {}, "heuristic")))),
    h("fieldset", {}, h("legend", {}, "Options"),
      h("label", {}, "Edition ", h("select", { name: "edition" }, h("option", {}, "fourth"), h("option", {}, "classic"))),
      h("label", {}, "Wounds ", h("select", { name: "wounds" },
        h("option", { value: "" }, "the edition's"), h("option", {}, "token"), h("option", {}, "card"))),
      check("zombies", "Zombies"), check("bombers_traitors", "Bombers & Traitors"),
      check("extra_equipment", "Extra equipment")),
    h("fieldset", {}, h("legend", {}, "Deadlines (seconds)"),
      num("turn", 90, 5, 3600, "Turn"), num("reaction", 20, 5, 3600, "Reaction"),
      num("prompt", 20, 5, 3600, "Prompt"), num("arrange", 60, 5, 3600, "Arrange")),
    h("button", { type: "submit", class: "primary" }, "Create and sit down"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showProblem(null);
    const f = new FormData(form);
    const n = Number(f.get("seats"));
    const bots = Math.min(Number(f.get("bots")), n);
    const body = {
      seats: n,
      options: {
        edition: f.get("edition"),
        zombies: f.has("zombies"), bombers_traitors: f.has("bombers_traitors"),
        extra_equipment: f.has("extra_equipment"),
        ...(f.get("wounds") ? { wounds: f.get("wounds") } : {}),
      },
      deadlines: Object.fromEntries(["turn", "reaction", "prompt", "arrange"].map((k) => [k, Number(f.get(k))])),
    };
    if (bots > 0) body.bots = { seats: Array.from({ length: bots }, (_, i) => n - bots + i), kind: f.get("kind") };
    try {
      const created = await api("POST", "/tables", { body });
      if (bots < n) await join(created.table_id, f.get("name"));
      else location.assign(`/watch/${created.table_id}`);
    } catch (e) { showProblem(e); }
  });
  return form;
}

async function join(tableId, name) {
  name = name || prompt("Your name at this table?", "me");
  if (!name) return;
  try {
    const got = await api("POST", `/tables/${tableId}/seats`, { body: { name } });
    seats.set(tableId, got.seat ?? -1, got.token);
    location.assign(`/play/${tableId}`);
  } catch (e) { showProblem(e); }
}

// --- a table: the view, drawn -------------------------------------------------------------------
function describeCommand(c) {
  const seat = (n) => `seat ${n}`;
  switch (c.type) {
    case "investigate": return `Investigate ${seat(c.target)}'s card ${c.position}`;
    case "equip": return "Equip (draw an equipment card)";
    case "arm": return "Arm (take a gun)";
    case "shoot": return `Shoot ${seat(c.target)}`;
    case "bite": return `Bite ${seat(c.target)}`;
    case "aim": return `Aim at ${seat(c.target)}`;
    case "pass": return "Pass";
    case "resume": return "I'm back (resume)";
    case "arrange": return `Arrange my cards: ${c.positions.join(", ")}`;
    case "discard": return `Discard ${cardName(c.card)}`;
    case "choose": return `Choose ${c.choice ?? c.value ?? JSON.stringify(c)}`;
    case "set_auto_pass": return c.enabled ? "Turn automatic passing on" : "Turn automatic passing off";
    case "play_equipment": {
      const parts = [`Play ${cardName(c.card)}`];
      if (c.target !== undefined) parts.push(`on ${seat(c.target)}`);
      if (c.position !== undefined) parts.push(`card ${c.position}`);
      if (c.targets) parts.push(`on seats ${c.targets.join(", ")}`);
      if (c.positions) parts.push(`cards ${c.positions.join(", ")}`);
      if (c.choice !== undefined) parts.push(`choosing ${words(c.choice)}`);
      if (c.aim !== undefined) parts.push(`aiming at ${seat(c.aim)}`);
      return parts.join(" ");
    }
    default: {
      const rest = Object.entries(c).filter(([k]) => k !== "type").map(([k, v]) => `${words(k)} ${JSON.stringify(v)}`);
      return [words(c.type), ...rest].join(" ");
    }
  }
}

function describeEntry(e) {
  const who = (n) => (n === null || n === undefined ? "someone" : `seat ${n}`);
  const { type, v, ...f } = e;
  switch (type) {
    case "table_opened": return `Table opened for ${f.seats} seats`;
    case "seat_taken": return `${f.name} sat down at ${who(f.seat)}`;
    case "seat_left": return `${who(f.seat)} left`;
    case "game_started": return `The game started; ${who(f.first_seat)} plays first`;
    case "turn_began": return `Turn ${f.turn}: ${who(f.seat)}`;
    case "action_declared": return `${who(f.seat)} declares ${words(f.action)}${f.target !== undefined && f.target !== null ? ` on ${who(f.target)}` : ""}`;
    case "seat_absent": return `${who(f.seat)} is away (the autopilot plays)`;
    case "seat_returned": return `${who(f.seat)} is back`;
    case "autopilot_acted": return `The autopilot played for ${who(f.seat)}`;
    case "game_won": return `Game over: ${(f.winners || []).map((s) => `seat ${s}`).join(", ") || "nobody"} won${f.team ? ` (${words(f.team)})` : ""}${f.reason ? `: ${words(f.reason)}` : ""}`;
    case "gun_aimed": return `${who(f.seat)} aims at ${who(f.target)}`;
    case "gun_taken": return `${who(f.seat)} takes a gun${f.aim !== undefined && f.aim !== null ? ` and aims at ${who(f.aim)}` : ""}`;
    case "arms_aimed": return `${who(f.seat)} points its Arms at ${who(f.target)}`;
    case "card_viewed": return `${who(f.viewer)} looks at ${who(f.seat)}'s card ${f.position}${f.card ? `: ${cardName(f.card)}` : ""}`;
    case "card_revealed": return `${who(f.seat)}'s card ${f.position} is turned face up${f.card ? `: ${cardName(f.card)}` : ""}`;
    case "seat_shot": return `${who(f.shooter)} shoots ${who(f.target)}`;
    case "seat_bitten": return `${who(f.biter)} bites ${who(f.target)}`;
    case "became_zombie": return `${who(f.seat)} becomes a zombie`;
    case "leader_wounded": return `${who(f.seat)}'s Leader is wounded`;
    case "seat_eliminated": return `${who(f.seat)} is eliminated`;
    case "equipment_drawn": return `${who(f.seat)} draws ${f.card ? cardName(f.card) : "an equipment card"}`;
    case "equipment_played": return `${who(f.seat)} plays ${cardName(f.card)}${f.target !== undefined && f.target !== null ? ` on ${who(f.target)}` : ""}`;
    case "window_opened": return `Reaction window (${words(f.kind)})`;
    case "reaction_passed": return `${who(f.seat)} passes`;
    case "chat_posted": return `${who(f.seat)} says: ${f.text}`;
    default: {
      const rest = Object.entries(f).map(([k, x]) => `${words(k)}: ${typeof x === "object" ? JSON.stringify(x) : x}`);
      return `${words(type).replace(/^./, (x) => x.toUpperCase())}${rest.length ? " (" + rest.join(", ") + ")" : ""}`;
    }
  }
}

let countdownTimer = null;

function renderView(v, { mode, token, onCommand }) {
  const focus = renderView.focus || (renderView.focus = { target: null, position: null });
  const you = v.you ? v.you.seat : null;
  const n = v.seats.length;
  const centre = (i) => {
    const a = (2 * Math.PI * i) / n - Math.PI / 2;
    return [50 + 36 * Math.cos(a), 50 + 36 * Math.sin(a)];
  };

  const status = h("div", { class: "status", role: "status" },
    h("span", {}, `Table ${v.table_id}`),
    h("span", {}, `Status: ${v.status}`),
    h("span", {}, `Phase: ${words(v.phase)}`),
    v.turn !== null && h("span", {}, `Turn ${v.turn_number}: seat ${v.turn}`),
    h("span", {}, `Direction: ${words(v.direction)}`),
    h("span", {}, `Guns in the centre: ${v.guns_in_centre}`),
    h("span", {}, `Deck: ${v.deck_count}`),
    v.options.zombies && h("span", {}, `Arms in the centre: ${v.arms_in_centre}`),
    v.seeded && h("span", { class: "badge" }, "scenario (seeded)"),
    v.winners && h("strong", {}, `Winners: ${v.winners.map((s) => `seat ${s}`).join(", ") || "nobody"}${v.win_team ? ` (${words(v.win_team)})` : ""}`));

  // the seats around the table, with their guns (and zombies' Arms) drawn as arrows
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = '<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#b3261e"/></marker></defs>';
  const arrow = (from, to, dashed) => {
    const [x1, y1] = centre(from), [x2, y2] = centre(to);
    const k = 0.78, line = document.createElementNS("http://www.w3.org/2000/svg", "line");
    line.setAttribute("x1", x1 + (x2 - x1) * (1 - k)); line.setAttribute("y1", y1 + (y2 - y1) * (1 - k));
    line.setAttribute("x2", x1 + (x2 - x1) * k); line.setAttribute("y2", y1 + (y2 - y1) * k);
    line.setAttribute("stroke", dashed ? "#6a1b9a" : "#b3261e"); line.setAttribute("stroke-width", "0.8");
    if (dashed) line.setAttribute("stroke-dasharray", "2 1");
    line.setAttribute("marker-end", "url(#head)");
    svg.append(line);
  };
  const board = h("div", { class: "board", role: "list", "aria-label": "seats around the table" }, svg);
  for (const s of v.seats) {
    if (s.gun && s.gun.aimed_at !== null && s.gun.aimed_at !== s.seat) arrow(s.seat, s.gun.aimed_at, false);
    if (s.arms && s.arms.aimed_at !== null && s.arms.aimed_at !== s.seat) arrow(s.seat, s.arms.aimed_at, true);
    const [x, y] = centre(s.seat);
    const badges = [
      s.seat === v.turn && "their turn", s.seat === you && "you", s.absent && "away",
      s.eliminated && "eliminated", s.wounded && "wounded", s.zombie && "zombie",
      v.bots && v.bots.seats.includes(s.seat) && "house bot",
      v.winners && v.winners.includes(s.seat) && "winner",
    ].filter(Boolean);
    const cards = s.cards.map((c) => {
      const known = c.card;
      const team = known && /honest/.test(known) ? "honest" : known && /crooked/.test(known) ? "crooked" : "";
      const how = (c.seen && c.seen.length ? c.seen : c.seen_by.map((x) => ({ seat: x, by: null })))
        .map((x) => `seat ${x.seat}${x.by ? ` (${words(x.by)})` : ""}`);
      const seen = how.length ? ` — seen by ${how.join(", ")}` : "";
      const label = `Card ${c.position}: ${c.face_up ? cardName(known) + " (face up)" : known ? cardName(known) + " (face down, you know it)" : "face down"}${c.wounded ? ", wounded" : ""}${seen}`;
      const selected = focus.target === s.seat && focus.position === c.position;
      return h("button", {
        class: `card ${c.face_up ? "up" : ""} ${team} ${selected ? "focus" : ""}`,
        "aria-pressed": selected ? "true" : "false",
        title: label, "aria-label": label,
        "data-seat": s.seat, "data-position": c.position,
        onclick: () => { Object.assign(focus, selected ? { target: null, position: null } : { target: s.seat, position: c.position }); onCommand(null); },
      }, h("span", { class: "name" }, c.face_up || known ? cardName(known) : "?"), c.seen_by.length ? h("span", { class: "seen", "aria-hidden": "true" }, `seen: ${c.seen_by.join(", ")}`) : null);
    });
    const selectedSeat = focus.target === s.seat && focus.position === null;
    board.append(h("div", {
      class: `seat ${s.seat === v.turn ? "turn" : ""} ${s.seat === you ? "you" : ""} ${s.eliminated ? "eliminated" : ""} ${focus.target === s.seat ? "focus" : ""}`,
      style: { left: `${x}%`, top: `${y}%` }, role: "listitem", "data-seat": s.seat,
    },
      h("h3", {}, h("button", {
        "aria-pressed": selectedSeat ? "true" : "false",
        onclick: () => { Object.assign(focus, selectedSeat ? { target: null, position: null } : { target: s.seat, position: null }); onCommand(null); },
      }, `${s.seat}: ${s.name ?? "(free)"}`)),
      h("div", { class: "badges" }, badges.map((b) => h("span", { class: "badge" }, b))),
      h("div", { class: "cards" }, cards),
      h("div", {}, s.gun ? `Gun${s.gun.locked ? " (locked)" : ""}: aims at ${s.gun.aimed_at === null ? "nobody" : `seat ${s.gun.aimed_at}`}` : "No gun"),
      s.arms && h("div", {}, `Arms: aim at ${s.arms.aimed_at === null ? "nobody" : `seat ${s.arms.aimed_at}`}`),
      h("div", {}, `Equipment in hand: ${s.equipment_count}`),
      s.in_play.length > 0 && h("div", {}, `In play: ${s.in_play.map(cardName).join(", ")}`)));
  }

  // who the table waits for, with the deadline counting down
  const waits = h("ul", {});
  for (const w of v.waiting_for) {
    waits.append(h("li", {}, `seat ${w.seat}: ${words(w.reason)}${w.prompt ? ` (${words(w.prompt)})` : ""} `,
      w.deadline ? h("span", { class: "countdown", "data-deadline": w.deadline }, "") : ""));
  }
  clearInterval(countdownTimer);
  const tick = () => document.querySelectorAll(".countdown").forEach((el) => {
    const left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
    el.textContent = `${left} s left`;
  });
  countdownTimer = setInterval(tick, 1000);

  const side = [];
  side.push(h("section", { class: "panel", "aria-labelledby": "wait" }, h("h2", { id: "wait" }, "Waiting for"),
    v.waiting_for.length ? waits : h("p", {}, v.status === "finished" ? "Nobody: the game is over." : "Nobody."),
    v.window && h("p", {}, `Reaction window: ${words(v.window.kind)} (asked: ${v.window.asked.map((s) => `seat ${s}`).join(", ") || "nobody"})`),
    v.prompt && h("p", {}, `Prompt for seat ${v.prompt.seat}: ${words(v.prompt.kind)}`),
    v.declared && h("p", {}, `Declared: seat ${v.declared.seat} ${words(v.declared.action)}${v.declared.target !== null && v.declared.target !== undefined ? ` seat ${v.declared.target}` : ""}`)));

  if (v.you) {
    side.push(h("section", { class: "panel", "aria-labelledby": "me" }, h("h2", { id: "me" }, `You: seat ${v.you.seat}`),
      h("p", {}, `Team: ${v.you.team ? words(v.you.team) : "not known yet"}`),
      h("p", {}, `Hand: ${v.you.hand.length ? v.you.hand.map(cardName).join(", ") : "empty"}`)));
  }

  if (mode === "play") {
    const shown = v.legal_commands.filter((c) =>
      (focus.target === null || c.target === focus.target || (c.targets || []).includes(focus.target)) &&
      (focus.position === null || c.position === focus.position || (c.positions || []).includes(focus.position)));
    const buttons = shown.map((c) => (c.choose ? templateForm(c, onCommand) : h("button", { class: "cmd", onclick: () => onCommand(c) }, describeCommand(c))));
    // the seat's settings: auto-pass as a toggle saying its state (the command turns it over)
    const extra = (v.seat_commands || []).map((c) => c.type === "set_auto_pass"
      ? h("button", { "aria-pressed": String(!c.enabled), title: describeCommand(c), onclick: () => onCommand(c) }, `Pass automatically: ${c.enabled ? "off" : "on"}`)
      : h("button", { onclick: () => onCommand(c) }, describeCommand(c)));
    if (v.status === "waiting") extra.push(h("button", { class: "primary", onclick: () => onCommand({ _start: true }) }, "Start the game"));
    if (v.status !== "finished") extra.push(h("button", { onclick: () => onCommand({ _leave: true }) }, v.status === "waiting" ? "Leave the table" : "Leave (the autopilot plays for me)"));
    if (v.status === "finished") extra.push(h("button", { class: "primary", onclick: () => onCommand({ _rematch: true }) }, "Rematch"),
      h("a", { href: `/replay/${v.table_id}` }, "Replay this game"));
    side.push(h("section", { class: "panel", "aria-labelledby": "acts" }, h("h2", { id: "acts" }, "Your moves"),
      focus.target !== null && h("p", {}, `Showing moves on seat ${focus.target}${focus.position !== null ? `, card ${focus.position}` : ""} `,
        h("button", { onclick: () => { focus.target = focus.position = null; onCommand(null); } }, "show all")),
      h("div", { class: "commands" }, buttons.length ? buttons : h("p", {}, v.legal_commands.length ? "No move on that choice." : "Nothing to do now.")),
      h("div", { class: "commands" }, extra)));
  }

  const log = h("ol", { class: "log", "aria-label": "what happened" }, v.log.map((e) => h("li", { value: e.v }, describeEntry(e))));
  side.push(h("section", { class: "panel", "aria-labelledby": "logh" }, h("h2", { id: "logh" }, "Log"), log));
  const chat = h("ul", { class: "chat" }, v.chat.map((m) => h("li", {}, `seat ${m.seat}: ${m.text}`)));
  const chatSection = h("section", { class: "panel", "aria-labelledby": "chath" }, h("h2", { id: "chath" }, "Chat"), chat);
  if (mode === "play" && token) {
    const input = h("input", { name: "text", maxlength: 500, "aria-label": "message" });
    chatSection.append(h("form", {
      onsubmit: async (ev) => {
        ev.preventDefault();
        try { await api("POST", `/tables/${v.table_id}/chat`, { token, body: { text: input.value } }); input.value = ""; showProblem(null); }
        catch (e) { showProblem(e); }
      },
    }, input, h("button", { type: "submit" }, "Say")));
  }
  side.push(chatSection);

  const scroll = main.querySelector(".log")?.scrollTop;
  main.replaceChildren(status, h("div", { class: "layout" }, board, h("div", {}, side)));
  tick();
  const newLog = main.querySelector(".log");
  if (newLog) newLog.scrollTop = scroll ?? newLog.scrollHeight;
}

// a template (choices past 200): one picker per open parameter
function templateForm(c, onCommand) {
  const fields = Object.entries(c.choose);
  const selects = fields.flatMap(([name, allowed]) => {
    const lists = Array.isArray(allowed[0]) ? allowed : [allowed];
    return lists.map((values, i) => h("label", {}, `${words(name)}${lists.length > 1 ? ` ${i + 1}` : ""} `,
      h("select", { "data-name": name, "data-index": lists.length > 1 ? i : "" }, values.map((x) => h("option", { value: JSON.stringify(x) }, String(x))))));
  });
  const base = Object.fromEntries(Object.entries(c).filter(([k]) => k !== "choose"));
  return h("form", {
    class: "cmd-template",
    onsubmit: (ev) => {
      ev.preventDefault();
      const cmd = { ...base };
      for (const sel of ev.target.querySelectorAll("select")) {
        const value = JSON.parse(sel.value);
        if (sel.dataset.index === "") cmd[sel.dataset.name] = value;
        else (cmd[sel.dataset.name] ||= [])[Number(sel.dataset.index)] = value;
      }
      onCommand(cmd);
    },
  }, h("span", {}, describeCommand(base)), " ", selects, h("button", { class: "cmd", type: "submit" }, "Play"));
}

// --- following a view: Server-Sent Events (a seat's with a ticket), long-poll as a fallback -----
function follow(tableId, token, onView) {
  let source = null, closed = false, failures = 0;
  async function open() {
    if (closed) return;
    let url = `/tables/${tableId}/stream`;
    if (token) {
      try {
        const t = await api("POST", `/tables/${tableId}/tickets`, { token });
        url += `?ticket=${encodeURIComponent(t.ticket)}`;
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
  open();
  return () => { closed = true; if (source) source.close(); };
}

// --- pages --------------------------------------------------------------------------------------
async function play(tableId) {
  const mine = seats.get(tableId);
  nav.replaceChildren(h("a", { href: `/watch/${tableId}` }, "Watch"), h("a", { href: `/replay/${tableId}` }, "Replay"));
  if (!mine) {
    main.replaceChildren(h("p", {}, "You have no seat at this table in this browser. "),
      h("button", { onclick: () => join(tableId) }, "Take a seat"), " ", h("a", { href: `/watch/${tableId}` }, "or watch it"));
    return;
  }
  let current = null;
  const draw = () => current && renderView(current, { mode: "play", token: mine.token, onCommand: act });
  async function act(c) {
    if (c === null) return draw();  // a picker changed: draw again
    showProblem(null);
    try {
      if (c._start) await api("POST", `/tables/${tableId}/start`, { token: mine.token });
      else if (c._leave) await api("DELETE", `/tables/${tableId}/seats/${current.you ? current.you.seat : mine.seat}`, { token: mine.token });
      else if (c._rematch) {
        const got = await api("POST", `/tables/${tableId}/rematch`, { token: mine.token });
        seats.set(got.table_id, got.seat, got.token);
        location.assign(`/play/${got.table_id}`);
        return;
      } else {
        renderView.focus = { target: null, position: null };
        const answer = await api("POST", `/tables/${tableId}/commands`, { token: mine.token, body: { ...c, command_id: commandId() } });
        if (answer && answer.version !== undefined && (!current || answer.version >= current.version)) { current = answer; draw(); }
      }
    } catch (e) { showProblem(e); }
  }
  follow(tableId, mine.token, (v) => {
    if (current && v.version < current.version) return;
    current = v;
    draw();
  });
}

function watch(tableId) {
  nav.replaceChildren(h("a", { href: `/play/${tableId}` }, "Play"), h("a", { href: `/replay/${tableId}` }, "Replay"));
  follow(tableId, null, (v) => renderView(v, { mode: "watch", onCommand: () => {} }));
}

async function replay(tableId) {
  nav.replaceChildren(h("a", { href: `/watch/${tableId}` }, "Watch"));
  const params = new URLSearchParams(location.search);
  let step = Number(params.get("step") || 1), seat = params.get("seat") ?? "", steps = 1;
  const controls = h("div", { class: "panel", role: "group", "aria-label": "replay controls" });
  const stage = h("div", {});
  main.replaceChildren(h("h1", {}, `Replay of ${tableId}`), controls, stage);
  // one request at a time, at most every STEP_MS: a held arrow key shows the step it reached,
  // within the server's per-client rate of replay steps
  const STEP_MS = 50;
  let asking = false, again = false, asked = 0;
  async function show() {
    if (asking) { again = true; return; }
    asking = true;
    try {
      const wait = asked + STEP_MS - Date.now();
      if (wait > 0) await new Promise((done) => setTimeout(done, wait));
      asked = Date.now();
      const wanted = step;
      const q = new URLSearchParams({ step: String(wanted) });
      if (seat !== "") q.set("seat", seat);
      const got = await api("GET", `/tables/${tableId}/replay?${q}`);
      steps = got.steps;
      if (step === wanted) step = got.step;
      history.replaceState(null, "", `/replay/${tableId}?${q}`);
      const who = h("select", { "aria-label": "whose view", onchange: (ev) => { seat = ev.target.value; show(); } },
        h("option", { value: "" }, "Spectator (public)"),
        got.view.seats.map((s) => h("option", { value: String(s.seat), selected: String(s.seat) === seat }, `Seat ${s.seat}: ${s.name ?? ""}`)));
      const go = (to) => () => { step = Math.max(1, Math.min(steps, to)); show(); };
      controls.replaceChildren(
        h("label", {}, "View of ", who), " ",
        h("button", { onclick: go(1) }, "⏮ First"), h("button", { onclick: go(got.step - 1), id: "prev" }, "◀ Back"),
        h("span", { role: "status" }, ` step ${got.step} of ${steps} `),
        h("button", { onclick: go(got.step + 1), id: "next" }, "Forward ▶"), h("button", { onclick: go(steps) }, "Last ⏭"));
      const holder = main;  // renderView draws into main: keep the controls above it
      renderView(got.view, { mode: "replay", onCommand: () => {} });
      holder.prepend(h("h1", {}, `Replay of ${tableId}`), controls);
      showProblem(null);
    } catch (e) { showProblem(e); }
    finally {
      asking = false;
      if (again) { again = false; show(); }
    }
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest && ev.target.closest("select, input")) return;
    if (ev.key === "ArrowRight" && step < steps) { step += 1; show(); }
    if (ev.key === "ArrowLeft" && step > 1) { step -= 1; show(); }
  });
  show();
}

const [, page, tableId] = location.pathname.split("/");
if (page === "play" && tableId) play(tableId);
else if (page === "watch" && tableId) watch(tableId);
else if (page === "replay" && tableId) replay(tableId);
else lobby();
