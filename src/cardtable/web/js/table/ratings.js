// Each seat's rating at a rated quick-match table, beside its name ("1 512 ± 180"): asked
// of the server when the table is first drawn and again when the game is over (the result
// moves both ratings); other tables have none and show nothing.
import { api, h } from "../api.js";

let known = { rated: false, seats: [] };
let askedFor = null; // "<table>:<status>" last asked, so each state is asked once

function ask(table, redraw) {
  const asking = `${table.id}:${table.status}`;
  if (askedFor === asking) return;
  askedFor = asking;
  api(`/api/tables/${table.id}/ratings`)
    .then((found) => {
      known = found;
      if (found.rated) redraw();
    })
    .catch(() => {}); // no rating shown is no harm
}

/** The rating badge of seat ``n`` (or "" where the table is not rated). */
export function ratingBadge(n, { frame, t, redraw }) {
  ask(frame.table, redraw);
  const rating = known.rated ? known.seats[n] : null;
  if (!rating) return "";
  const said = rating.provisional ? `${rating.shown} · ${t("rating.provisional")}` : rating.shown;
  return h("span", { class: `rating${rating.provisional ? " provisional" : ""}`, "data-rating": rating.rating, title: t("rating.at_table", { value: said }) }, said);
}
