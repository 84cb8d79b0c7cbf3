// Card motion between two frames (FLIP): every element marked data-anim="ID" that was on
// the board before slides from where it was to where it is now; a new one marked
// data-from="ZONE" slides in from that zone (another player's hidden hand, the stock).
const DURATION = 380;
const EASING = "cubic-bezier(.2,.8,.2,1)";

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Where every card and zone of `root` is now (before a re-render). */
export function snapshot(root) {
  const cards = new Map();
  const zones = new Map();
  for (const element of root.querySelectorAll("[data-anim]")) {
    cards.set(element.dataset.anim, element.getBoundingClientRect());
  }
  for (const element of root.querySelectorAll("[data-zone]")) {
    zones.set(element.dataset.zone, element.getBoundingClientRect());
  }
  return { cards, zones };
}

function slide(element, from, to) {
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const sx = from.width / to.width;
  const sy = from.height / to.height;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(sx - 1) < 0.02) return false;
  element.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})`, transformOrigin: "top left", zIndex: 5 },
      { transform: "none", transformOrigin: "top left", zIndex: 5 },
    ],
    { duration: DURATION, easing: EASING },
  );
  return true;
}

function arrive(element, zone, to) {
  const dx = zone.left + zone.width / 2 - (to.left + to.width / 2);
  const dy = zone.top + zone.height / 2 - (to.top + to.height / 2);
  element.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(.6)`, opacity: 0.3, zIndex: 5 },
      { transform: "none", opacity: 1, zIndex: 5 },
    ],
    { duration: DURATION + 80, easing: EASING },
  );
  return true;
}

/** Animate `root`'s cards from where `before` saw them; returns how many moved. */
export function animateFrom(root, before) {
  if (!before || reducedMotion()) return 0;
  let moved = 0;
  for (const element of root.querySelectorAll("[data-anim]")) {
    const now = element.getBoundingClientRect();
    if (!now.width || !now.height) continue;
    const old = before.cards.get(element.dataset.anim);
    if (old && old.width) {
      if (slide(element, old, now)) moved += 1;
      continue;
    }
    const zone = before.zones.get(element.dataset.from);
    if (zone && arrive(element, zone, now)) moved += 1;
  }
  return moved;
}
