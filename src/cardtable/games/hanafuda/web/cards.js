// The 48 hanafuda cards drawn as SVG in the traditional motifs: each month's plant, and over
// it the card's light, animal or ribbon. Everything is keyed by the deck's own data (month,
// kind, tags: /api/cards), so no list of cards is repeated here.
//
// Read at 34 px (a pile) as well as full size, the four kinds differ by colour and shape
// before any detail: a light stands on a gold ground inside a gold frame, with its red sun or
// moon; a ribbon is a broad red or blue band across the card; an animal is one large dark
// figure in the middle; a plain is the bare month plant on the cream card.
import { blossom, frame } from "/static/js/cards.js";

const f = (n) => Number(n.toFixed(1));

/** Points around a centre, alternating two radii: a star, a maple leaf, a flower's rays. */
function rays(x, y, count, outer, inner, turn = -90) {
  return Array.from({ length: count * 2 }, (_, k) => {
    const r = k % 2 ? inner : outer;
    const a = ((turn + (k * 180) / count) * Math.PI) / 180;
    return `${f(x + Math.cos(a) * r)},${f(y + Math.sin(a) * r)}`;
  }).join(" ");
}

// -- the month plants (v: a little variation between a month's cards) -----------------------

const pineCrown = (x, y, w) =>
  `<path d="M${x - w} ${y} Q${x - w * 0.4} ${y - w * 0.55} ${x} ${y - w * 0.5} Q${x + w * 0.5} ${y - w * 0.55} ${x + w} ${y} Q${x} ${y + 3} ${x - w} ${y} Z" fill="#1d5a2c"/>` +
  [-0.6, -0.2, 0.2, 0.6].map((k) => `<path d="M${f(x + k * w)} ${y - 1} l${f(k * 3)} ${f(-w * 0.3)}" stroke="#4d9a55" stroke-width="1"/>`).join("");

const plumBranch = (v) =>
  `<path d="M-2 ${84 - v} C14 ${78 - v} 18 64 30 58 S50 46 62 ${36 + v}" stroke="#3b2414" stroke-width="4.5" fill="none" stroke-linecap="round"/>
   <path d="M24 61 Q20 48 28 40 M44 50 Q50 60 46 68" stroke="#3b2414" stroke-width="2.2" fill="none"/>`;

const cherryCloud = (x, y) =>
  `<circle cx="${x}" cy="${y}" r="9" fill="#f9c9d6"/>${blossom(x - 3, y - 2, 3.4, "#f48fb1", "#c2185b")}${blossom(x + 4, y + 3, 3, "#f8bbd0", "#c2185b")}`;

const wisteriaCluster = (x, top, length, shade) =>
  Array.from({ length }, (_, k) =>
    `<ellipse cx="${f(x + (k % 2 ? 1.6 : -1.6))}" cy="${top + k * 5.2}" rx="${f(Math.max(0.6, 4.2 - k * 0.45))}" ry="3" fill="${(k + shade) % 2 ? "#9a6fc4" : "#6a3d98"}"/>`).join("");

const irisFlower = (x, y) =>
  `<path d="M${x} ${y} l-6 -2 l-2 -7 l5 3 z M${x} ${y} l6 -2 l2 -7 l-5 3 z" fill="#4527a0"/>
   <path d="M${x} ${y + 1} l-3 -11 l3 -3 l3 3 z" fill="#7e57c2"/><path d="M${x - 3} ${y + 1} l3 4 l3 -4 z" fill="#ffd54f"/>`;

const peonyFlower = (x, y, r) =>
  `<circle cx="${x}" cy="${y}" r="${r}" fill="#b0123e"/>${blossom(x, y, r * 0.62, "#e84a7f", "#ffe0ec")}`;

