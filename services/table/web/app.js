// The reference web client: the lobby, a seat at play, a spectator's table and a replay, using
// nothing but the public HTTP API (the same as any third-party client), in the player's language.
import { Problem, api, backoff, commandId, follow, mayHaveSeat, seats, showProblem, sleep } from "./api.js";
import { board, statusBar, startCountdowns, yourPanel } from "./board.js";
import { Picker, describe, movesPanel, tableChoices } from "./commands.js";
import { h } from "./dom.js";
import { loadCatalogue, switcher, t } from "./i18n.js";
import { acceptForm, inviteCode, invitationsPanel } from "./invitations.js";
import { join, lobby } from "./lobby.js";
import { chatPanel, endPanel, logPanel } from "./log.js";
import { seatName } from "./names.js";
import { lobbyPanel, playerBadge, playerPages, playerSeat } from "./player.js";

const main = document.getElementById("main");
const nav = document.getElementById("nav");

// the view drawn into `into`, keeping what the reader had: focus, the chat's draft, the log's place
function renderView(into, v, { mode, token, onCommand, picker = new Picker() }) {
  const active = document.activeElement;
  const focusKey = active && active.dataset ? active.dataset.key : null;
  const inMoves = active && active.closest && active.closest(".moves");
  const draft = into.querySelector("[data-key=chat-input]")?.value;
  const opened = new Set([...into.querySelectorAll("details[open]")].map((d) => d.dataset.openKey));
  const redraw = () => renderView(into, v, { mode, token, onCommand, picker });
  const picks = mode === "play" ? tableChoices(v, picker) : null;
  const choose = (x) => { picker.chosen[picks.path] = x; redraw(); };

  const side = [];
  if (mode === "play") side.push(invitationsPanel(v), movesSection(v, picker, onCommand, redraw));
  side.push(yourPanel(v));
  const [logSection, placeLog] = logPanel(v, into.querySelector(".log"));
  const [chatSection, placeChat] = chatPanel(v, mode === "play" ? token : null, into.querySelector(".chat"));
  into.replaceChildren(
    statusBar(v),
    endPanel(v) || "",
    h("div", { class: "layout" }, board(v, picks, choose), h("div", { class: "side" }, side)),
    h("div", { class: "talk" }, logSection, chatSection));
  placeLog(); placeChat();
  if (draft) into.querySelector("[data-key=chat-input]").value = draft;
  into.querySelectorAll("details[data-open-key]").forEach((d) => { if (opened.has(d.dataset.openKey)) d.open = true; });
  const again = focusKey && into.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
  if (again) again.focus();
  else if (inMoves) into.querySelector(".moves button")?.focus();
  startCountdowns();
}

function movesSection(v, picker, onCommand, redraw) {
  const moves = movesPanel(v, picker, onCommand, redraw);
  const extra = [];
  for (const c of v.seat_commands || []) {
    if (c.type === "set_auto_pass") {
      const on = !c.enabled;  // the command turns the setting over: it is on now when it turns it off
      extra.push(h("button", { class: "toggle", "aria-pressed": String(on), "data-key": "auto-pass", title: describe(c, v), onclick: () => onCommand(c) },
        t(on ? "cmd.auto_pass_is_on" : "cmd.auto_pass_is_off")));
    } else extra.push(h("button", { "data-key": `seat:${c.type}`, onclick: () => onCommand(c) }, describe(c, v)));
  }
  if (v.status === "waiting") extra.push(h("button", { class: "primary", "data-key": "start", onclick: () => onCommand({ _start: true }) }, t("cmd.start")));
  if (v.status !== "finished") extra.push(h("button", { "data-key": "leave", onclick: () => onCommand({ _leave: true }) }, t(v.status === "waiting" ? "cmd.leave" : "cmd.leave_autopilot")));
  if (v.status === "finished") extra.push(h("button", { class: "primary", "data-key": "rematch", onclick: () => onCommand({ _rematch: true }) }, t("cmd.rematch")),
    h("a", { href: `/replay/${v.table_id}` }, t("cmd.replay")));
  const idle = v.status === "playing" ? t(v.must_act ? "moves.choose" : "moves.nothing") : v.status === "waiting" ? t("moves.not_started") : "";
  return h("section", { class: `panel moves ${v.must_act ? "must-act" : ""}`, "aria-labelledby": "acts" },
    h("h2", { id: "acts" }, t("moves.title")),
    (moves.length || idle) && h("div", { class: "commands" }, moves.length ? moves : h("p", {}, idle)),
    h("div", { class: "commands settings" }, extra));
}

