// "Your turn" (server/day_clock.py): every table where one of this browser's seats is to
// move, asked of the server now and then; the page's title counts them, so a tab left
// open says it in the browser's tab strip ("(2) cardtable").
import { api, h } from "./api.js";
import { t } from "./i18n.js";
import { mySeats } from "./record.js";
import { clockText } from "./table/day-clock.js";

const $ = (id) => document.getElementById(id);
const EVERY_MS = 30000;
const BASE_TITLE = document.title;
let turns = [];

function render() {
  const mine = turns.filter((turn) => turn.your_turn);
  $("turns-panel").hidden = !mine.length;
  document.title = mine.length ? `(${mine.length}) ${BASE_TITLE}` : BASE_TITLE;
  $("turns").replaceChildren(...mine.map((turn) => h("li", { class: "table-row", "data-table": turn.table },
    h("strong", {}, turn.title), " ",
    turn.deadline ? h("span", { class: "muted" }, t("turns.left", { time: clockText(Math.max(0, Math.floor(turn.deadline - Date.now() / 1000)), t) })) : "",
    h("span", { class: "actions" }, h("a", { class: "button primary", href: `/t/${turn.table}` }, t("turns.play"))))));
}

async function refresh() {
  const seats = mySeats().slice(-100).map(({ id, seat, key }) => ({ table: id, seat, key }));
  if (!seats.length) return;
  try {
    turns = (await api("/api/turns", { method: "POST", body: { seats } })).turns;
  } catch {
    return;
  }
  render();
}

export function setupTurns() {
  refresh();
  setInterval(refresh, EVERY_MS);
}

/** The language changed: the list's words follow. */
export function translateTurns() {
  render();
}
