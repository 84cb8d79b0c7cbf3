// 7 słów letter cards drawn as SVG.
import { frame } from "/static/js/cards.js";

/** A letter card: `{letter, bonus, value}`; without a value (a card named in a score
 * line, away from its column) the corner number is left out. */
export function letterCard(card) {
  const rare = card.bonus > 0;
  const fill = rare ? "#fff3c4" : "#ffffff";
  const bonus = rare
    ? `<circle cx="48" cy="13" r="9" fill="#f9a825"/><text x="48" y="17" font-size="11" text-anchor="middle" font-family="sans-serif" font-weight="700" fill="#3e2723">+${card.bonus}</text>`
    : "";
  const value = card.value === undefined || card.value === null
    ? ""
    : `<text x="9" y="22" font-size="15" font-family="sans-serif" font-weight="700" fill="#546e7a">${card.value}</text>`;
  const label = value ? `${card.letter} ${card.value}` : rare ? `${card.letter} +${card.bonus}` : card.letter;
  return frame(
    `<text x="30" y="64" font-size="42" text-anchor="middle" font-family="Georgia, serif" font-weight="700" fill="#263238">${card.letter}</text>
     ${value}${bonus}`,
    { border: rare ? "#c59100" : "#37474f", fill, label },
  );
}

/** The card a score line names: "K" or "H+2" (the server's `str(LetterCard)`). */
export function parseLetterCode(code) {
  const match = /^(\p{L})(?:\+(\d))?$/u.exec(String(code));
  if (!match) return null;
  return { letter: match[1], bonus: Number(match[2] ?? 0) };
}
