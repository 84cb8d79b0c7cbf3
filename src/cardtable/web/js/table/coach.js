// Coach mode beside the table: what each reachable yaku still needs, in words, and the
// coach's note after a move the strong bot judged clearly worse (sent by the server).
import { h } from "../api.js";

/** The words for one yaku within reach ("Tanzaku: 3 of 5, 2 to go"). */
function needLine(progress, t) {
  const name = t(progress.name).split(" (")[0];
  return h("li", { class: `coach-need${progress.missing === 1 ? " one-away" : ""}` },
    t("coach.needs", { yaku: name, have: progress.have, need: progress.need, n: progress.missing }));
}

/** The note's text in the reader's language (the server sends all three). */
export function noteText(note, t, lang) {
  const played = note.played_texts?.[lang] ?? note.played_text;
  const better = note.texts?.[lang] ?? note.better_text;
  return t("coach.note", { played, better });
}

export function renderCoach(panel, { frame, t, lang, hints }) {
  const seat = frame.seat;
  const coached = seat !== null && frame.table.seats[seat]?.coach;
  panel.hidden = !coached;
  if (!coached) return;
  const needs = frame.view.yaku_progress?.[seat];
  const list = h("ul", { id: "coach-needs", class: "coach-needs" });
  if (needs) {
    const reachable = [...needs].sort((a, b) => a.missing - b.missing);
    if (reachable.length) list.append(...reachable.map((p) => needLine(p, t)));
    else list.append(h("li", { class: "muted" }, t("coach.no_yaku")));
  } else {
    list.append(h("li", { class: "muted" }, t(hints ? "coach.watching" : "coach.words")));
  }
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
