// The table drawn: whose turn, what you may do and the countdown in a bar always in sight; the
// seats around the table with their cards drawn as cards, guns and Arms as arrows from holder to
// target, wounds and cards in play; your own hand with each card's text on hover or tap.
import { api } from "./api.js";
import { armsArt, cardArt, eyeArt, gunArt, woundArt } from "./cards.js";
import { h, svg, svgElement } from "./dom.js";
import { lang, list, t } from "./i18n.js";
import { cardName, equipmentText, seatHint, seatName, teamName } from "./names.js";

const isBot = (v, n) => (v.seats[n] && v.seats[n].bot) || (v.bots && v.bots.seats.includes(n));

// the reason a seat is waited for, in words ("Bea: play equipment or pass")
function waitWords(v, w) {
  if (w.reason === "prompt" && w.prompt === "discard") return t("wait.discard");
  if (w.reason === "prompt" && w.prompt) return t("wait.prompt", { card: cardName(w.prompt) });
  return t(`wait.${w.reason}`);
}

export function statusBar(v) {
  const me = v.you ? v.you.seat : null;
  const mine = v.waiting_for.find((w) => w.seat === me);
  const bits = [];
  if (v.status === "waiting") bits.push(h("span", {}, t("bar.waiting_players", { taken: v.seats.filter((s) => s.name).length, seats: v.seats.length })));
  if (v.status === "finished") bits.push(h("strong", {}, t("bar.finished")));
  if (v.status === "playing" && v.turn !== null) {
    bits.push(h("strong", {}, v.turn_number === 0 ? (v.turn === me ? t("bar.before_first_you") : t("bar.before_first", { name: seatName(v, v.turn) }))
      : v.turn === me ? t("bar.your_turn", { n: v.turn_number }) : t("bar.turn_of", { name: seatName(v, v.turn), n: v.turn_number })));
  }
  if (v.status === "playing" && v.declared) {  // what a reaction window answers
    const d = v.declared, given = d.target !== null && d.target !== undefined;
    bits.push(h("span", { class: "declared" }, t(given ? "log.action_declared_on" : "log.action_declared",
      { name: seatName(v, d.seat), action: t(`act.${d.action}`), target: given ? seatName(v, d.target) : "" })));
  }
  if (mine) {
    bits.push(h("span", { class: "you-act" }, t("bar.you_may", { what: waitWords(v, mine) }), " ",
      mine.deadline && h("span", { class: "countdown", "data-deadline": mine.deadline })));
  } else if (v.status === "playing" && v.waiting_for.length) {
    const names = v.waiting_for.map((w) => seatName(v, w.seat));
    const first = v.waiting_for[0];
    const thinking = v.waiting_for.every((w) => isBot(v, w.seat));
    bits.push(h("span", {}, t(thinking ? "bar.thinking" : "bar.waiting_for", { names: list(names), what: waitWords(v, first) }), " ",
      first.deadline && h("span", { class: "countdown", "data-deadline": first.deadline })));
  }
  if (v.status === "playing") {
    bits.push(h("span", { class: "hint" }, t(`direction.${v.direction}`)));
    bits.push(h("span", { class: "hint" }, t("bar.centre", { guns: v.guns_in_centre, deck: v.deck_count })));
    if (v.options.zombies) bits.push(h("span", { class: "hint" }, t("bar.arms_centre", { n: v.arms_in_centre })));
  }
  if (v.seeded) bits.push(h("span", { class: "badge" }, t("bar.seeded")));
  return h("div", { class: "status", role: "status", "data-status": v.status, "data-phase": v.phase }, bits);
}

function seenWords(v, c) {
  const how = c.seen && c.seen.length ? c.seen : c.seen_by.map((x) => ({ seat: x, by: null }));
  return how.map((x) => (x.by ? t("card.seen_how", { name: seatName(v, x.seat), how: t(`means.${x.by}`) }) : seatName(v, x.seat)));
}

function cardView(v, s, c, choosing, choose) {
  const me = v.you ? v.you.seat : null;
  const known = c.card;
  const state = c.face_up ? t("card.face_up") : known ? t("card.face_down_known") : t("card.face_down");
  const seen = seenWords(v, c);
  const label = [
    s.seat === me ? t("card.yours", { n: c.position }) : t("card.of", { name: seatName(v, s.seat), n: c.position }),
    known ? cardName(known) : null, state, c.wounded ? t("seat.wounded") : null,
    seen.length ? t("card.seen_by", { names: list(seen) }) : null,
  ].filter(Boolean).join(", ");
  const side = known ? known.split("_")[0] : "";
  const body = [cardArt(known, { faceUp: c.face_up, position: c.position }),
    h("span", { class: "name" }, known ? cardName(known) : "?"),
    c.wounded && woundArt(),
    seen.length > 0 && h("span", { class: "seen", "aria-hidden": "true" }, eyeArt(), " ", c.seen_by.map((x) => x + 1).join(" "))];
  const cls = `card ${c.face_up ? "up" : "down"} ${known ? "known" : ""} ${side}`;
  if (choosing) {
    return h("button", {
      class: `${cls} choosable`, "aria-label": t("pick.choose_this", { what: label }), title: label,
      "data-seat": s.seat, "data-position": c.position, "data-key": `card:${s.seat}:${c.position}`, onclick: () => choose(c.position),
    }, body);
  }
  return h("div", { class: cls, role: "img", "aria-label": label, title: label, "data-seat": s.seat, "data-position": c.position }, body);
}

