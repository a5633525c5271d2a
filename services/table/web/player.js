// The player: one identity across tables (name, bot flag, ratings, "my tables", past games), its
// token kept in this browser's localStorage like a seat's. Playing without one keeps working.
import { api, showProblem } from "./api.js";
import { h } from "./dom.js";
import { has, lang, t } from "./i18n.js";
import { quickPlay } from "./quickplay.js";

const STORE = "gcbc:player";
export const POOLS = ["base", "zombies", "bombers_traitors", "zombies_bombers_traitors"];

export const player = {
  get: () => JSON.parse(localStorage.getItem(STORE) || "null"),
  set: (p) => localStorage.setItem(STORE, JSON.stringify({ player_id: p.player_id, name: p.name, bot: p.bot, token: p.token })),
  forget: () => localStorage.removeItem(STORE),
};

// a token just issued, shown once on this page and never again (it is kept, not shown, after)
let fresh = null;

// a refusal of the player's endpoints in the panel's words, else as any refusal
function refused(e) {
  const key = `player.problem_${e.code}`;
  showProblem(e.code && has(key) ? { title: t(key) } : e);
}

const number = (x) => Number(x).toLocaleString(lang, { maximumFractionDigits: 1 });
const poolName = (pool) => t(`pool.${pool}`);
const profileHref = (id) => `/?player=${encodeURIComponent(id)}`;
const boardHref = (pool, offset = 0) => `/?leaderboard=${encodeURIComponent(pool)}${offset ? `&offset=${offset}` : ""}`;

// the seat a signed-in player holds at a table, acted for with the player's token (the table is
// picked up from any device); null when there is no player or no seat of its there
export async function playerSeat(tableId) {
  const me = player.get();
  if (!me) return null;
  try {
    const got = await api("GET", "/players/me/tables?limit=200", { token: me.token });
    const held = got.tables.find((x) => x.table_id === tableId);
    return held ? { seat: held.seat, token: me.token } : null;
  } catch (e) { return null; }
}

// the header's word on who plays here
export function playerBadge() {
  const me = player.get();
  return me ? h("a", { class: "player-badge", href: profileHref(me.player_id) }, t("player.header", { name: me.name })) : "";
}

function redrawBadge() {
  const badge = document.querySelector("header .player-badge"), now = playerBadge();
  if (badge) badge.replaceWith(now);
  else if (now) document.querySelector("header .lang")?.before(now);
}

// --- the lobby's panel ----------------------------------------------------------------------------
export function lobbyPanel(main) {
  const section = h("section", { class: "panel player-panel", "aria-labelledby": "player" });
  const draw = () => { section.replaceChildren(...panelContent(draw).filter(Boolean)); fillName(); redrawBadge(); };
  main.querySelector("h1").after(section);
  draw();
}

// the new table's name field says the player's name (a player sits under it by default)
function fillName() {
  const me = player.get(), field = document.getElementById("f-name");
  if (me && field) field.value = me.name;
}

function panelContent(draw) {
  const me = player.get();
  const title = h("h2", { id: "player" }, t("player.title"));
  if (!me) return [title, h("p", { class: "hint" }, t("player.intro")), registerForm(draw), signInForm(draw), boardsLink()];
  const ratings = h("div", { class: "ratings" }), tables = h("div", { class: "my-tables" });
  loadRatings(me.player_id, ratings);
  loadTables(me, tables, draw);
  return [title,
    fresh && tokenOnce(me, draw),
    h("p", {}, h("strong", {}, t("player.signed_in", { name: me.name })), " ", me.bot && h("span", { class: "badge" }, t("player.is_bot"))),
    ratings,
    quickPlay(me),
    h("h3", {}, t("player.my_tables")), tables,
    h("p", { class: "links" }, h("a", { href: profileHref(me.player_id) }, t("player.profile")), " ", boardsLink()),
    h("div", { class: "commands" },
      h("button", { "data-key": "new-token", onclick: () => newToken(me, draw) }, t("player.new_token")),
      h("button", { "data-key": "sign-out", onclick: () => { fresh = null; player.forget(); draw(); } }, t("player.sign_out"))),
    h("p", { class: "hint" }, t("player.sign_out_hint"))];
}

const boardsLink = () => h("a", { href: boardHref("base") }, t("player.leaderboards"));

function tokenOnce(me, draw) {
  return h("div", { class: "token-once", role: "group", "aria-labelledby": "token-once" },
    h("p", { id: "token-once" }, h("strong", {}, t("player.token_once"))),
    h("label", { for: "fresh-token", class: "visually-hidden" }, t("player.token")),
    h("input", { id: "fresh-token", class: "token", readonly: true, value: fresh, onfocus: (ev) => ev.target.select() }),
    h("p", {}, t("player.token_warning", { name: me.name })),
    h("button", { class: "primary", "data-key": "token-saved", onclick: () => { fresh = null; draw(); } }, t("player.token_saved")));
}