const cloverTwig = (x, lean) =>
  `<path d="M${x} 98 Q${x + lean * 0.4} 70 ${x + lean} 46" stroke="#6d4c41" stroke-width="1.4" fill="none"/>` +
  [0, 1, 2, 3, 4, 5].map((j) => {
    const t = j / 6;
    const cx = f(x + lean * t * (0.4 + 0.6 * t));
    const cy = f(96 - 50 * t);
    return `<ellipse cx="${cx - 3}" cy="${cy}" rx="3" ry="1.6" fill="#4f7f2e" transform="rotate(-30 ${cx - 3} ${cy})"/>` +
      `<circle cx="${cx + 2.5}" cy="${cy - 1.5}" r="1.8" fill="#c2185b"/>`;
  }).join("");

const mapleLeaf = (x, y, r, colour = "#c62828") =>
  `<polygon points="${rays(x, y, 5, r, r * 0.45)}" fill="${colour}"/><path d="M${x} ${y} l0 ${f(r * 0.9)}" stroke="#7f1d1d" stroke-width="1"/>`;

const chrysanthemum = (x, y, r) =>
  `<polygon points="${rays(x, y, 14, r, r * 0.55)}" fill="#f4b400" stroke="#e07b00" stroke-width="0.6"/>
   <polygon points="${rays(x, y, 10, r * 0.6, r * 0.32, -72)}" fill="#ffe082"/><circle cx="${x}" cy="${y}" r="${f(r * 0.22)}" fill="#e65100"/>`;

const paulowniaLeaf = (x, y, k) => {
  const p = (dx, dy) => `${f(x + dx * k)} ${f(y + dy * k)}`;
  return `<path d="M${p(0, 12)} C${p(-14, 4)} ${p(-16, -10)} ${p(-6, -12)} C${p(-2, -13)} ${p(0, -9)} ${p(0, -7)}
    C${p(0, -9)} ${p(2, -13)} ${p(6, -12)} C${p(16, -10)} ${p(14, 4)} ${p(0, 12)} Z" fill="#2e6b28" stroke="#173f14" stroke-width="0.8"/>
    <path d="M${p(0, 11)} L${p(0, -6)} M${p(0, 2)} l${f(-6 * k)} ${f(-5 * k)} M${p(0, 2)} l${f(6 * k)} ${f(-5 * k)}" stroke="#173f14" stroke-width="0.7" fill="none"/>`;
};

const paulowniaSpike = (x, top, flowers) =>
  `<path d="M${x} ${top + flowers * 5 + 8} L${x} ${top}" stroke="#4e342e" stroke-width="1.4"/>` +
  Array.from({ length: flowers }, (_, k) =>
    `<circle cx="${x + (k % 2 ? 2.6 : -2.6)}" cy="${top + k * 5}" r="${f(2.6 + k * 0.15)}" fill="${k % 2 ? "#8e24aa" : "#6a1b9a"}"/>`).join("");

