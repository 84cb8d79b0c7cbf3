// Coach mode beside the table: what the game says the seat still needs (the renderer's
// `coachNeeds` hook: a yaku's missing cards, Ohanami's colours), and the coach's note: the
// server's after a move the strong bot judged clearly worse, or the game's own (the
// renderer's `coachNote` hook: 7 słów's word against the solver's once the round is scored).
// On a wide screen the panel is in the side column, near the top; on a phone it is a
// compact bar pinned to the top of the screen (the hand is pinned to the bottom), its
// note in a line or two, the rest a press away.
import { h } from "../api.js";

/** The note's text in the reader's language (the server sends all three). */
export function noteText(note, t, lang) {
  const played = note.played_texts?.[lang] ?? note.played_text;
  const better = note.texts?.[lang] ?? note.better_text;
  return t("coach.note", { played, better });
}

/** Whether the panel is on screen (else the page says a new note in a toast as well). */
export function coachInSight(panel) {
  if (panel.hidden) return false;
  const box = panel.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight && box.height > 0;
}

let open = false; // the phone's bar opened to show everything (kept across redraws)

export function renderCoach(panel, { frame, t, lang, hints, client, ctx }) {
  const seat = frame.seat;
  const coached = seat !== null && frame.table.seats[seat]?.coach;
  panel.hidden = !coached;
  document.body.classList.toggle("coached", Boolean(coached));
  if (!coached) return;
  const needs = client?.coachNeeds && ctx ? client.coachNeeds(frame.view, seat, ctx) : null;
  const list = h("ul", { id: "coach-needs", class: "coach-needs" });
  if (needs) list.append(...needs.map((line) => h("li", { class: "coach-need" }, line)));
  if (!needs && hints) list.append(h("li", { class: "muted" }, t("coach.watching")));
  const own = !hints && client?.coachNote && ctx ? client.coachNote(frame.view, seat, ctx) : null;
  const note = frame.coach;
  let noteElement;
  if (own) noteElement = h("p", { id: "coach-note", class: "coach-note", "data-version": `round-${own.round}` }, own.text);
  else if (note) noteElement = h("p", { id: "coach-note", class: "coach-note", "data-version": note.version }, noteText(note, t, lang));
  else noteElement = h("p", { id: "coach-note", class: "coach-note muted", "data-version": "" }, t(hints ? "coach.no_note" : "coach.words"));
  const toggle = h("button", {
    type: "button",
    id: "coach-toggle",
    class: "coach-toggle",
    "aria-expanded": String(open),
    "aria-controls": "coach-needs",
    "aria-label": t(open ? "coach.less" : "coach.more"),
    onclick: () => {
      open = !open;
      panel.classList.toggle("open", open); // opened, it lies over the board until shut
      toggle.setAttribute("aria-expanded", String(open));
      toggle.setAttribute("aria-label", t(open ? "coach.less" : "coach.more"));
    },
  }, "▾");
  panel.classList.toggle("open", open);
  panel.replaceChildren(h("h3", { class: "coach-head" }, t("coach.title"), toggle), noteElement, list);
  keepRoomFor(panel);
}

let watched = null;
/** On a phone the page keeps the pinned bar's height free at its top (CSS --coach-bar),
 * measured while the bar is shut, and again whenever its size changes (a longer note, a
 * turned phone, a window made narrow). */
function keepRoomFor(panel) {
  if (watched === panel) return;
  watched = panel;
  new ResizeObserver(() => {
    if (!panel.classList.contains("open")) document.body.style.setProperty("--coach-bar", `${panel.offsetHeight}px`);
  }).observe(panel);
}
