// What every game's card art shares: an SVG card frame, a blossom, the back of a card.
// Each game draws its own faces (its package's web/cards.js).
const W = 60;
const H = 96;
let faces = 0;

/** A card: ``inner`` inside the frame; ``kind`` (a game's own word: "light", "rare") goes on
 * the SVG as ``data-kind``, for the styles and the tests that tell the kinds apart. */
export function frame(inner, { border = "#7a1d1d", fill = "#fbf4e4", label = "", kind = "" } = {}) {
  const kindAttr = kind ? ` data-kind="${kind}"` : "";
  // the art is clipped to the card's rounded face (a clip of its own: ids are per page)
  const clip = `card-face-${(faces += 1)}`;
  return `<svg class="card-svg"${kindAttr} viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}" xmlns="http://www.w3.org/2000/svg">
<clipPath id="${clip}"><rect x="2" y="2" width="${W - 4}" height="${H - 4}" rx="4"/></clipPath>
<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="5" fill="${fill}"/>
<g clip-path="url(#${clip})">${inner}</g>
<rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="5" fill="none" stroke="${border}" stroke-width="2"/></svg>`;
}

export const blossom = (x, y, r, petal, centre = "#f7d34a") =>
  [0, 72, 144, 216, 288]
    .map((a) => {
      const rad = (a * Math.PI) / 180;
      return `<circle cx="${(x + Math.cos(rad) * r * 0.9).toFixed(1)}" cy="${(y + Math.sin(rad) * r * 0.9).toFixed(1)}" r="${(r * 0.75).toFixed(1)}" fill="${petal}"/>`;
    })
    .join("") + `<circle cx="${x}" cy="${y}" r="${(r * 0.45).toFixed(1)}" fill="${centre}"/>`;

export function cardBack(label = "") {
  return frame(
    `<rect x="0" y="0" width="60" height="96" fill="#20202a"/><rect x="6" y="6" width="48" height="84" rx="3" fill="#8b1e1e"/>
     <circle cx="30" cy="48" r="12" fill="none" stroke="#e8c170" stroke-width="2"/>`,
    { border: "#111", fill: "#20202a", label },
  );
}
