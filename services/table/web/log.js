// What happened, in sentences with names: the log (following new entries unless the reader
// scrolled back), the chat beside it, and at the end every card, the teams, the winners and why.
import { api, showProblem } from "./api.js";
import { h } from "./dom.js";
import { list, t } from "./i18n.js";
import { cardName, choiceName, seatName, teamName } from "./names.js";

const given = (x) => x !== undefined && x !== null;

export function describeEntry(e, v) {
  const who = (n) => (given(n) ? seatName(v, n) : t("seat.someone"));
  const f = { ...e };
  const p = {
    name: who(f.seat), target: who(f.target), viewer: who(f.viewer), shooter: who(f.shooter), biter: who(f.biter),
    by: who(f.by), first: who(f.first_seat), from: who(f.from_seat), to: who(f.to_seat), aim: who(f.aim), n: f.position, turn: f.turn,
    card: given(f.card) ? cardName(f.card) : t("card.unknown"), action: given(f.action) ? t(`act.${f.action}`) : "",
    window: given(f.kind) ? t(`window.${f.kind}`) : "", prompt: f.kind === "discard" ? t("wait.discard") : given(f.kind) ? cardName(f.kind) : "",
    means: given(f.means) ? t(`means.${f.means}`) : "", text: f.text ?? "", seats: f.seats,
    team: given(f.team) ? teamName(f.team) : "", reason: given(f.reason) ? t(`reason.${f.reason}`) : "",
  };
  switch (e.type) {
    case "table_opened": return t("log.table_opened", { seats: f.seats });
    case "action_declared": return t(given(f.target) ? "log.action_declared_on" : "log.action_declared", p);
    case "gun_taken": return t(given(f.from_seat) ? "log.gun_taken_from" : "log.gun_taken", p);
    case "card_viewed": return t(given(f.card) ? "log.card_viewed_known" : "log.card_viewed", p);
    case "equipment_drawn": return t(given(f.card) ? "log.equipment_drawn_known" : "log.equipment_drawn", p);
    case "equipment_discarded": return t(given(f.card) ? "log.equipment_discarded_known" : "log.equipment_discarded", p);
    case "equipment_moved": return t(given(f.card) ? "log.equipment_moved_known" : "log.equipment_moved", p);
    case "seat_eliminated": return t(given(f.by) ? "log.seat_eliminated_by" : "log.seat_eliminated", p);
    case "became_zombie": return t(given(f.by) ? "log.became_zombie_by" : "log.became_zombie", p);
    case "reaction_passed": return t(f.auto ? "log.reaction_passed_auto" : "log.reaction_passed", p);
    case "auto_pass_set": return t(f.enabled ? "log.auto_pass_on" : "log.auto_pass_off", p);
    case "cards_arranged": return t(f.missed ? "log.cards_arranged_missed" : "log.cards_arranged", p);
    case "window_opened": case "window_reopened": return t(`log.${e.type}`, { window: p.window, names: list((f.asked || []).map(who)) });
    case "cards_exchanged": {
      const [a, b] = f.seats || [], [pa, pb] = f.positions || [];
      const got = f.received ? t("log.you_received", { card: cardName(f.received) }) : "";
      return t("log.cards_exchanged", { a: who(a), b: who(b), na: pa, nb: pb }) + got;
    }
    case "cards_discarded": return t("log.cards_discarded", { ...p, cards: list((f.cards || []).map(cardName)) });
    case "equipment_played": {
      const on = [...(given(f.target) ? [f.target] : []), ...(f.targets || [])];
      const parts = [t(on.length ? "log.equipment_played_on" : "log.equipment_played", { ...p, targets: list(on.map(who)) })];
      if (given(f.choice)) parts.push(t("cmd.choosing", { what: choiceName(f.choice) }));
      if (given(f.aim)) parts.push(t("cmd.aiming", { name: who(f.aim) }));
      return parts.join(t("list.comma"));
    }
    case "prompt_answered": {
      const what = [given(f.target) && who(f.target), given(f.position) && t("card.position", { n: f.position }), given(f.card) && cardName(f.card)].filter(Boolean);
      return t("log.prompt_answered", { ...p, what: what.length ? list(what) : t("pick.none") });
    }
    case "game_won": return t("log.game_won", { ...p, names: list((f.winners || []).map(who)) });
    case "table_closed": return t("log.table_closed");
    default: return t(`log.${e.type}`, p);
  }
}

