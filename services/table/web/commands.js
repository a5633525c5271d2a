// A seat's moves in the game's words: its legal_commands grouped by what they do (one button per
// action or card), then one choice at a time (on the table or as named buttons), then a button
// that says the whole move before it is sent.
import { h } from "./dom.js";
import { list, t } from "./i18n.js";
import { cardName, choiceName, seatName } from "./names.js";

const ORDER = ["card", "target", "targets", "aim", "position", "positions", "choice"];

// a command's parameters, a list's items one by one ("targets.0"), in the order a sentence names them
export function params(c) {
  const out = [];
  for (const [k, x] of Object.entries(c)) {
    if (k === "type" || k === "command_id" || k === "choose" || (c.type === "play_equipment" && k === "card")) continue;
    if (Array.isArray(x)) x.forEach((item, i) => out.push([`${k}.${i}`, item]));
    else out.push([k, x]);
  }
  const rank = (p) => ORDER.indexOf(p.split(".")[0]) * 10 + Number(p.split(".")[1] || 0);
  return out.sort((a, b) => rank(a[0]) - rank(b[0]));
}

const you = (v) => (v.you ? v.you.seat : null);

// whose card a position names: a list's seat at the same index, the command's target, or yours
function ownerOf(c, path, v) {
  const [name, index] = path.split(".");
  if (name === "positions" && c.targets && c.targets[Number(index)] !== undefined) return c.targets[Number(index)];
  if (c.type === "investigate" || (c.type === "play_equipment" && c.target !== undefined)) return c.target;
  if (c.type === "choose" && v.prompt && v.prompt.about !== null && v.prompt.about !== undefined && v.prompt.kind !== "discard") return v.prompt.about;
  return you(v);
}

export function cardLabel(v, seat, position) {
  const s = v.seats[seat];
  const card = s && s.cards.find((x) => x.position === position);
  const known = card && card.card ? ` (${cardName(card.card)})` : "";
  return seat === you(v) ? t("card.yours", { n: position }) + known
    : t("card.of", { name: seatName(v, seat), n: position }) + known;
}

// how one value of a parameter reads as a choice
export function valueLabel(c, path, x, v) {
  if (x === undefined) return t("pick.none");
  const name = path.split(".")[0];
  if (name === "target" || name === "targets" || name === "aim") return x === you(v) ? t("seat.yourself") : seatName(v, x);
  if (name === "position" || name === "positions") return cardLabel(v, ownerOf(c, path, v), x);
  if (name === "card") return cardName(x);
  if (name === "choice") return choiceName(x);
  return String(x);
}

// what a step asks ("Aim the gun at whom?")
export function stepQuestion(c, path) {
  const [name, index] = path.split(".");
  const n = Number(index || 0) + 1;
  const specific = { arm: { target: "pick.arm_target", position: "pick.reveal" }, equip: { position: "pick.reveal" },
    investigate: { target: "pick.investigate_target", position: "pick.investigate_card" },
    arrange: { positions: "pick.arrange" }, discard: { card: "pick.discard" } }[c.type];
  return t((specific && specific[name]) || `pick.${name}`, { n });
}

// the whole move in words, with names ("Take a gun, aim at Bea, turn your card 2 face up")
export function describe(c, v) {
  const seat = (n) => (n === you(v) ? t("seat.yourself") : seatName(v, n));
  const reveal = c.position !== undefined && c.position !== null ? t("cmd.and_reveal", { n: c.position }) : "";
  const me = v.you && v.seats[v.you.seat];
  switch (c.type) {
    case "investigate": return t("cmd.investigate", { name: seat(c.target), n: c.position });
    case "equip": return t("cmd.equip") + reveal;
    case "arm": return t(me && me.zombie ? "cmd.arm_zombie" : "cmd.arm", { name: seat(c.target) }) + reveal;
    case "shoot": return t("cmd.shoot", { name: me && me.gun ? seat(me.gun.aimed_at) : "?" });
    case "bite": return t("cmd.bite", { name: me && me.arms ? seat(me.arms.aimed_at) : "?" });
    case "aim": return c.target === you(v) ? t("cmd.aim_self") : t("cmd.aim", { name: seat(c.target) });
    case "pass": return t("cmd.pass");
    case "resume": return t("cmd.resume");
    case "arrange": {
      const cards = c.positions.map((p) => { const k = me && me.cards.find((x) => x.position === p); return k && k.card ? cardName(k.card) : t("card.yours", { n: p }); });
      return t("cmd.arrange", { cards: cards.join(" · ") });
    }
    case "discard": return t("cmd.discard", { card: cardName(c.card) });
    case "choose": {
      const picked = params(c).map(([p, x]) => valueLabel(c, p, x, v));
      return t("cmd.choose", { what: list(picked) });
    }
    case "set_auto_pass": return t(c.enabled ? "cmd.auto_pass_on" : "cmd.auto_pass_off");
    case "play_equipment": {
      const parts = [t("cmd.play", { card: cardName(c.card) })];
      if (c.target !== undefined && c.target !== null) parts.push(t("cmd.on", { name: seat(c.target) }));
      if (c.targets && c.targets.length) parts.push(t("cmd.on", { name: list(c.targets.map(seat)) }));
      const positions = params(c).filter(([p]) => p.startsWith("position"));
      if (positions.length) parts.push(t("cmd.cards", { cards: list(positions.map(([p, x]) => valueLabel(c, p, x, v))) }));
      if (c.choice !== undefined && c.choice !== null) parts.push(t("cmd.choosing", { what: choiceName(c.choice) }));
      if (c.aim !== undefined && c.aim !== null) parts.push(t("cmd.aiming", { name: seat(c.aim) }));
      return parts.join(t("list.comma"));
    }
    default: return t("cmd.other", { what: c.type });
  }
}

