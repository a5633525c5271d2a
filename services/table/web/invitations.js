// Invitations: the seats a table's creator keeps for players they choose. Each code travels in a
// link's fragment (/play/{id}#invite=<code>), which a browser never sends to a server, so it stays
// out of every request line, access log and proxy on the way; the page sends it once, in a POST body.
import { api, mayHaveSeat, perTable, seats, showProblem } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./names.js";
import { player } from "./player.js";

const store = perTable("invitations");

// the creator's codes, kept in this browser only (the server shows them nowhere again)
export const invitations = {
  get: (table) => store.get(table) || [],
  set: (table, list) => store.set(table, list),
};

export const inviteLink = (table, code) => `${location.origin}/play/${table}#invite=${encodeURIComponent(code)}`;

// the code a link carries, if any
export function inviteCode() {
  const m = /(?:^#|&)invite=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

// while the table waits: one link per kept seat with a copy button, and who took it once taken
export function invitationsPanel(v) {
  const kept = invitations.get(v.table_id);
  if (!kept.length || v.status !== "waiting") return null;
  return h("section", { class: "panel invitations", "aria-labelledby": "invh" },
    h("h2", { id: "invh" }, t("invite.title")),
    h("p", { class: "hint" }, t("invite.hint")),
    h("ul", {}, kept.map(({ seat, code }) => {
      const taken = v.seats[seat] && v.seats[seat].name;
      if (taken) return h("li", { "data-seat": seat }, t("invite.taken", { n: seat + 1, name: seatName(v, seat) }));
      const link = inviteLink(v.table_id, code);
      const field = h("input", { id: `invite-${seat}`, readonly: true, value: link, size: 40, "data-key": `invite-${seat}` });
      const copy = h("button", { type: "button", "data-key": `copy-${seat}` }, t("invite.copy"));
      copy.addEventListener("click", async () => {
        field.select();
        try { await navigator.clipboard.writeText(link); copy.textContent = t("invite.copied"); }
        catch { copy.textContent = t("invite.select"); }  // no clipboard here: the link is selected
      });
      return h("li", { "data-seat": seat }, h("label", { for: `invite-${seat}` }, t("invite.link", { n: seat + 1 })), " ", field, " ", copy);
    })));
}

// an invitation's link opened in a browser without a seat here: a name, then the kept seat
export function acceptForm(main, tableId, code) {
  const me = player.get();  // a signed-in player takes the kept seat as itself, under its name by default
  const name = h("input", { id: "invite-name", name: "name", required: true, maxlength: 40, autocomplete: "nickname", value: me ? me.name : "" });
  const form = h("form", { class: "panel invited", "aria-labelledby": "invitedh" },
    h("h1", { id: "invitedh" }, t("invite.welcome")),
    h("p", {}, h("label", { for: "invite-name" }, t("lobby.your_name")), " ", name),
    h("button", { type: "submit", class: "primary" }, t("invite.join")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showProblem(null);
    try {
      const got = await api("POST", `/tables/${tableId}/seats`, { body: { name: name.value, invitation: code }, token: me?.token }).catch(mayHaveSeat);
      seats.set(tableId, got.seat ?? -1, got.token);
      history.replaceState(null, "", `/play/${tableId}`);  // the code leaves the address bar and the history
      location.reload();
    } catch (e) { showProblem(e); }
  });
  main.replaceChildren(form);
  name.focus();
}