const PLANTS = {
  1: (v) => // pine: a bent brown trunk under flat dark-green crowns
    `<path d="M${22 + v} 98 C${16 + v} 80 ${30 + v} 70 ${26 + v} 56 S${34} 38 ${44} 30" stroke="#5b3a1e" stroke-width="5" fill="none" stroke-linecap="round"/>
     ${pineCrown(40 + v, 34, 16)}${pineCrown(18 + v, 56, 15)}${pineCrown(40 - v, 70, 14)}${pineCrown(16, 84, 12)}`,
  2: (v) => // plum: a dark crooked branch in red blossom
    plumBranch(v) +
    [[10, 80 - v], [28, 56], [40, 50], [52, 40 + v], [26, 40], [46, 66], [18, 70]]
      .map(([x, y], k) => blossom(x, y, k % 3 ? 3.6 : 4.4, "#d81b3c", "#ffd54f")).join(""),
  3: (v) => // cherry: clouds of pink blossom over a dark branch
    `<path d="M-2 ${92 - v} Q24 70 62 ${78 + v}" stroke="#4e342e" stroke-width="3.5" fill="none"/>` +
    [[12, 70], [30, 62 + v], [48, 70], [20, 86], [42, 88 - v]].map(([x, y]) => cherryCloud(x, y)).join(""),
  4: (v) => // wisteria: long purple clusters hanging from a twining vine
    `<path d="M-2 8 Q16 ${2 + v} 30 10 T62 6" stroke="#33691e" stroke-width="3" fill="none"/>` +
    [[8, 10, 9], [22, 12, 12], [36, 11, 10], [50, 9, 12]]
      .map(([x, top, length], k) => wisteriaCluster(x + (k % 2 ? v * 0.5 : 0), top, length - (k === 1 ? 0 : v > 0 ? 1 : 0), k)).join("") +
    `<ellipse cx="14" cy="12" rx="6" ry="2.4" fill="#4f8f2e"/><ellipse cx="44" cy="10" rx="6" ry="2.4" fill="#4f8f2e"/>`,
  5: (v) => // iris: sword leaves and violet flowers by the water
    `<rect x="0" y="84" width="60" height="14" fill="#9cc3d9"/>
     <path d="M10 98 L${16 + v} 52 L19 98 Z M24 98 L${30 - v} 42 L33 98 Z M38 98 L${44 + v} 50 L47 98 Z M50 98 L${54} 62 L57 98 Z" fill="#2e7d32"/>` +
    irisFlower(16 + v, 54) + irisFlower(30 - v, 44) + irisFlower(44 + v, 52),
  6: (v) => // peony: big crimson flowers among green leaves
    `<path d="M4 98 Q14 72 26 ${80 + v} Q36 66 58 98 Z" fill="#2e7d32"/>
     <path d="M12 84 q6 -10 14 -8 M36 80 q8 -6 14 2" stroke="#1b5e20" stroke-width="1.5" fill="none"/>` +
    peonyFlower(30 + v, 68, 13) + peonyFlower(10, 88 - v, 7),
  7: (v) => // bush clover: arching twigs with small red flowers
    cloverTwig(6 + v, 24) + cloverTwig(24, 22) + cloverTwig(40 - v, 18) + cloverTwig(54, -6),
  8: (v) => // susuki: a black hill under silver grass
    `<path d="M-2 98 L-2 ${64 + v} Q30 ${38 + v} 62 ${60 - v} L62 98 Z" fill="#1c1c1c"/>` +
    [6, 14, 22, 30, 38, 46, 54].map((x, k) =>
      `<path d="M${x} 98 Q${x + 2} 80 ${x + 7} ${f(56 + v + Math.abs(3 - k) * 3)}" stroke="#e8e2cc" stroke-width="1.1" fill="none"/>`).join(""),
  9: (v) => // chrysanthemum: golden rayed flowers with leaves
    `<path d="M20 98 Q22 80 26 70 M44 98 Q42 86 40 78" stroke="#33691e" stroke-width="2" fill="none"/>
     <ellipse cx="16" cy="86" rx="7" ry="3.5" fill="#558b2f"/><ellipse cx="50" cy="90" rx="7" ry="3.5" fill="#558b2f"/>` +
    chrysanthemum(26 + v, 68, 12) + chrysanthemum(44 - v, 82, 9),
  10: (v) => // maple: red star-shaped leaves on dark twigs
    `<path d="M62 ${10 + v} Q30 30 36 60 Q38 80 20 98" stroke="#4e342e" stroke-width="2" fill="none"/>` +
    [[14 + v, 18, 8], [42, 24 + v, 9], [24, 44, 9], [48, 56 - v, 8], [16, 70, 8], [40, 82, 9]]
      .map(([x, y, r], k) => mapleLeaf(x, y, r, k % 2 ? "#b71c1c" : "#e53935")).join(""),
  11: (v) => // willow: green strands drooping from above
    [4, 13, 22, 31, 40, 49, 58]
      .map((x, k) => `<path d="M${x} -2 Q${x + 8 + v} 30 ${x - 1} ${58 + (k % 3) * 10}" stroke="${k % 2 ? "#7cb342" : "#33691e"}" stroke-width="2.4" fill="none"/>`).join(""),
  12: (v) => // paulownia: three upright violet flower spikes over broad heart-shaped leaves
    paulowniaSpike(18, 40 + v, 6) + paulowniaSpike(30, 30, 7) + paulowniaSpike(42, 40 - v, 6) +
    paulowniaLeaf(15, 80, 1) + paulowniaLeaf(45, 81, 1) + paulowniaLeaf(30, 84 + v * 0.5, 0.9),
};

