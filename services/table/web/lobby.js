// The lobby: the tables waiting for players, and a form to open one with every option.
import { api, mayHaveSeat, seats, showProblem } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { invitations } from "./invitations.js";
import { player } from "./player.js";

export async function lobby(main, nav) {
  nav.replaceChildren();
  const list = h("ul", { class: "tables" });
  main.replaceChildren(
    h("h1", {}, t("lobby.title")),
    h("section", { class: "panel", "aria-labelledby": "new" }, h("h2", { id: "new" }, t("lobby.new")), createForm()),
    h("section", { class: "panel", "aria-labelledby": "open" }, h("h2", { id: "open" }, t("lobby.open")), list),
  );
  try {
    const tables = await api("GET", "/tables?limit=100");
    if (!tables.length) list.append(h("li", {}, t("lobby.none")));
    for (const tb of tables) {
      const o = tb.options;
      const opts = [t(`edition.${o.edition || "fourth"}`), o.wounds && t(`wounds.${o.wounds}`), o.zombies && t("option.zombies"),
        o.bombers_traitors && t("option.bombers_traitors"), o.extra_equipment && t("option.extra_equipment"),
        tb.bots && t("lobby.bots", { n: tb.bots.seats.length })].filter(Boolean).join(" · ");
      list.append(h("li", {},
        h("a", { href: `/watch/${tb.table_id}` }, t("lobby.table", { id: tb.table_id })), " ",
        h("span", {}, t("lobby.seats", { taken: tb.taken, seats: tb.seats })), " ",
        tb.reserved ? h("span", { class: "reserved" }, t(tb.reserved === 1 ? "lobby.reserved_one" : "lobby.reserved", { n: tb.reserved })) : "", " ",
        h("span", { class: "hint" }, opts), " ",
        tb.taken < tb.seats ? h("button", { onclick: () => join(tb.table_id) }, t("lobby.take_seat")) : ""));
    }
  } catch (e) { showProblem(e); }
}

function createForm() {
  // each field's label names it alone (a label around a select would take in its options' text)
  const field = (label, control) => h("span", { class: "field" }, h("label", { for: `f-${control.name}` }, label), " ", control);
  const num = (name, value, min, max, label) =>
    field(label, h("input", { id: `f-${name}`, type: "number", name, value, min, max, step: "any", size: 4 }));
  const select = (name, label, options) =>
    field(label, h("select", { id: `f-${name}`, name }, options.map(([value, text]) => h("option", { value }, text))));
  const check = (name, label) => h("span", { class: "field" }, h("input", { id: `f-${name}`, type: "checkbox", name }), " ", h("label", { for: `f-${name}` }, label));
  const form = h("form", { "aria-labelledby": "new" },
    h("fieldset", {}, h("legend", {}, t("lobby.players")),
      field(t("lobby.your_name"), h("input", { id: "f-name", name: "name", value: t("lobby.default_name"), required: true, maxlength: 40 })),
      num("seats", 4, 4, 8, t("lobby.seat_count")),
      num("bots", 3, 0, 8, t("lobby.house_bots")),
      num("invitations", 0, 0, 7, t("lobby.invitations")),
      select("kind", t("lobby.bot_kind"), [["random", t("bot.random")], ["heuristic", t("bot.heuristic")]])),
    h("fieldset", {}, h("legend", {}, t("lobby.options")),
      select("edition", t("lobby.edition"), [["fourth", t("edition.fourth")], ["classic", t("edition.classic")]]),
      select("wounds", t("lobby.wounds"), [["", t("wounds.default")], ["token", t("wounds.token")], ["card", t("wounds.card")]]),
      check("zombies", t("option.zombies")), check("bombers_traitors", t("option.bombers_traitors")),
      check("extra_equipment", t("option.extra_equipment")), check("rated", t("lobby.rated"))),
    h("fieldset", {}, h("legend", {}, t("lobby.deadlines")),
      num("turn", 90, 5, 3600, t("deadline.turn")), num("reaction", 20, 5, 3600, t("deadline.reaction")),
      num("prompt", 20, 5, 3600, t("deadline.prompt")), num("arrange", 60, 5, 3600, t("deadline.arrange"))),
    h("button", { type: "submit", class: "primary" }, t("lobby.create")));
  const submit = form.querySelector("button[type=submit]");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (submit.disabled) return;  // asked already: a second submit would open a second table
    submit.disabled = true;
    showProblem(null);
    const f = new FormData(form);
    const n = Number(f.get("seats"));
    const bots = Math.min(Number(f.get("bots")), n);
    // kept seats are among those the house does not play, and one of those is the creator's
    const kept = Math.max(0, Math.min(Number(f.get("invitations")), n - bots - 1));
    const body = {
      seats: n,
      options: {
        edition: f.get("edition"),
        zombies: f.has("zombies"), bombers_traitors: f.has("bombers_traitors"),
        extra_equipment: f.has("extra_equipment"),
        ...(f.get("wounds") ? { wounds: f.get("wounds") } : {}),
      },
      deadlines: Object.fromEntries(["turn", "reaction", "prompt", "arrange"].map((k) => [k, Number(f.get(k))])),
      rated: f.has("rated"),
    };
    if (kept > 0) body.invitations = kept;
    if (bots > 0) body.bots = { seats: Array.from({ length: bots }, (_, i) => n - bots + i), kind: f.get("kind") };
    try {
      const created = await api("POST", "/tables", { body });
      if (created.invitations && created.invitations.length) invitations.set(created.table_id, created.invitations);
      if (bots < n) await join(created.table_id, f.get("name"));
      else location.assign(`/watch/${created.table_id}`);
    } catch (e) { showProblem(e); }
    finally { submit.disabled = false; }
  });
  return form;
}

export async function join(tableId, name) {
  const me = player.get();  // a signed-in player sits as itself, under its name by default
  name = name || prompt(t("lobby.ask_name"), me ? me.name : t("lobby.default_name"));
  if (!name) return;
  try {
    const got = await api("POST", `/tables/${tableId}/seats`, { body: { name }, token: me?.token }).catch(mayHaveSeat);
    seats.set(tableId, got.seat ?? -1, got.token);
    location.assign(`/play/${tableId}`);
  } catch (e) { showProblem(e); }
}
