// Quick play in the player's panel: ask the queue for a game (seat counts, options, rated, the
// house's bots after a wait), show the place, and go to the table once the queue seats the player.
import { api, backoff, showProblem, sleep } from "./api.js";
import { h } from "./dom.js";
import { lang, list, t } from "./i18n.js";

// the panel drawn last; a poll of an older one stops (the panel was redrawn, or signed out)
let drawn = 0;

export function quickPlay(me) {
  const mine = ++drawn;
  const body = h("div", { class: "quick-body" });
  const section = h("div", { class: "quick-play", role: "group", "aria-labelledby": "quick" },
    h("h3", { id: "quick" }, t("quick.title")), body);
  // one poll at a time: leaving stops the place's poll, joining again starts a new one
  let round = 0;
  const live = () => mine === drawn && section.isConnected;
  const poll = (version) => { const r = ++round; follow(me, version, show, () => r === round && live()); };
  const left = () => { round += 1; show({ status: "none" }); };
  const show = (place) => body.replaceChildren(place.status === "waiting" ? placeShown(me, place, left) : joinForm(me, joined));
  const joined = (place) => { show(place); poll(place.version); };
  // on load a player already waiting sees its place; one the queue seated before stays here
  api("GET", "/queue", { token: me.token }).then((place) => {
    if (!live()) return;
    show(place);
    if (place.status === "waiting") poll(place.version);
  }, () => live() && show({ status: "none" }));
  return section;
}

// the place long-polled: seated goes to the table, none (left elsewhere) shows the form again
async function follow(me, version, show, live) {
  let failures = 0;
  while (live()) {
    try {
      const place = await api("GET", `/queue?after=${version}&timeout=30`, { token: me.token });
      failures = 0;
      if (!live()) return;
      if (place.status === "seated") { location.assign(`/play/${place.table_id}`); return; }
      if (place.version !== version) show(place);
      if (place.status !== "waiting") return;
      version = place.version;
    } catch (e) {
      if (e.status >= 400 && e.status < 500 && e.status !== 429) { showProblem(e); return; }  // asking again cannot help
      failures += 1;
      await sleep(backoff(failures, e.retryAfter));
    }
  }
}

const seatCounts = (seats) => {
  const [lo, hi] = [Math.min(...seats), Math.max(...seats)];
  if (lo === hi) return String(lo);
  return hi - lo + 1 === seats.length ? `${lo}–${hi}` : list(seats);
};

function placeShown(me, place, left) {
  const since = new Date(place.since).toLocaleTimeString(lang, { timeStyle: "short" });
  const leave = async () => {
    showProblem(null);
    try {
      await api("DELETE", "/queue", { token: me.token });
      left();
    } catch (e) {
      showProblem(e);
      if (e.code === "not_queued") left();
    }
  };
  return h("div", { class: "place", "aria-live": "polite" },
    h("p", {}, h("strong", {}, t("quick.waiting", { since, seats: seatCounts(place.seats) }))),
    place.rated && h("p", { class: "hint" }, t("quick.is_rated")),
    place.bots_after !== undefined && place.bots_after !== null &&
      h("p", { class: "hint" }, t("quick.bots_after_is", { n: place.bots_after })),
    h("button", { "data-key": "leave-queue", onclick: leave }, t("quick.leave")));
}

function joinForm(me, joined) {
  // ids of their own: the lobby's form for a new table is on the same page
  const field = (label, control) => h("span", { class: "field" }, h("label", { for: control.id }, label), " ", control);
  const num = (name, value, min, max, label, required = true) =>
    field(label, h("input", { id: `q-${name}`, name, type: "number", value, min, max, required }));
  const check = (name, label) => h("span", { class: "field" }, h("input", { id: `q-${name}`, type: "checkbox", name }), " ", h("label", { for: `q-${name}` }, label));
  const select = (name, label, options) =>
    field(label, h("select", { id: `q-${name}`, name }, options.map(([value, text]) => h("option", { value }, text))));
  const form = h("form", { "aria-labelledby": "quick" },
    h("p", { class: "hint" }, t("quick.intro")),
    h("fieldset", {}, h("legend", {}, t("quick.seats")),
      num("min", 4, 4, 8, t("quick.min")), num("max", 6, 4, 8, t("quick.max")),
      num("bots_after", "", 0, 3600, t("quick.bots_after"), false)),
    h("fieldset", {}, h("legend", {}, t("lobby.options")),
      select("edition", t("lobby.edition"), [["fourth", t("edition.fourth")], ["classic", t("edition.classic")]]),
      select("wounds", t("lobby.wounds"), [["", t("wounds.default")], ["token", t("wounds.token")], ["card", t("wounds.card")]]),
      check("zombies", t("option.zombies")), check("bombers_traitors", t("option.bombers_traitors")),
      check("extra_equipment", t("option.extra_equipment")), check("rated", t("quick.rated"))),
    h("button", { type: "submit", class: "primary" }, t("quick.join")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showProblem(null);
    const f = new FormData(form);
    const [a, b] = [Number(f.get("min")), Number(f.get("max"))];
    const body = {
      seats: { min: Math.min(a, b), max: Math.max(a, b) },
      options: {
        edition: f.get("edition"),
        zombies: f.has("zombies"), bombers_traitors: f.has("bombers_traitors"),
        extra_equipment: f.has("extra_equipment"),
        ...(f.get("wounds") ? { wounds: f.get("wounds") } : {}),
      },
      rated: f.has("rated"),
    };
    if (f.get("bots_after")) body.bots_after = Number(f.get("bots_after"));
    try {
      joined(await api("POST", "/queue", { body, token: me.token }));
    } catch (e) { showProblem(e); }
  });
  return form;
}