// -- the lights, animals and the plains with their own figure (keyed by the deck's tags) ------

const SUN = (x, y, r) => `<circle cx="${x}" cy="${y}" r="${r}" fill="#d7262e"/><circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="#f6c453" stroke-width="1.5"/>`;

const MOTIFS = {
  crane: // a red-crowned crane under a great red sun
    `${SUN(38, 22, 15)}
     <path d="M20 58 Q28 44 44 52 Q52 58 46 66 Q34 72 22 66 Z" fill="#fff" stroke="#222" stroke-width="1"/>
     <path d="M40 56 Q52 58 54 68 Q46 64 40 66 Z" fill="#1a1a1a"/>
     <path d="M24 58 Q14 44 22 30" stroke="#1a1a1a" stroke-width="3.2" fill="none"/>
     <circle cx="22" cy="29" r="3" fill="#fff" stroke="#222" stroke-width="0.6"/><circle cx="22" cy="27.6" r="1.5" fill="#d7262e"/>
     <path d="M20 29 l-7 2" stroke="#555" stroke-width="1.4"/>
     <path d="M30 69 L28 88 M36 69 L38 88" stroke="#333" stroke-width="1.3"/>`,
  curtain: // the cherry-viewing curtain, red and white with crests
    `<path d="M2 24 H58 V52 Q44 58 30 52 Q16 58 2 52 Z" fill="#fff" stroke="#8b1a1a" stroke-width="1.5"/>` +
    [0, 1, 2, 3, 4].map((k) => `<rect x="${3 + k * 11.2}" y="25" width="5.6" height="${k % 2 ? 29 : 27}" fill="#c62828"/>`).join("") +
    [14, 30, 46].map((x) => blossom(x, 38, 3, "#fff", "#c62828")).join("") +
    `<path d="M2 24 H58" stroke="#5d4037" stroke-width="3"/>`,
  moon: // the full moon rising over the susuki hill in a red sky
    `<rect x="0" y="0" width="60" height="70" fill="#c7202b"/><circle cx="30" cy="34" r="21" fill="#fff8dc" stroke="#f6c453" stroke-width="1.5"/>`,
  rain_man: // the poet Ono no Michikaze under an umbrella in the rain, a frog at his feet
    `<rect x="0" y="0" width="60" height="96" fill="#2b2d42"/>` +
    Array.from({ length: 9 }, (_, k) => `<path d="M${4 + k * 7} ${4 + (k % 3) * 9} l-3 9" stroke="#8da9c4" stroke-width="0.8"/>`).join(""),
  rain_man_figure:
    `<path d="M14 46 Q30 24 48 46 Z" fill="#f2b705" stroke="#7a5a00" stroke-width="1"/><path d="M31 36 L31 66" stroke="#5d4037" stroke-width="1.6"/>
     <circle cx="24" cy="52" r="5" fill="#fde7c8" stroke="#333" stroke-width="0.6"/><path d="M19 50 q5 -6 10 0" fill="#222"/>
     <path d="M16 58 H32 L34 82 H14 Z" fill="#c62828"/><path d="M16 66 H33" stroke="#1a237e" stroke-width="4"/>
     <ellipse cx="46" cy="88" rx="5" ry="3.4" fill="#7cb342"/><circle cx="49" cy="85" r="1.1" fill="#111"/>`,
  phoenix: // the phoenix with outspread many-coloured wings
    `${SUN(30, 22, 11)}
     <path d="M30 30 Q54 28 52 52 Q44 42 34 52 Q40 62 30 70 Q20 62 26 52 Q16 42 8 52 Q6 28 30 30 Z" fill="#f57c00" stroke="#4a148c" stroke-width="1.2"/>
     <path d="M30 34 Q46 36 46 48 M30 34 Q14 36 14 48" stroke="#2e7d32" stroke-width="2.5" fill="none"/>
     <path d="M26 50 Q30 58 34 50" stroke="#1565c0" stroke-width="2.5" fill="none"/>
     <path d="M30 30 Q28 22 32 18" stroke="#f57c00" stroke-width="3" fill="none"/><circle cx="32" cy="18" r="2.4" fill="#c62828"/>`,
  bush_warbler: // an olive-green warbler perched on the plum branch
    `<g transform="translate(33 40) scale(1.45) translate(-35 -39)"><path d="M22 40 Q30 30 42 34 Q48 38 42 44 Q32 48 22 40 Z" fill="#6b8e23" stroke="#2d3b0f" stroke-width="1"/>
     <circle cx="42" cy="33" r="5.5" fill="#7a9e2a" stroke="#2d3b0f" stroke-width="1"/><circle cx="44" cy="32" r="1" fill="#111"/>
     <path d="M47 33 l5 1 l-5 1.5 z" fill="#3e2723"/><path d="M22 40 l-8 3 l7 1 z" fill="#556b1f"/></g>`,
  cuckoo: // a cuckoo crossing a crescent moon in the night sky, before the wisteria
    `<rect x="0" y="0" width="60" height="44" fill="#1a2a6c"/><circle cx="46" cy="16" r="8" fill="#f6c453"/><circle cx="42" cy="14" r="7" fill="#1a2a6c"/>`,
  cuckoo_bird:
    `<path d="M6 34 Q20 18 36 27 L54 18 L42 31 Q26 40 6 34 Z" fill="#111" stroke="#f6c453" stroke-width="0.8"/><circle cx="11" cy="32" r="1" fill="#fff"/>
     <path d="M6 34 l-5 1 l5 1.5 z" fill="#e0a526"/>`,
  bridge: // the eight-plank bridge zig-zagging over the iris pond
    `<path d="M-2 56 L22 44 L40 58 L62 46" stroke="#5d3a1a" stroke-width="8" fill="none" stroke-linejoin="bevel"/>
     <path d="M-2 56 L22 44 L40 58 L62 46" stroke="#a1713f" stroke-width="4" fill="none" stroke-dasharray="3 1.2"/>`,
  butterflies: // two butterflies over the peony
    `<g transform="translate(18 28)"><path d="M0 0 Q-12 -12 -12 2 Q-8 8 0 0 Q12 -12 12 2 Q8 8 0 0" fill="#1e88e5" stroke="#0d47a1"/><path d="M0 0 Q-6 10 -2 12 M0 0 Q6 10 2 12" stroke="#f9a825" stroke-width="2" fill="none"/></g>
     <g transform="translate(44 40) rotate(15)"><path d="M0 0 Q-10 -10 -10 2 Q-6 7 0 0 Q10 -10 10 2 Q6 7 0 0" fill="#f9a825" stroke="#8e24aa"/><path d="M0 0 Q-5 8 -2 10 M0 0 Q5 8 2 10" stroke="#8e24aa" stroke-width="2" fill="none"/></g>`,
  boar: // a wild boar charging through the clover
    `<path d="M10 58 Q12 40 32 40 Q48 40 52 50 L56 52 L52 58 Q46 64 30 64 Q14 66 10 58 Z" fill="#4e342e" stroke="#1b0f0a" stroke-width="1"/>
     <path d="M14 46 l4 -6 l4 5 M26 40 l3 -5 l3 5" stroke="#1b0f0a" stroke-width="1.2" fill="#4e342e"/><circle cx="47" cy="48" r="1.2" fill="#fff"/>
     <path d="M52 56 q3 -1 4 -5" stroke="#fff" stroke-width="1.2" fill="none"/>
     <path d="M18 62 l-2 10 M26 63 l0 10 M38 63 l1 10 M46 61 l3 9" stroke="#1b0f0a" stroke-width="2.2"/>`,
  geese: // three geese flying across a red evening sky
    `<rect x="0" y="0" width="60" height="60" fill="#c7202b"/>` +
    [[14, 16], [30, 24], [46, 32]].map(([x, y]) =>
      `<path d="M${x - 9} ${y - 4} Q${x - 4} ${y - 2} ${x} ${y + 2} Q${x + 4} ${y - 2} ${x + 9} ${y - 4} Q${x + 4} ${y + 2} ${x} ${y + 5} Q${x - 4} ${y + 2} ${x - 9} ${y - 4} Z" fill="#111"/>`).join(""),
  sake_cup: // the red lacquered sake cup with its gold longevity crest
    `<path d="M10 36 Q30 28 50 36 Q46 54 30 56 Q14 54 10 36 Z" fill="#b71c1c" stroke="#f6c453" stroke-width="2"/>
     <ellipse cx="30" cy="36" rx="20" ry="5" fill="#d32f2f" stroke="#f6c453" stroke-width="1.5"/>
     <circle cx="30" cy="46" r="5" fill="#f6c453"/><path d="M27 46 h6 M30 43 v6" stroke="#b71c1c" stroke-width="1.2"/>
     <path d="M22 56 H38 L36 62 H24 Z" fill="#8b1a1a" stroke="#f6c453" stroke-width="1"/>`,
  deer: // a stag turning his head among the maple leaves
    `<path d="M14 56 Q16 46 30 46 Q42 46 44 52 L46 40 Q48 36 52 38 L50 50 Q48 62 40 62 Q26 66 14 60 Z" fill="#a0522d" stroke="#4e2a12" stroke-width="1"/>
     <circle cx="22" cy="52" r="1.3" fill="#f5deb3"/><circle cx="30" cy="55" r="1.3" fill="#f5deb3"/><circle cx="36" cy="51" r="1.3" fill="#f5deb3"/>
     <path d="M49 38 l-3 -12 l-4 -2 M47 30 l4 -6 M50 38 l5 -10 l4 -1 M54 30 l-1 -5" stroke="#4e2a12" stroke-width="1.4" fill="none"/>
     <circle cx="50.5" cy="42" r="0.9" fill="#111"/><path d="M18 60 l-1 14 M24 62 l0 13 M36 62 l1 13 M42 60 l2 13" stroke="#4e2a12" stroke-width="2"/>`,
  swallow: // a swallow darting through the willow
    `<path d="M6 52 Q20 40 32 46 L54 32 L44 48 Q36 56 22 56 L8 66 L14 56 Z" fill="#111" stroke="#333" stroke-width="0.6"/>
     <path d="M30 50 Q36 52 40 50" stroke="#c62828" stroke-width="2" fill="none"/>`,
  lightning: // the thunder god's drum-stroke: red lightning on a black storm
    `<rect x="0" y="0" width="60" height="96" fill="#1a1a1a"/>`,
  lightning_bolt:
    `<path d="M28 40 L58 52 L40 58 L60 72" stroke="#c62828" stroke-width="4" fill="none"/>
     <circle cx="14" cy="72" r="8" fill="#6d4c41" stroke="#f6c453" stroke-width="1.5"/><circle cx="14" cy="72" r="3" fill="#f6c453"/>` +
    Array.from({ length: 6 }, (_, k) => `<path d="M${6 + k * 6} ${80 + (k % 2) * 3} l-2 8" stroke="#4fc3f7" stroke-width="1"/>`).join(""),
  yellow_paulownia: // the one plain coloured yellow (and, on old decks, the maker's mark)
    `<rect x="0" y="0" width="60" height="28" fill="#f6c92a"/>`,
};

