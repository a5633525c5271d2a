// Every text the page shows comes from one catalogue per language (i18n/<lang>.json, flat keys,
// {placeholders}); the page follows the browser's languages unless the player chose one.
import { h } from "./dom.js";

export const LANGUAGES = { en: "English", it: "Italiano", ja: "日本語" };
const STORE = "gcbc:lang";
let words = {};
export let lang = "en";

function wanted() {
  const chosen = localStorage.getItem(STORE);
  if (chosen && LANGUAGES[chosen]) return chosen;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LANGUAGES[base]) return base;
  }
  return "en";
}

export async function loadCatalogue() {
  lang = wanted();
  const r = await fetch(`/web/i18n/${lang}.json`);
  words = await r.json();
  document.documentElement.lang = lang;
  document.title = t("page.title");
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(words, key);
}

// the catalogue's text for key, its {placeholders} filled (a missing key shows as itself)
export function t(key, params = {}) {
  const text = has(key) ? words[key] : key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (params[name] === undefined ? whole : String(params[name])));
}

// a list of names in the language's way ("Ann, Bea and Carl")
export function list(items) {
  const xs = items.map(String);
  if (xs.length <= 1) return xs.join("");
  return t("list.last", { rest: xs.slice(0, -1).join(t("list.comma")), last: xs[xs.length - 1] });
}

export function switcher() {
  return h("span", { class: "lang" }, h("label", { for: "lang", class: "visually-hidden" }, t("lang.label")),
    h("select", {
      id: "lang",
      onchange: (ev) => { localStorage.setItem(STORE, ev.target.value); location.reload(); },
    }, Object.entries(LANGUAGES).map(([code, name]) =>
      h("option", { value: code, lang: code, selected: code === lang }, name))));
}