// the log, keeping the reader's place: at the bottom it follows new entries, scrolled back it stays
export function logPanel(v, old) {
  const stuck = !old || old.scrollTop + old.clientHeight >= old.scrollHeight - 8;
  const log = h("ol", { class: "log", tabindex: "0", "aria-label": t("log.title") },
    v.log.map((e) => h("li", { value: e.v, class: `entry ${e.type}` }, describeEntry(e, v))));
  const place = () => { log.scrollTop = stuck ? log.scrollHeight : old.scrollTop; };
  return [h("section", { class: "panel", "aria-labelledby": "logh" }, h("h2", { id: "logh" }, t("log.title")), log), place];
}

let sending = false;  // a chat message on its way

export function chatPanel(v, token, old) {
  const stuck = !old || old.scrollTop + old.clientHeight >= old.scrollHeight - 8;
  const chat = h("ul", { class: "chat", tabindex: "0", "aria-label": t("chat.title") },
    v.chat.length ? v.chat.map((m) => h("li", {}, h("strong", {}, seatName(v, m.seat)), ": ", m.text)) : h("li", { class: "hint" }, t("chat.empty")));
  const section = h("section", { class: "panel", "aria-labelledby": "chath" }, h("h2", { id: "chath" }, t("chat.title")), chat);
  if (token && v.status !== "finished") {
    const input = h("input", { name: "text", maxlength: 500, "aria-label": t("chat.message"), "data-key": "chat-input" });
    section.append(h("form", {
      class: "say",
      onsubmit: async (ev) => {
        ev.preventDefault();
        const text = input.value;
        if (!text.trim() || sending) return;  // one message at a time: Enter twice says it once
        // the box as drawn now (a view may redraw the panel while the message is on its way)
        const box = () => document.querySelector("[data-key=chat-input]") || input;
        sending = true;
        box().value = "";
        try { await api("POST", `/tables/${v.table_id}/chat`, { token, body: { text } }); showProblem(null); }
        catch (e) { showProblem(e); if (!box().value) box().value = text; }
        finally { sending = false; }
      },
    }, input, h("button", { type: "submit" }, t("chat.say"))));
  }
  const place = () => { chat.scrollTop = stuck ? chat.scrollHeight : old.scrollTop; };
  return [section, place];
}

// why the game ended, with names ("Honest win: the Kingpin (Carl) was eliminated by Bea")
export function whyWords(v) {
  const holder = (card) => v.seats.find((s) => s.cards.some((c) => c.card === card));
  const byOf = (seat) => (given(v.seats[seat].eliminated_by) ? seatName(v, v.seats[seat].eliminated_by) : null);
  const reason = v.win_reason;
  let why = "";
  if (reason === "kingpin_eliminated" || reason === "agent_eliminated") {
    const leader = holder(reason === "agent_eliminated" ? "agent" : "kingpin");
    const by = leader ? byOf(leader.seat) : null;
    why = t(by ? `end.${reason}_by` : `end.${reason}`, { name: leader ? seatName(v, leader.seat) : "?", by });
  } else if (reason === "both_leaders") {
    const s = v.seats.find((x) => x.cards.some((c) => c.card === "agent") && x.cards.some((c) => c.card === "kingpin"));
    why = t("end.both_leaders", { name: s ? seatName(v, s.seat) : "?" });
  } else if (reason === "bomber_shot") {
    const shot = v.seats.find((s) => s.team === "bomber" && s.eliminated && given(s.eliminated_by) && s.eliminated_by !== s.seat);
    why = t("end.bomber_shot", { name: shot ? seatName(v, shot.seat) : "?", by: shot ? byOf(shot.seat) : "?" });
  }
  const team = v.win_team ? t(`end.team_won.${v.win_team}`) : t("end.nobody_won");
  return why ? t("end.why", { team, why }) : team;
}

export function endPanel(v) {
  if (v.status !== "finished") return null;
  return h("section", { class: "panel end", "aria-labelledby": "endh" },
    h("h2", { id: "endh" }, t("end.title")),
    h("p", { class: "why" }, whyWords(v)),
    h("p", {}, t("end.winners", { names: list((v.winners || []).map((n) => seatName(v, n))) || t("seat.nobody") })),
    h("table", { class: "teams" },
      h("caption", {}, t("end.teams")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("end.player")), h("th", { scope: "col" }, t("end.team")), h("th", { scope: "col" }, t("end.cards")))),
      h("tbody", {}, v.seats.map((s) => h("tr", { class: (v.winners || []).includes(s.seat) ? "won" : "" },
        h("th", { scope: "row" }, seatName(v, s.seat), (v.winners || []).includes(s.seat) ? " ★" : ""),
        h("td", {}, s.team ? teamName(s.team) : "?"),
        h("td", {}, s.cards.map((c) => (c.card ? cardName(c.card) : "?")).join(" · ")))))));
}
