// 7 słów letter cards drawn as SVG.
import { frame } from "/static/js/cards.js";

export function letterCard(card) {
  const rare = card.bonus > 0;
  const fill = rare ? "#fff3c4" : "#ffffff";
  const bonus = rare
    ? `<circle cx="48" cy="13" r="9" fill="#f9a825"/><text x="48" y="17" font-size="11" text-anchor="middle" font-family="sans-serif" font-weight="700" fill="#3e2723">+${card.bonus}</text>`
    : "";
  return frame(
    `<text x="30" y="64" font-size="42" text-anchor="middle" font-family="Georgia, serif" font-weight="700" fill="#263238">${card.letter}</text>
     <text x="10" y="21" font-size="13" font-family="sans-serif" font-weight="700" fill="#546e7a">${card.value}</text>${bonus}`,
    { border: rare ? "#c59100" : "#37474f", fill, label: `${card.letter} ${card.value}` },
  );
}
