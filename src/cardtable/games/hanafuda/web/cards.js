// The 48 hanafuda cards drawn as SVG: each month's plant, with the light, animal or ribbon.
import { blossom, frame } from "/static/js/cards.js";

const PLANTS = {
  1: (v) => // pine: layered dark-green crowns on a brown trunk
    `<path d="M${24 + v} 96 C${26 + v} 70 ${30 + v} 58 ${34 + v} 44" stroke="#6b3e1f" stroke-width="5" fill="none"/>
     <ellipse cx="${30 + v}" cy="46" rx="20" ry="8" fill="#1f5a2a"/><ellipse cx="${36 + v}" cy="62" rx="18" ry="7" fill="#2d7136"/>
     <ellipse cx="${22 + v}" cy="76" rx="17" ry="7" fill="#1f5a2a"/>`,
  2: (v) => // plum: dark branch with red blossoms
    `<path d="M0 ${80 - v} Q30 ${60 - v} 60 ${40 + v}" stroke="#4a2c1a" stroke-width="4" fill="none"/>
     ${blossom(14, 72 - v, 5, "#d2283c")}${blossom(32, 60, 5, "#d2283c")}${blossom(48, 50 + v, 5, "#d2283c")}${blossom(24, 82, 4, "#d2283c")}`,
  3: (v) => // cherry: pink blossom clouds
    `${blossom(12 + v, 64, 6, "#f4a7c0", "#e0607e")}${blossom(30, 56 + v, 7, "#f7b9cd", "#e0607e")}${blossom(48 - v, 66, 6, "#f4a7c0", "#e0607e")}
     ${blossom(22, 80, 6, "#f7b9cd", "#e0607e")}${blossom(42, 84 - v, 6, "#f4a7c0", "#e0607e")}`,
  4: (v) => // wisteria: purple clusters hanging from the top
    [10, 24, 38, 52]
      .map((x, i) =>
        [0, 1, 2, 3, 4]
          .map((k) => `<circle cx="${x + (k % 2 ? 2 : -2)}" cy="${8 + k * 7 + ((i + v) % 2) * 4}" r="${4 - k * 0.5}" fill="${k % 2 ? "#8e5bb5" : "#6d3f99"}"/>`)
          .join(""),
      )
      .join("") + `<path d="M0 6 Q30 12 60 4" stroke="#3d6b2a" stroke-width="3" fill="none"/>`,
  5: (v) => // iris: blade leaves and purple flowers
    `<path d="M14 96 L${20 + v} 50 L22 96 M30 96 L${34 - v} 44 L38 96 M44 96 L${48 + v} 56 L50 96" fill="#2e7d32"/>
     <path d="M${20 + v} 52 l-6 -8 l6 -6 l6 6 z M${34 - v} 46 l-7 -9 l7 -7 l7 7 z" fill="#5e35b1"/>
     <path d="M${48 + v} 58 l-5 -7 l5 -5 l5 5 z" fill="#7e57c2"/>`,
  6: (v) => // peony: big red flower and leaves
    `<path d="M10 92 Q20 70 30 ${74 + v} Q44 70 52 92 Z" fill="#2e7d32"/>
     <circle cx="${30 + v}" cy="66" r="14" fill="#c2185b"/><circle cx="${30 + v}" cy="66" r="9" fill="#e91e63"/>
     <circle cx="${30 + v}" cy="66" r="4" fill="#f8bbd0"/>`,
  7: (v) => // bush clover: arching twigs with small red-purple leaves
    [0, 1, 2]
      .map((k) => {
        const x = 8 + k * 18 + v;
        const leaves = [0, 1, 2, 3, 4]
          .map((j) => `<ellipse cx="${x + j * 4}" cy="${92 - j * 10}" rx="3.2" ry="2" fill="${j % 2 ? "#a33a5b" : "#5f8f3a"}"/>`)
          .join("");
        return `<path d="M${x} 96 Q${x + 6} 70 ${x + 18} 50" stroke="#6d4c41" stroke-width="1.5" fill="none"/>${leaves}`;
      })
      .join(""),
  8: (v) => // susuki grass: a dark hill with pale grass strokes
    `<path d="M0 96 L0 ${62 + v} Q30 ${40 + v} 60 ${62 - v} L60 96 Z" fill="#2b2b2b"/>
     ${[8, 16, 24, 32, 40, 48].map((x) => `<path d="M${x} 94 Q${x + 2} 76 ${x + 6} ${62 + v}" stroke="#d9d3bf" stroke-width="1.2" fill="none"/>`).join("")}`,
  9: (v) => // chrysanthemum: yellow rayed flowers
    [
      [22 + v, 62, 11],
      [44 - v, 78, 9],
    ]
      .map(
        ([x, y, r]) =>
          Array.from({ length: 12 }, (_, k) => {
            const a = (k * 30 * Math.PI) / 180;
            return `<ellipse cx="${(x + Math.cos(a) * r * 0.6).toFixed(1)}" cy="${(y + Math.sin(a) * r * 0.6).toFixed(1)}" rx="${(r * 0.45).toFixed(1)}" ry="${(r * 0.18).toFixed(1)}" transform="rotate(${k * 30} ${(x + Math.cos(a) * r * 0.6).toFixed(1)} ${(y + Math.sin(a) * r * 0.6).toFixed(1)})" fill="#f9a825"/>`;
          }).join("") + `<circle cx="${x}" cy="${y}" r="${r * 0.3}" fill="#e65100"/>`,
      )
      .join(""),
  10: (v) => // maple: red star-shaped leaves
    [
      [16 + v, 20],
      [40, 32 + v],
      [22, 48],
      [46 - v, 62],
      [18, 78],
    ]
      .map(([x, y]) => {
        const points = Array.from({ length: 10 }, (_, k) => {
          const r = k % 2 ? 3.5 : 8;
          const a = ((k * 36 - 90) * Math.PI) / 180;
          return `${(x + Math.cos(a) * r).toFixed(1)},${(y + Math.sin(a) * r).toFixed(1)}`;
        });
        return `<polygon points="${points.join(" ")}" fill="#c62828"/>`;
      })
      .join(""),
  11: (v) => // willow: drooping green strands
    [6, 16, 26, 36, 46, 56]
      .map((x, k) => `<path d="M${x} 0 Q${x + 6 + v} 30 ${x - 2} ${56 + (k % 3) * 10}" stroke="#558b2f" stroke-width="2.2" fill="none"/>`)
      .join(""),
  12: (v) => // paulownia: large leaves and a purple flower spike
    `<path d="M6 96 Q14 66 30 ${70 + v} Q46 66 54 96 Z" fill="#33691e"/>
     <path d="M30 ${70 + v} L30 40" stroke="#33691e" stroke-width="2"/>
     ${[0, 1, 2, 3].map((k) => `<circle cx="${k % 2 ? 34 : 26}" cy="${38 + k * 6}" r="4" fill="#7b1fa2"/>`).join("")}`,
};