// an equipment card: its name, its text on hover or tap (kept open across redraws by its key)
export function equipmentCard(v, card, where) {
  const text = equipmentText(card, v.options.edition);
  return h("details", { class: "equipment", "data-open-key": `${where}:${card}` },
    h("summary", { title: text, "data-key": `equipment:${where}:${card}` }, cardName(card)), h("p", {}, text));
}

const arrowHead = (id, colour) =>
  `<marker id="${id}-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse">` +
  `<path d="M0,0 L10,5 L0,10 z" fill="${colour}"/></marker>`;
const HEADS = arrowHead("gun", "#b3261e") + arrowHead("arms", "#6a1b9a");

// guns (red) and Arms (purple, dashed) as arrows from holder to target, between seats' centres
function arrows(v, centre) {
  const drawing = svg("0 0 100 100", `<defs>${HEADS}</defs>`, "arrows");
  const arrow = (from, to, arms) => {
    const [x1, y1] = centre(from), [x2, y2] = centre(to), k = 0.8;
    drawing.append(svgElement("line", {
      x1: x1 + (x2 - x1) * (1 - k), y1: y1 + (y2 - y1) * (1 - k), x2: x1 + (x2 - x1) * k, y2: y1 + (y2 - y1) * k,
      stroke: arms ? "#6a1b9a" : "#b3261e", "stroke-width": "0.9", "stroke-dasharray": arms ? "2 1" : "none",
      "marker-end": `url(#${arms ? "arms" : "gun"}-head)`, class: arms ? "arms" : "gun",
    }));
  };
  for (const s of v.seats) {
    if (s.gun && s.gun.aimed_at !== null && s.gun.aimed_at !== s.seat) arrow(s.seat, s.gun.aimed_at, false);
    if (s.arms && s.arms.aimed_at !== null && s.arms.aimed_at !== s.seat) arrow(s.seat, s.arms.aimed_at, true);
  }
  return drawing;
}

// the table's centre: its free guns (and Arms) and the equipment deck
function middle(v) {
  if (v.status !== "playing") return null;
  return h("div", { class: "middle", role: "img", "aria-label": t("bar.centre", { guns: v.guns_in_centre, deck: v.deck_count }) },
    h("div", { class: "guns" }, Array.from({ length: v.guns_in_centre }, () => gunArt())),
    v.options.zombies && h("div", { class: "guns" }, Array.from({ length: v.arms_in_centre }, () => armsArt())),
    h("div", { class: "deck" }, h("span", { class: "deck-card" }, String(v.deck_count))));
}

// where a seat's gun or Arms point, in words
function aimLine(v, s, what, thing) {
  if (!thing) return null;
  const at = thing.aimed_at;
  const words = at === null || at === undefined ? t(`${what}.aims_nowhere`)
    : at === s.seat ? t(`${what}.aims_self`) : t(`${what}.aims_at`, { name: seatName(v, at) });
  return h("div", { class: `aim ${what}` }, what === "gun" ? gunArt() : armsArt(), " ", words,
    thing.locked ? ` (${t("gun.locked")})` : "");
}

function badges(v, s) {
  const me = v.you ? v.you.seat : null;
  const playing = v.status === "playing";
  const waited = playing && s.seat !== me && v.waiting_for.some((w) => w.seat === s.seat);
  return [
    playing && s.seat === v.turn && t("seat.turn"), s.seat === me && t("seat.you"), s.absent && t("seat.away"),
    s.eliminated && t("seat.eliminated"), s.wounded && t("seat.wounded"), s.zombie && t("seat.zombie"),
    isBot(v, s.seat) && t("seat.bot"), waited && t(isBot(v, s.seat) ? "seat.thinking" : "seat.deciding"),
    v.winners && v.winners.includes(s.seat) && t("seat.winner"),
    s.team && teamName(s.team),  // once the game is over
  ].filter(Boolean);
}