// A registration sent again with its key (the same form, after an answer lost) gets the same player.
function registrationKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function registerForm(draw) {
  const key = registrationKey();
  const form = h("form", { "aria-labelledby": "register" },
    h("fieldset", {}, h("legend", { id: "register" }, t("player.register")),
      h("span", { class: "field" }, h("label", { for: "p-name" }, t("player.name")), " ",
        h("input", { id: "p-name", name: "name", required: true, maxlength: 40, autocomplete: "nickname" })),
      h("span", { class: "field" }, h("input", { id: "p-bot", type: "checkbox", name: "bot" }), " ", h("label", { for: "p-bot" }, t("player.bot"))),
      h("button", { type: "submit" }, t("player.register"))));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showProblem(null);
    const f = new FormData(form);
    try {
      const got = await api("POST", "/players", { body: { name: f.get("name"), bot: f.has("bot"), registration_key: key } });
      player.set(got);
      fresh = got.token;
      draw();
      document.getElementById("fresh-token")?.focus();
    } catch (e) { refused(e); }
  });
  return form;
}

function signInForm(draw) {
  const form = h("form", { "aria-labelledby": "sign-in" },
    h("fieldset", {}, h("legend", { id: "sign-in" }, t("player.sign_in")),
      h("span", { class: "field" }, h("label", { for: "p-token" }, t("player.token")), " ",
        h("input", { id: "p-token", name: "token", type: "password", required: true, autocomplete: "off", class: "token" })),
      h("button", { type: "submit" }, t("player.sign_in"))));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showProblem(null);
    const token = String(new FormData(form).get("token")).trim();
    try {
      const me = await api("GET", "/players/me", { token });
      player.set({ ...me, token });
      draw();
    } catch (e) { refused(e); }
  });
  return form;
}

async function newToken(me, draw) {
  showProblem(null);
  try {
    const got = await api("POST", "/players/me/token", { token: me.token });
    player.set({ ...me, token: got.token });
    fresh = got.token;
    draw();
    document.getElementById("fresh-token")?.focus();
  } catch (e) { refused(e); }
}

async function loadRatings(playerId, into, heading = "h3") {
  try {
    const got = await api("GET", `/players/${encodeURIComponent(playerId)}/ratings`);
    into.replaceChildren(h(heading, {}, t("player.ratings")), got.ratings.length
      ? h("ul", { class: "ratings-list" }, got.ratings.map((r) => h("li", {},
        t("player.rating", { pool: poolName(r.pool), ordinal: number(r.ordinal), games: r.games }), " ",
        h("span", { class: "hint" }, t("player.rating_detail", { mu: number(r.mu), sigma: number(r.sigma) })))))
      : h("p", { class: "hint" }, t("player.no_ratings")));
  } catch (e) { refused(e); }
}

async function loadTables(me, into, draw) {
  try {
    const got = await api("GET", "/players/me/tables?limit=50", { token: me.token });
    if (!got.tables.length) { into.replaceChildren(h("p", { class: "hint" }, t("player.no_tables"))); return; }
    const groups = ["playing", "waiting", "finished"].map((status) => {
      const mine = got.tables.filter((x) => x.status === status);
      return mine.length && h("div", { class: `mine ${status}` }, h("h4", {}, t(`player.status_${status}`)),
        h("ul", { class: "tables" }, mine.map((x) => h("li", { "data-table": x.table_id },
          h("a", { href: status === "finished" ? `/replay/${x.table_id}` : `/play/${x.table_id}` }, t("player.table", { id: x.table_id, seat: x.seat + 1 }))))));
    });
    into.replaceChildren(...groups.filter(Boolean));
  } catch (e) {
    if (e.status === 403) { player.forget(); draw(); }  // the token was replaced elsewhere: sign in again
    refused(e);
  }
}

// --- the player's pages: a profile with its games, a pool's leaderboard (the lobby's address) ----
export function playerPages(main, nav) {
  const q = new URLSearchParams(location.search);
  if (q.get("player")) { nav.replaceChildren(h("a", { href: "/" }, t("player.lobby"))); profile(main, q.get("player")); return true; }
  if (q.get("leaderboard")) { nav.replaceChildren(h("a", { href: "/" }, t("player.lobby"))); leaderboard(main, q.get("leaderboard"), Number(q.get("offset") || 0)); return true; }
  return false;
}