// --- pages --------------------------------------------------------------------------------------
async function play(tableId) {
  const mine = seats.get(tableId) || await playerSeat(tableId);  // a player's seat from any device
  const code = inviteCode();
  nav.replaceChildren(h("a", { href: `/watch/${tableId}` }, t("nav.watch")), h("a", { href: `/replay/${tableId}` }, t("nav.replay")));
  if (!mine && code) { acceptForm(main, tableId, code); return; }
  if (code) history.replaceState(null, "", `/play/${tableId}`);  // seated here already: the link is spent on nothing
  if (!mine) { noSeat(tableId); return; }
  let current = null, busy = false;
  const picker = new Picker();
  const draw = () => current && renderView(main, current, { mode: "play", token: mine.token, onCommand: act, picker });
  // the seat is not this browser's any more (left, its token replaced, the table gone): forgotten
  const lost = (e) => { seats.forget(tableId); noSeat(tableId); showProblem(e); };
  async function act(c) {
    if (busy) return;  // one request at a time: a second click is not a second command
    busy = true;
    showProblem(null);
    try {
      if (c._start) await api("POST", `/tables/${tableId}/start`, { token: mine.token });
      else if (c._leave) {
        await api("DELETE", `/tables/${tableId}/seats/${current.you ? current.you.seat : mine.seat}`, { token: mine.token });
        if (current.status === "waiting") { unfollow(); lost(null); }  // the seat is given up (in play it is kept)
      } else if (c._rematch) {
        const got = await api("POST", `/tables/${tableId}/rematch`, { token: mine.token }).catch(mayHaveSeat);
        seats.set(got.table_id, got.seat ?? -1, got.token);
        location.assign(`/play/${got.table_id}`);
        return;
      } else {
        picker.reset();
        const answer = await sendCommand(tableId, mine.token, c);
        if (answer && answer.version !== undefined && (!current || answer.version >= current.version)) { current = answer; draw(); }
      }
    } catch (e) { showProblem(e); draw(); }
    finally { busy = false; }
  }
  const unfollow = follow(tableId, mine.token, (v) => {
    if (current && v.version < current.version) return;
    current = v;
    draw();
  }, (e) => (e.status === 404 ? showProblem(e) : lost(e)));
}

// a command sent until it is answered: an unknown outcome (503) is asked again with the same
// command_id, which the server answers as it did the first time (never applied twice)
async function sendCommand(tableId, token, c) {
  const body = { ...c, command_id: commandId() };
  for (let failures = 1; ; failures += 1) {
    try {
      return await api("POST", `/tables/${tableId}/commands`, { token, body });
    } catch (e) {
      if (!(e instanceof Problem) || e.status !== 503 || failures >= 4) throw e;
      await sleep(backoff(failures, e.retryAfter));
    }
  }
}

function noSeat(tableId) {
  main.replaceChildren(h("p", {}, t("play.no_seat")),
    h("button", { onclick: () => join(tableId) }, t("lobby.take_seat")), " ", h("a", { href: `/watch/${tableId}` }, t("play.or_watch")));
}

function watch(tableId) {
  nav.replaceChildren(h("a", { href: `/play/${tableId}` }, t("nav.play")), h("a", { href: `/replay/${tableId}` }, t("nav.replay")));
  let current = null;
  follow(tableId, null, (v) => {
    if (current && v.version < current.version) return;
    current = v;
    renderView(main, v, { mode: "watch" });
  });
}

function replay(tableId) {
  nav.replaceChildren(h("a", { href: `/watch/${tableId}` }, t("nav.watch")));
  const params = new URLSearchParams(location.search);
  let step = Number(params.get("step")) || 1, seat = params.get("seat") ?? "", steps = 1;
  const controls = h("div", { class: "panel replay-controls", role: "group", "aria-label": t("replay.controls") });
  const stage = h("div", {});
  main.replaceChildren(h("h1", {}, t("replay.title", { id: tableId })), controls, stage);
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
      const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
      const who = h("select", { id: "whose", "data-key": "whose", onchange: (ev) => { seat = ev.target.value; show(); } },
        h("option", { value: "" }, t("replay.public")),
        got.view.seats.map((s) => h("option", { value: String(s.seat), selected: String(s.seat) === seat }, seatName(got.view, s.seat))));
      const go = (to) => () => { step = Math.max(1, Math.min(steps, to)); show(); };
      controls.replaceChildren(
        h("label", { for: "whose" }, t("replay.whose")), who, " ",
        h("button", { onclick: go(1), "data-key": "first" }, t("replay.first")),
        h("button", { onclick: go(got.step - 1), id: "prev", "data-key": "prev" }, t("replay.back")),
        h("span", { role: "status", class: "step", "data-step": got.step }, t("replay.step", { n: got.step, of: steps })),
        h("button", { onclick: go(got.step + 1), id: "next", "data-key": "next" }, t("replay.forward")),
        h("button", { onclick: go(steps), "data-key": "last" }, t("replay.last")));
      renderView(stage, got.view, { mode: "replay" });
      if (focused) controls.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
      showProblem(null);
    } catch (e) { showProblem(e); }
    finally {
      asking = false;
      if (again) { again = false; show(); }
    }
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest && ev.target.closest("select, input, textarea, .log, .chat")) return;
    if (ev.key === "ArrowRight" && step < steps) { step += 1; show(); }
    if (ev.key === "ArrowLeft" && step > 1) { step -= 1; show(); }
  });
  show();
}

async function start() {
  await loadCatalogue();
  main.removeAttribute("aria-live");  // the page redraws often: the status bar speaks instead
  document.querySelector("header").append(playerBadge(), switcher());
  document.querySelector("header .home").textContent = t("page.title");
  nav.setAttribute("aria-label", t("nav.label"));
  const [, page, tableId] = location.pathname.split("/");
  if (page === "play" && tableId) play(tableId);
  else if (page === "watch" && tableId) watch(tableId);
  else if (page === "replay" && tableId) replay(tableId);
  else if (!playerPages(main, nav)) { lobby(main, nav); lobbyPanel(main); }
}

start();
