// Coach mode beside the table: what the game says the seat still needs (the renderer's
// `coachNeeds` hook: a yaku's missing cards, Ohanami's colours), and the coach's note
// after a move the strong bot judged clearly worse (sent by the server).
import { h } from "../api.js";

/** The note's text in the reader's language (the server sends all three). */
export function noteText(note, t, lang) {
  const played = note.played_texts?.[lang] ?? note.played_text;
  const better = note.texts?.[lang] ?? note.better_text;
  return t("coach.note", { played, better });
}

export function renderCoach(panel, { frame, t, lang, hints, client, ctx }) {
  const seat = frame.seat;
  const coached = seat !== null && frame.table.seats[seat]?.coach;
  panel.hidden = !coached;
  if (!coached) return;
  const needs = client?.coachNeeds && ctx ? client.coachNeeds(frame.view, seat, ctx) : null;
  const list = h("ul", { id: "coach-needs", class: "coach-needs" });
  if (needs) list.append(...needs.map((line) => h("li", { class: "coach-need" }, line)));
  if (!needs || !hints) list.append(h("li", { class: "muted" }, t(hints ? "coach.watching" : "coach.words")));
  if (!hints) {
    panel.replaceChildren(h("h3", {}, t("coach.title")), list);
    return;
  }
  const note = frame.coach;
  const noteElement = note
    ? h("p", { id: "coach-note", class: "coach-note", "data-version": note.version }, noteText(note, t, lang))
    : h("p", { id: "coach-note", class: "coach-note muted", "data-version": "" }, t("coach.no_note"));
  panel.replaceChildren(h("h3", {}, t("coach.title")), list, noteElement);
}