// each player's ratings, asked once per page (a seat's shows its rating in this table's pool)
const ratings = new Map();
const poolOf = (o) => (o.zombies && o.bombers_traitors ? "zombies_bombers_traitors" : o.zombies ? "zombies" : o.bombers_traitors ? "bombers_traitors" : "base");

function ratingOf(v, s) {
  const out = h("span", { class: "hint rating" });
  if (!ratings.has(s.player)) ratings.set(s.player, api("GET", `/players/${encodeURIComponent(s.player)}/ratings`).catch(() => ({ ratings: [] })));
  ratings.get(s.player).then((got) => {
    const mine = got.ratings.find((r) => r.pool === poolOf(v.options || {}));
    if (mine) out.textContent = t("seat.rating", { ordinal: Number(mine.ordinal).toLocaleString(lang, { maximumFractionDigits: 1 }) });
  });
  return out;
}

function seatBox(v, s, [x, y], picks, choose) {
  const me = v.you ? v.you.seat : null;
  const pickable = picks && picks.kind === "seat" && picks.values.map(String).includes(String(s.seat));
  const cardsPickable = new Set(picks && picks.kind === "card" && picks.seat === s.seat ? picks.values.map(String) : []);
  // a player's seat names it with a link to its profile (not inside a seat's pick button)
  const who = s.player && !pickable
    ? h("a", { class: "who", href: `/?player=${encodeURIComponent(s.player)}`, title: t("seat.profile", { name: s.name }) }, s.name)
    : h("span", { class: "who" }, s.name);
  const title = [s.name ? who : h("span", { class: "who free" }, t("seat.free", { n: s.seat + 1 })),
    " ", h("span", { class: "hint" }, seatHint(s.seat)), s.player && " ", s.player && ratingOf(v, s)];
  const head = pickable
    ? h("button", { class: "seat-pick choosable", "data-key": `seat:${s.seat}`,
      "aria-label": t("pick.choose_this", { what: seatName(v, s.seat) }), onclick: () => choose(s.seat) }, title)
    : h("span", {}, title);
  const marks = badges(v, s);
  const cls = ["seat", s.seat === v.turn && "turn", s.seat === me && "you", s.eliminated && "eliminated", pickable && "choosable"];
  return h("div", { class: cls.filter(Boolean).join(" "), style: { left: `${x}%`, top: `${y}%` }, "data-seat": s.seat },
    h("h3", {}, head),
    marks.length > 0 && h("div", { class: "badges" }, marks.map((b) => h("span", { class: "badge" }, b))),
    h("div", { class: "cards" }, s.cards.map((c) => cardView(v, s, c, cardsPickable.has(String(c.position)), choose))),
    aimLine(v, s, "gun", s.gun), aimLine(v, s, "arms", s.arms),
    s.equipment_count > 0 && h("div", { class: "hint" }, t("seat.equipment_count", { n: s.equipment_count })),
    s.in_play.length > 0 && h("div", { class: "in-play" }, h("span", { class: "hint" }, t("seat.in_play")), " ",
      s.in_play.map((c) => equipmentCard(v, c, `seat${s.seat}`))));
}

// the seats around the table (a circle on a wide screen, a column on a narrow one); picks: the
// seats or cards the open question may take, chosen by clicking them
export function board(v, picks, choose) {
  const me = v.you ? v.you.seat : null;
  const n = v.seats.length;
  // you sit at the bottom, the others round the table in seat order
  const centre = (i) => {
    const a = (2 * Math.PI * (i - (me ?? 0))) / n + Math.PI / 2;
    return [50 + 36 * Math.cos(a), 50 + 35 * Math.sin(a)];
  };
  return h("div", { class: `board seats-${n}`, role: "group", "aria-label": t("table.seats") },
    arrows(v, centre), middle(v), v.seats.map((s) => seatBox(v, s, centre(s.seat), picks, choose)));
}

// your seat: team, hand (each card's text on hover or tap)
export function yourPanel(v) {
  if (!v.you) return null;
  return h("section", { class: "panel", "aria-labelledby": "me" }, h("h2", { id: "me" }, t("you.title", { name: seatName(v, v.you.seat) })),
    h("p", {}, t("you.team", { team: v.you.team ? teamName(v.you.team) : t("you.team_unknown") })),
    h("div", { class: "hand" }, h("span", {}, t("you.hand")), " ", v.you.hand.length ? v.you.hand.map((c) => equipmentCard(v, c, "hand")) : t("you.hand_empty")));
}

// the deadlines counting down, in every element that holds one
let timer = null;
export function startCountdowns() {
  clearInterval(timer);
  const tick = () => document.querySelectorAll(".countdown").forEach((el) => {
    const left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
    el.textContent = t("bar.seconds_left", { n: left });
    el.classList.toggle("urgent", left <= 10);
  });
  tick();
  timer = setInterval(tick, 1000);
}
