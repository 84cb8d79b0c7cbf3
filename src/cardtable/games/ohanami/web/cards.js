// Ohanami's numbered garden cards drawn as SVG.
import { blossom, frame } from "/static/js/cards.js";

const OHANAMI_COLOURS = {
  blue: ["#2f6fc4", "#d6e6fb"],
  green: ["#2e8b47", "#d7f0dc"],
  grey: ["#6f7782", "#e4e6ea"],
  pink: ["#d9548f", "#fbe0ec"],
};
const OHANAMI_ICONS = {
  blue: `<path d="M8 70 q6 -6 12 0 t12 0 t12 0 t12 0 M8 80 q6 -6 12 0 t12 0 t12 0 t12 0" stroke="#fff" stroke-width="3" fill="none"/>`,
  green: `<path d="M30 58 L16 84 L44 84 Z" fill="#fff" opacity="0.9"/><rect x="27" y="84" width="6" height="6" fill="#fff"/>`,
  grey: `<ellipse cx="24" cy="80" rx="12" ry="7" fill="#fff" opacity="0.9"/><ellipse cx="40" cy="76" rx="9" ry="6" fill="#fff" opacity="0.7"/>`,
  pink: blossom(30, 74, 8, "#fff", "#f8bbd0"),
};

/** A garden card: its number as large as the card allows (read in a 22 px row of another
 * player's garden), white with a dark edge on its colour, and the colour's own picture
 * below it (water, tree, stone, blossom) for a reader who does not tell the colours apart. */
export function ohanamiCard(number, colour) {
  const [strong] = OHANAMI_COLOURS[colour] || OHANAMI_COLOURS.grey;
  const digits = String(number).length;
  const fit = digits > 2 ? ` textLength="52" lengthAdjust="spacingAndGlyphs"` : "";
  return frame(
    `<rect x="0" y="0" width="60" height="96" fill="${strong}"/>
     <text x="30" y="52" font-size="${digits > 2 ? 32 : 42}" text-anchor="middle" font-family="sans-serif" font-weight="800"
       fill="#fff" stroke="#0008" stroke-width="3" paint-order="stroke"${fit}>${number}</text>
     ${OHANAMI_ICONS[colour] || ""}`,
    { border: "#1b1b1b", fill: strong, label: `${number} ${colour}`, kind: colour },
  );
}
