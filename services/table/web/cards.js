// The project's own artwork for integrity cards, drawn inline (no image is fetched): a card's
// face (Honest, Crooked, Agent, Kingpin, with bomb and knife icons) or its back.
import { svg } from "./dom.js";
import { iconsOf, sideOf } from "./names.js";

const FACES = {
  // a police badge
  honest: '<rect width="40" height="56" rx="4" fill="#e7f0fd"/><path d="M20 9l9 4v9c0 7-4 12-9 14-5-2-9-7-9-14v-9z" fill="#1f5fbf"/><circle cx="20" cy="21" r="4" fill="#e7f0fd"/>',
  // a mask
  crooked: '<rect width="40" height="56" rx="4" fill="#fdecea"/><path d="M8 18c4-3 20-3 24 0 0 6-3 10-6 10-3 0-4-3-6-3s-3 3-6 3c-3 0-6-4-6-10z" fill="#b3261e"/><circle cx="14.5" cy="20" r="2.2" fill="#fdecea"/><circle cx="25.5" cy="20" r="2.2" fill="#fdecea"/>',
  // a star in a badge
  agent: '<rect width="40" height="56" rx="4" fill="#1f5fbf"/><path d="M20 8l3.5 7.5 8 .8-6 5.4 1.8 8-7.3-4.2-7.3 4.2 1.8-8-6-5.4 8-.8z" fill="#ffd54f"/>',
  // a crown
  kingpin: '<rect width="40" height="56" rx="4" fill="#5b0f0a"/><path d="M9 28l-2-14 7 6 6-9 6 9 7-6-2 14z" fill="#ffd54f"/><rect x="9" y="29" width="22" height="3" fill="#ffd54f"/>',
};
const BACK = '<rect width="40" height="56" rx="4" fill="#2b3950"/><rect x="4" y="4" width="32" height="48" rx="3" fill="none" stroke="#8fa3c4" stroke-width="1.2"/><path d="M20 12l12 16-12 16-12-16z" fill="none" stroke="#8fa3c4" stroke-width="1.2"/>';
const ICONS = {
  bomb: '<circle cx="0" cy="2" r="4.2" fill="#22262e"/><path d="M2 -2l3 -3" stroke="#22262e" stroke-width="1.4"/><circle cx="5.6" cy="-5.6" r="1.2" fill="#f57c00"/>',
  knife: '<path d="M-5 5l8-9 2 2-8 8z" fill="#5d6472"/><path d="M-6 6l2-2 1.5 1.5-2 2z" fill="#22262e"/>',
};

// the card's drawing: its face when the viewer knows it (dimmed behind a slash-eye when it lies
// face down), else its back; its position in the corner
export function cardArt(card, { faceUp, position }) {
  const known = card ? FACES[sideOf(card)] || BACK : BACK;
  const icons = card ? iconsOf(card).map((icon, i) => `<g transform="translate(${12 + i * 16} 46)">${ICONS[icon] || ""}</g>`).join("") : "";
  const pos = `<circle cx="34" cy="6" r="4.5" fill="#fff" stroke="#22262e" stroke-width=".6"/><text x="34" y="8.2" font-size="6.5" text-anchor="middle" fill="#22262e">${Number(position)}</text>`;
  const hidden = card && !faceUp ? '<rect width="40" height="56" rx="4" fill="#2b3950" opacity=".18"/>' : "";
  return svg("0 0 40 56", known + icons + hidden + pos, "art");
}

export function gunArt() {
  return svg("0 0 24 14", '<path d="M2 2h20v4H10l-1 2H8l-2 6H1l2-8H2z" fill="#22262e"/><path d="M9 8c0 2 1 3 3 3" fill="none" stroke="#22262e" stroke-width="1.2"/><rect x="20" y="1" width="2" height="1.5" fill="#22262e"/>', "icon");
}

export function woundArt() {
  return svg("0 0 14 14", '<rect width="14" height="14" rx="3" fill="#b3261e"/><path d="M7 3v8M3 7h8" stroke="#fff" stroke-width="2"/>', "icon");
}

export function armsArt() {
  return svg("0 0 24 14", '<path d="M1 9c4-1 7-4 10-4h6l2-3 1 3 2-2v4l-2 1h-8c-3 0-7 3-11 3z" fill="#6a1b9a"/>', "icon");
}

export function eyeArt() {
  return svg("0 0 16 10", '<path d="M1 5c3-5 11-5 14 0-3 5-11 5-14 0z" fill="none" stroke="currentColor" stroke-width="1.3"/><circle cx="8" cy="5" r="2" fill="currentColor"/>', "eye");
}