export const groupOf = (c) => (c.type === "play_equipment" ? `play_equipment:${c.card}` : c.type);

// a group's button: what it does before its choices are made
export function groupLabel(c, v, many) {
  if (!many) return describe(c, v);
  if (c.type === "play_equipment") return t("cmd.play", { card: cardName(c.card) }) + "…";
  return t(`act.${c.type}`) + "…";
}

// the state of a move being put together: its group and the values chosen so far
export class Picker {
  constructor() { this.group = null; this.chosen = {}; }
  reset() { this.group = null; this.chosen = {}; }
  candidates(v) {
    return v.legal_commands.filter((c) => !c.choose && groupOf(c) === this.group &&
      Object.entries(this.chosen).every(([p, x]) => (params(c).find(([q]) => q === p) || [])[1] === x));
  }
  // the next open question: its path and the values still possible, or null when one move is left
  step(v) {
    const cands = this.candidates(v);
    if (cands.length <= 1) return null;
    const paths = [...new Set(cands.flatMap((c) => params(c).map(([p]) => p)))]
      .filter((p) => !(p in this.chosen));
    for (const p of paths) {
      const values = [...new Set(cands.map((c) => JSON.stringify((params(c).find(([q]) => q === p) || [])[1])))]
        .map((s) => (s === undefined ? undefined : JSON.parse(s)));
      if (values.length > 1) return { path: p, values, sample: cands[0] };
    }
    return null;
  }
}

// a template (choices past 200): one picker per open parameter
export function templateForm(c, v, onCommand) {
  const selects = Object.entries(c.choose).flatMap(([name, allowed]) => {
    const lists = Array.isArray(allowed[0]) ? allowed : [allowed];
    return lists.map((values, i) => h("label", {}, stepQuestion(c, `${name}.${i}`), " ",
      h("select", { "data-name": name, "data-index": lists.length > 1 ? i : "" },
        values.map((x) => h("option", { value: JSON.stringify(x) }, Array.isArray(x) ? x.join(", ") : valueLabel(c, `${name}.${i}`, x, v))))));
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
  }, h("span", {}, groupLabel(base, v, true)), " ", selects, h("button", { class: "cmd", type: "submit" }, t("cmd.send")));
}

// the panel of moves: the groups, or the open move's next question, or its confirmation
export function movesPanel(v, picker, onCommand, redraw) {
  const out = [];
  const legal = v.legal_commands;
  if (picker.group && !legal.some((c) => groupOf(c) === picker.group)) picker.reset();
  if (!picker.group) {
    const groups = new Map();
    for (const c of legal) {
      if (c.choose) { out.push(templateForm(c, v, onCommand)); continue; }
      const g = groupOf(c);
      groups.set(g, [...(groups.get(g) || []), c]);
    }
    for (const [g, cs] of groups) {
      const many = cs.length > 1;
      out.push(h("button", {
        class: `cmd ${g === "pass" ? "" : "act"}`, "data-key": `group:${g}`,
        onclick: () => { if (many) { picker.group = g; picker.chosen = {}; redraw(); } else onCommand(cs[0]); },
      }, groupLabel(cs[0], v, many)));
    }
    return out;
  }
  const step = picker.step(v);
  const cancel = h("button", { class: "cancel", "data-key": "cancel", onclick: () => { picker.reset(); redraw(); } }, t("cmd.cancel"));
  if (step) {
    const choose = (x) => { picker.chosen[step.path] = x; redraw(); };
    out.push(h("p", { class: "question", id: "question" }, stepQuestion(step.sample, step.path), " ",
      h("span", { class: "hint" }, step.path.startsWith("target") || step.path.startsWith("aim") ? t("pick.on_table_seat")
        : step.path.startsWith("position") ? t("pick.on_table_card") : "")));
    out.push(h("div", { class: "choices", role: "group", "aria-labelledby": "question" },
      step.values.map((x) => h("button", { class: "cmd choice", "data-key": `choice:${step.path}:${JSON.stringify(x)}`, onclick: () => choose(x) },
        valueLabel(step.sample, step.path, x, v)))));
    out.push(cancel);
    return out;
  }
  const [c] = picker.candidates(v);
  out.push(h("button", { class: "cmd primary confirm", "data-key": "confirm", onclick: () => { picker.reset(); onCommand(c); } }, describe(c, v)), cancel);
  return out;
}

// what the table may pick from the open question: seats or one seat's cards, each with its value
export function tableChoices(v, picker) {
  if (!picker.group) return null;
  const step = picker.step(v);
  if (!step) return null;
  const name = step.path.split(".")[0];
  if (name === "target" || name === "targets" || name === "aim") return { kind: "seat", values: step.values, path: step.path };
  if (name === "position" || name === "positions") {
    const owners = new Set(picker.candidates(v).map((c) => ownerOf({ ...c, ...unflat(picker.chosen) }, step.path, v)));
    if (owners.size === 1) return { kind: "card", seat: [...owners][0], values: step.values, path: step.path };
  }
  return null;
}

function unflat(chosen) {
  const out = {};
  for (const [p, x] of Object.entries(chosen)) {
    const [name, i] = p.split(".");
    if (i === undefined) out[name] = x; else (out[name] ||= [])[Number(i)] = x;
  }
  return out;
}
