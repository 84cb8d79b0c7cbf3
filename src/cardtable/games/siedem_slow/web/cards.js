// 7 słów letter cards drawn as SVG.
import { frame } from "/static/js/cards.js";

/** A letter card: `{letter, bonus, value}`; without a value (a card named in a score
 * line, away from its column) the corner number is left out. */
export function letterCard(card) {
  const rare = card.bonus > 0;
  const fill = rare ? "#fff3c4" : "#ffffff";
  const bonus = rare
    ? `<circle cx="47" cy="14" r="11.5" fill="#f9a825" stroke="#8d5a00" stroke-width="1"/><text x="47" y="19" font-size="14" text-anchor="middle" font-family="sans-serif" font-weight="800" fill="#3e2723">+${card.bonus}</text>`
    : "";
  // the value in the corner, large and dark enough for a phone's 46 px card
  const value = card.value === undefined || card.value === null
    ? ""
    : `<text x="6" y="22" font-size="19" font-family="sans-serif" font-weight="800" fill="#1d4f91">${card.value}</text>`;
  const label = value ? `${card.letter} ${card.value}` : rare ? `${card.letter} +${card.bonus}` : card.letter;
  return frame(
    `<text x="30" y="70" font-size="46" text-anchor="middle" font-family="Georgia, serif" font-weight="700" fill="#263238">${card.letter}</text>
     ${value}${bonus}`,
    { border: rare ? "#c59100" : "#37474f", fill, label, kind: rare ? "rare" : "common" },
  );
}

/** The card a score line names: "K" or "H+2" (the server's `str(LetterCard)`). */
export function parseLetterCode(code) {
  const match = /^(\p{L})(?:\+(\d))?$/u.exec(String(code));
  if (!match) return null;
  return { letter: match[1], bonus: Number(match[2] ?? 0) };
}