// -- motifs ------------------------------------------------------------------------------
const MOTIFS = {
  crane: `<circle cx="44" cy="22" r="12" fill="#d32f2f"/><ellipse cx="26" cy="52" rx="12" ry="8" fill="#fff" stroke="#333"/>
          <path d="M30 46 Q38 30 34 22" stroke="#fff" stroke-width="4" fill="none"/><circle cx="34" cy="22" r="3" fill="#d32f2f"/>`,
  curtain: `<rect x="8" y="22" width="44" height="30" fill="#fff" stroke="#b71c1c" stroke-width="2"/>
            ${[0, 1, 2, 3].map((k) => `<rect x="${10 + k * 11}" y="24" width="6" height="26" fill="#c62828"/>`).join("")}`,
  moon: `<rect x="0" y="0" width="60" height="60" fill="#c62828"/><circle cx="30" cy="30" r="18" fill="#fffde7"/>`,
  rain_man: `<path d="M14 40 Q30 18 46 40 Z" fill="#fbc02d"/><path d="M30 40 L30 62" stroke="#5d4037" stroke-width="2"/>
             <circle cx="22" cy="50" r="6" fill="#fff" stroke="#333"/><rect x="16" y="56" width="12" height="16" fill="#d32f2f"/>`,
  phoenix: `<path d="M30 20 Q52 30 44 54 Q36 40 30 56 Q24 40 16 54 Q8 30 30 20 Z" fill="#f57c00" stroke="#6a1b9a" stroke-width="2"/>
            <circle cx="30" cy="26" r="3" fill="#d32f2f"/>`,
  bush_warbler: `<ellipse cx="38" cy="38" rx="10" ry="6" fill="#7cb342"/><circle cx="46" cy="34" r="4" fill="#7cb342"/><path d="M50 34 l4 1 l-4 1" fill="#333"/>`,
  cuckoo: `<rect x="0" y="0" width="60" height="36" fill="#1a237e"/><circle cx="48" cy="12" r="6" fill="#fff59d"/>
           <ellipse cx="26" cy="24" rx="11" ry="5" fill="#212121"/><path d="M36 24 l6 -3 l-2 4 z" fill="#212121"/>`,
  bridge: `<path d="M4 52 L20 44 L36 52 L52 44" stroke="#5d4037" stroke-width="6" fill="none"/>`,
  butterflies: `<ellipse cx="20" cy="30" rx="7" ry="4" fill="#fdd835" transform="rotate(-30 20 30)"/><ellipse cx="28" cy="30" rx="7" ry="4" fill="#fb8c00" transform="rotate(30 28 30)"/>
                <ellipse cx="40" cy="42" rx="6" ry="3.5" fill="#4fc3f7" transform="rotate(-30 40 42)"/><ellipse cx="47" cy="42" rx="6" ry="3.5" fill="#8e24aa" transform="rotate(30 47 42)"/>`,
  boar: `<ellipse cx="30" cy="42" rx="16" ry="9" fill="#6d4c41"/><circle cx="44" cy="38" r="5" fill="#6d4c41"/><path d="M48 40 l4 2" stroke="#fff" stroke-width="1.5"/>
         <rect x="20" y="48" width="3" height="8" fill="#4e342e"/><rect x="36" y="48" width="3" height="8" fill="#4e342e"/>`,
  geese: `<rect x="0" y="0" width="60" height="40" fill="#d84315" opacity="0.35"/>
          ${[0, 1, 2].map((k) => `<path d="M${12 + k * 14} ${20 + k * 5} l6 5 l6 -5" stroke="#212121" stroke-width="2.5" fill="none"/>`).join("")}`,
  sake_cup: `<ellipse cx="30" cy="40" rx="16" ry="7" fill="#c62828" stroke="#fbc02d" stroke-width="2"/><rect x="24" y="44" width="12" height="6" fill="#c62828"/>
             <circle cx="30" cy="40" r="4" fill="#fbc02d"/>`,
  deer: `<ellipse cx="30" cy="44" rx="13" ry="7" fill="#a1662f"/><circle cx="42" cy="34" r="5" fill="#a1662f"/>
         <path d="M42 30 l-3 -10 m3 10 l4 -10 m-5 2 l-4 -2 m8 2 l3 -2" stroke="#5d4037" stroke-width="1.5" fill="none"/>
         <rect x="22" y="50" width="2.5" height="10" fill="#6d4c41"/><rect x="36" y="50" width="2.5" height="10" fill="#6d4c41"/>`,
  swallow: `<path d="M14 30 Q30 36 46 26 L40 34 Q30 40 20 38 Z" fill="#212121"/><path d="M20 38 l-8 6 m8 -6 l-2 8" stroke="#212121" stroke-width="2"/>`,
  lightning: `<rect x="0" y="0" width="60" height="96" fill="#212121" opacity="0.85"/><path d="M34 4 L22 40 L32 40 L20 80" stroke="#e53935" stroke-width="4" fill="none"/>`,
  yellow_paulownia: `<rect x="0" y="0" width="60" height="34" fill="#fdd835" opacity="0.8"/>`,
};

