// "Your turn" (server/day_clock.py): every table where one of this browser's seats is to
// move, asked of the server now and then (and when the tab comes back to the front); the
// page's title counts them, so a tab left open says it in the browser's tab strip ("(2)
// cardtable"), and a turn that has just come rings the table's bell (when its sound is on).
// The player key goes with the seats: the server remembers them for it and answers the
// player's seats taken on their other devices too, with their keys, kept here to open them.
import { api, h } from "./api.js";
import { gameTitle, t } from "./i18n.js";
import { playerKey } from "./player.js";
import { mySeats } from "./record.js";
import { clockText } from "./table/day-clock.js";
import { armSound, play } from "./table/sound.js";

const $ = (id) => document.getElementById(id);
const EVERY_MS = 30000;
const MAX_SEATS = 100; // the most one request may ask about (server/day_clock.py)
const ENDED_KEY = "cardtable.turns.ended";
const ENDED_KEPT = 2000;
const BASE_TITLE = document.title;
let turns = [];
let seen = null; // the tables where it was your turn at the last look (null: not looked yet)

function render() {
  const mine = turns.filter((turn) => turn.your_turn);
  $("turns-panel").hidden = !mine.length;
  document.title = mine.length ? `(${mine.length}) ${BASE_TITLE}` : BASE_TITLE;
  $("turns").replaceChildren(...mine.map((turn) => h("li", { class: "table-row", "data-table": turn.table },
    h("strong", {}, gameTitle(turn.game, turn.title)), " ",
    turn.deadline ? h("span", { class: "muted" }, t("turns.left", { time: clockText(Math.max(0, Math.floor(turn.deadline - Date.now() / 1000)), t) })) : "",
    h("span", { class: "actions" }, h("a", { class: "button primary", href: `/t/${turn.table}` }, t("turns.play"))))));
}

/** A seat taken on another device of the player's: this browser opens it too. */
function keepSeat({ table, seat, key }) {
  const stored = `cardtable.seat.${table}`;
  if (key && !localStorage.getItem(stored)) localStorage.setItem(stored, JSON.stringify({ seat, key }));
}

/** The tables the server said are over (finished, abandoned, unknown): not asked about
 * again, so the seats asked about (at most MAX_SEATS a request) are the open ones. */
function endedTables() {
  try {
    return new Set(JSON.parse(localStorage.getItem(ENDED_KEY) || "[]"));
  } catch {
    return new Set(); // a damaged entry: ask about every seat again
  }
}

function rememberEnded(ended, tables) {
  if (!tables?.length) return;
  tables.forEach((table) => ended.add(table));
  localStorage.setItem(ENDED_KEY, JSON.stringify([...ended].slice(-ENDED_KEPT)));
}

async function refresh() {
  const ended = endedTables();
  const seats = mySeats().filter(({ id }) => !ended.has(id)).slice(-MAX_SEATS)
    .map(({ id, seat, key }) => ({ table: id, seat, key }));
  let answer;
  try {
    answer = await api("/api/turns", { method: "POST", body: { seats, player: playerKey() } });
  } catch {
    return;
  }
  turns = answer.turns;
  rememberEnded(ended, answer.ended);
  turns.forEach(keepSeat);
  const now = new Set(turns.filter((turn) => turn.your_turn).map((turn) => turn.table));
  if (seen && [...now].some((table) => !seen.has(table))) play("turn"); // a turn came meanwhile
  seen = now;
  render();
}

export function setupTurns() {
  armSound();
  refresh();
  setInterval(refresh, EVERY_MS);
  window.addEventListener("focus", refresh);
}

/** The language changed: the list's words follow. */
export function translateTurns() {
  render();
}