// tags whose figure is drawn behind the plant (a sky, a storm) and, for some, one before it
const BEHIND = new Set(["moon", "geese", "rain_man", "lightning", "yellow_paulownia", "cuckoo"]);
const FRONT_OF = { rain_man: "rain_man_figure", lightning: "lightning_bolt", cuckoo: "cuckoo_bird" };

/** A tanzaku: a broad band with a notched foot, red or blue, the poetry ones inscribed. */
function ribbon(card) {
  const blue = card.tags.includes("blue_ribbon");
  const colour = blue ? "#1f3fa8" : "#c8102e";
  const verse = card.tags.includes("poetry_ribbon")
    ? `<path d="M27 16 q3 2 0 5 q-3 2 1 5 M31 24 v6 q2 2 -1 4 M27 34 q4 1 1 5 q-2 2 2 4" stroke="#111" stroke-width="1.6" fill="none" stroke-linecap="round"/>`
    : "";
  return `<g class="ribbon" transform="rotate(-10 30 34)">
    <path d="M20 6 H40 V62 L30 56 L20 62 Z" fill="${colour}" stroke="#fff" stroke-width="1.6"/>${verse}</g>`;
}

/** A light's setting: a gold ground, and a gold frame no other kind has. */
const LIGHT_GROUND = `<rect x="0" y="0" width="60" height="96" fill="#f3d27a"/>`;
const LIGHT_FRAME = `<rect class="light-frame" x="4" y="4" width="52" height="88" rx="3" fill="none" stroke="#b8860b" stroke-width="4"/>`;