function ribbon(card) {
  const blue = card.tags.includes("blue_ribbon");
  const poetry = card.tags.includes("poetry_ribbon");
  const colour = blue ? "#3949ab" : "#c62828";
  const text = poetry
    ? `<path d="M28 16 v8 M31 22 v9 M28 30 v7" stroke="#111" stroke-width="1.6"/>`
    : "";
  return `<g transform="rotate(-10 30 30)"><rect x="22" y="6" width="14" height="48" fill="${colour}" stroke="#fff" stroke-width="1"/>${text}</g>`;
}

function lightSky(card) {
  return card.kind === "light" && !card.tags.includes("moon")
    ? `<rect x="0" y="0" width="60" height="30" fill="#e53935" opacity="0.25"/>`
    : "";
}

/** A card's face as SVG text; ``points``: its value in the corner (off in the games that
 * score by yaku alone, koi-koi: a number there would teach a rule that does not hold). */
export function hanafudaCard(card, lang = "en", { points = true } = {}) {
  const v = (card.code.charCodeAt(3) - 49) * 2 - 3; // a little variation between cards of a month
  const plant = PLANTS[card.month](v);
  const motif = card.kind === "ribbon" ? ribbon(card) : card.tags.map((t) => MOTIFS[t] || "").join("");
  const back = card.tags.includes("lightning") || card.tags.includes("moon") ? motif + plant : lightSky(card) + plant + motif;
  const badge = { light: "#f9a825", animal: "#6d4c41", ribbon: "#c62828", plain: "#9e9e9e" }[card.kind];
  const corner = `<circle cx="9" cy="9" r="7" fill="${badge}" stroke="#fff" stroke-width="1"/>
    <text x="9" y="12" font-size="8" text-anchor="middle" fill="#fff" font-family="sans-serif" font-weight="700">${card.month}</text>` +
    (points ? `<text class="value" x="53" y="91" font-size="8" text-anchor="end" fill="#333" font-family="sans-serif" font-weight="700" stroke="#fbf4e4" stroke-width="2" paint-order="stroke">${card.value}</text>` : "");
  const name = card.name[lang] || card.name.en;
  return frame(back + corner, { label: `${name} (${card.code})` });
}
