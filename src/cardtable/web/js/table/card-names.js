// Reading the cards: the "Card labels" switch (remembered by the browser) and a card's name
// on a long press. A hover shows the card's title as a tooltip; on a phone, where nothing
// hovers, holding a card for a moment shows its name in a bubble, and that press does not
// play the card (a plain tap still does, as before).
const LABELS_KEY = "cardtable.labels";
const HOLD_MS = 450;

export function labelsOn() {
  return localStorage.getItem(LABELS_KEY) === "on";
}

export function setLabels(on) {
  localStorage.setItem(LABELS_KEY, on ? "on" : "off");
}

/** Long press on any element of `root` that carries data-name: a bubble with the name. */
export function nameOnHold(root, bubble) {
  let timer = null;
  let held = false;
  let start = null;
  const hide = () => { bubble.hidden = true; };
  const cancel = () => { clearTimeout(timer); timer = null; };
  root.addEventListener("pointerdown", (event) => {
    const card = event.target.closest?.("[data-name]");
    hide();
    held = false;
    if (!card || !root.contains(card) || event.button > 0) return;
    start = { x: event.clientX, y: event.clientY };
    cancel();
    timer = setTimeout(() => {
      held = true;
      bubble.textContent = card.dataset.name;
      bubble.hidden = false;
      const box = card.getBoundingClientRect();
      const width = bubble.offsetWidth;
      const left = Math.min(Math.max(4, box.left + box.width / 2 - width / 2), document.documentElement.clientWidth - width - 4);
      bubble.style.left = `${left + window.scrollX}px`;
      bubble.style.top = `${Math.max(4, box.top + window.scrollY - bubble.offsetHeight - 6)}px`;
    }, HOLD_MS);
  });
  root.addEventListener("pointermove", (event) => {
    if (start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > 10) cancel();
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) root.addEventListener(type, cancel);
  // the click that ends a long press only showed the name: it plays nothing
  root.addEventListener("click", (event) => {
    if (!held) return;
    held = false;
    event.preventDefault();
    event.stopPropagation();
  }, true);
  // a long press on a phone would open the browser's menu over the card
  root.addEventListener("contextmenu", (event) => {
    if (event.target.closest?.("[data-name]")) event.preventDefault();
  });
  document.addEventListener("scroll", hide, { passive: true });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
}