/** The kind's colour: the corner badge that carries the month's number. */
const KIND_COLOUR = { light: "#d4a017", animal: "#5d4037", ribbon: "#c8102e", plain: "#8d8d8d" };

/** A card's face as SVG text; ``points``: its value in the corner (off in the games that
 * score by yaku alone, koi-koi: a number there would teach a rule that does not hold). */
export function hanafudaCard(card, lang = "en", { points = true } = {}) {
  const slot = Number(card.code.slice(3));
  const v = (slot - 2.5) * 2; // a little variation between a month's cards
  const figures = card.tags.filter((tag) => MOTIFS[tag]);
  // the two bare plains of a month face opposite ways
  const bare = card.kind === "plain" && !figures.length;
  const plant = bare && slot === 4 ? `<g transform="translate(60 0) scale(-1 1)">${PLANTS[card.month](v)}</g>` : PLANTS[card.month](v);
  const behind = figures.filter((tag) => BEHIND.has(tag)).map((tag) => MOTIFS[tag]).join("");
  const before = figures.map((tag) => (BEHIND.has(tag) ? MOTIFS[FRONT_OF[tag]] || "" : MOTIFS[tag])).join("");
  const light = card.kind === "light";
  const art = (light ? LIGHT_GROUND : "") + behind + plant + before + (card.kind === "ribbon" ? ribbon(card) : "") + (light ? LIGHT_FRAME : "");
  const corner = `<circle cx="10" cy="10" r="7.5" fill="${KIND_COLOUR[card.kind]}" stroke="#fff" stroke-width="1.2"/>
    <text x="10" y="13" font-size="8.5" text-anchor="middle" fill="#fff" font-family="sans-serif" font-weight="700">${card.month}</text>` +
    (points ? `<text class="value" x="52" y="90" font-size="9" text-anchor="end" fill="#222" font-family="sans-serif" font-weight="700" stroke="#fbf4e4" stroke-width="2.4" paint-order="stroke">${card.value}</text>` : "");
  const name = card.name[lang] || card.name.en;
  return frame(art + corner, {
    label: `${name} (${card.code})`,
    kind: card.kind,
    border: light ? "#8a6d0b" : "#7a1d1d",
  });
}
