// The game's words for what a view names by number or snake_case: seats by their names (their
// number only as a hint), cards, teams, windows.
import { has, t } from "./i18n.js";

const INTEGRITY = new Set(["honest", "crooked", "agent", "kingpin"]);

export const sideOf = (card) => String(card).split("_", 1)[0];
export const iconsOf = (card) => String(card).split("_").slice(1);
export const isIntegrity = (card) => INTEGRITY.has(sideOf(card));

export function seatName(v, n) {
  if (n === null || n === undefined) return t("seat.nobody");
  const s = v.seats[n];
  return s && s.name ? s.name : t("seat.free", { n: n + 1 });
}

export const seatHint = (n) => t("seat.number", { n: n + 1 });

// "Honest", "Crooked (bomb, knife)", "Coffee"
export function cardName(card) {
  if (!card) return t("card.face_down");
  if (isIntegrity(card)) {
    const icons = iconsOf(card).map((i) => t(`icon.${i}`));
    const side = t(`card.${sideOf(card)}`);
    return icons.length ? t("card.with_icons", { card: side, icons: icons.join(", ") }) : side;
  }
  return has(`equipment.${card}`) ? t(`equipment.${card}`) : card;
}

// a card's text as the table's edition plays it (the classic edition's differ for some cards)
export function equipmentText(card, edition) {
  return edition === "classic" && has(`equipment_text_classic.${card}`) ? t(`equipment_text_classic.${card}`) : t(`equipment_text.${card}`);
}
export const teamName = (team) => t(`team.${team}`);

// a choice an equipment card offers by name: a card, or one of the card's own options
export function choiceName(x) {
  if (has(`choice.${x}`)) return t(`choice.${x}`);
  return cardName(x);
}