async function profile(main, playerId) {
  const ratings = h("section", { class: "panel", "aria-label": t("player.ratings") });
  const games = h("section", { class: "panel", "aria-labelledby": "games" }, h("h2", { id: "games" }, t("player.games")));
  const heading = h("h1", {}, "…");
  main.replaceChildren(heading, ratings, games);
  try {
    const p = await api("GET", `/players/${encodeURIComponent(playerId)}`);
    heading.replaceChildren(t("player.profile_title", { name: p.name }), " ", p.bot ? h("span", { class: "badge" }, t("player.is_bot")) : "");
    document.title = t("player.profile_title", { name: p.name });
  } catch (e) { refused(e); return; }
  loadRatings(playerId, ratings, "h2");
  const list = h("ul", { class: "tables games" });
  const exportUrl = `/players/${encodeURIComponent(playerId)}/games/export`;
  games.append(h("p", { class: "links" }, h("a", { href: exportUrl, download: `games-${playerId}.ndjson`, "data-key": "export" }, t("player.download_games"))), list);
  const more = async (before) => {
    try {
      const q = new URLSearchParams({ limit: "20" });
      if (before !== undefined) q.set("before", String(before));
      const got = await api("GET", `/players/${encodeURIComponent(playerId)}/games?${q}`);
      if (!got.games.length && before === undefined) list.append(h("li", {}, t("player.no_games")));
      for (const g of got.games) list.append(gameLine(g));
      if (got.next !== null && got.next !== undefined) {
        const b = h("button", { "data-key": "older", onclick: () => { b.remove(); more(got.next); } }, t("player.older"));
        list.append(h("li", {}, b));
      }
    } catch (e) { refused(e); }
  };
  more();
}

function gameLine(g) {
  const when = new Date(g.finished_at).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
  const others = g.seats.filter((s) => s.seat !== g.seat).map((s) => s.name).join(", ");
  return h("li", { "data-table": g.table_id },
    h("a", { href: `/replay/${g.table_id}` }, t("player.game", { when })), " ",
    h("span", {}, t(g.won ? "player.won" : "player.lost")), " ",
    g.team && h("span", {}, t("player.as_team", { team: t(`team.${g.team}`) })), " ",
    g.rating_change !== null && g.rating_change !== undefined &&
      h("span", {}, t("player.rating_change", { change: (g.rating_change >= 0 ? "+" : "") + number(g.rating_change) })), " ",
    h("span", { class: "hint" }, t("player.with", { names: others })));
}

async function leaderboard(main, pool, offset) {
  if (!POOLS.includes(pool)) pool = "base";
  const choose = h("select", { id: "pool", onchange: (ev) => location.assign(boardHref(ev.target.value)) },
    POOLS.map((p) => h("option", { value: p, selected: p === pool }, poolName(p))));
  const body = h("tbody", {});
  const pages = h("div", { class: "commands" });
  main.replaceChildren(h("h1", {}, t("player.leaderboard_title", { pool: poolName(pool) })),
    h("section", { class: "panel leaderboard", "aria-label": t("player.leaderboards") },
      h("p", {}, h("label", { for: "pool" }, t("player.pool")), " ", choose),
      h("div", { class: "wide" }, h("table", {},
        h("thead", {}, h("tr", {}, ["rank", "player", "ordinal", "games"].map((c) => h("th", { scope: "col" }, t(`player.col_${c}`))))), body)),
      pages));
  document.title = t("player.leaderboard_title", { pool: poolName(pool) });
  try {
    const got = await api("GET", `/leaderboards/${pool}?limit=50&offset=${offset}`);
    if (!got.entries.length) body.append(h("tr", {}, h("td", { colspan: 4 }, t("player.nobody_rated"))));
    for (const e of got.entries) {
      const house = e.player_id === null && /\((\w+)\)$/.exec(e.name);
      const name = house && has(`bot.${house[1]}`) ? t("player.house_bots", { kind: t(`bot.${house[1]}`) }) : e.name;
      body.append(h("tr", {}, h("td", {}, String(e.rank)),
        h("td", {}, e.player_id ? h("a", { href: profileHref(e.player_id) }, name) : name, " ", e.bot && !house ? h("span", { class: "badge" }, t("player.is_bot")) : ""),
        h("td", {}, number(e.ordinal)), h("td", {}, String(e.games))));
    }
    if (offset > 0) pages.append(h("a", { href: boardHref(pool, Math.max(0, offset - 50)) }, t("player.previous")));
    if (got.next !== null && got.next !== undefined) pages.append(h("a", { href: boardHref(pool, got.next) }, t("player.next")));
  } catch (e) { refused(e); }
}
