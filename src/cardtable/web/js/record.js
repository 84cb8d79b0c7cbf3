// "Your record", kept by this browser (no account): every finished game against bots,
// recorded once by its table id; exported as a JSON file and imported back.
import { adoptPlayerKey, playerKey } from "./player.js";

const KEY = "cardtable.record";
export const FORMAT = "cardtable-record";

// each table this browser sits at keeps its seat and key under this prefix (table.js)
const SEAT_PREFIX = "cardtable.seat.";

/** The seats this browser holds: [{ id, seat, key }], one per table. */
export function mySeats() {
  const seats = [];
  for (const name of Object.keys(localStorage)) {
    if (!name.startsWith(SEAT_PREFIX)) continue;
    try {
      const { seat, key } = JSON.parse(localStorage.getItem(name) || "null") || {};
      if (Number.isInteger(seat) && typeof key === "string") seats.push({ id: name.slice(SEAT_PREFIX.length), seat, key });
    } catch {
      // a damaged entry is no seat
    }
  }
  return seats;
}

/** Hold ``seat`` of table ``id`` with its ``key`` in this browser (as an invite link does). */
export function keepSeat(id, seat, key) {
  localStorage.setItem(`${SEAT_PREFIX}${id}`, JSON.stringify({ seat, key }));
}

export function loadRecord() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "null");
    if (data && Array.isArray(data.games)) return data;
  } catch {
    // a damaged entry starts over: nothing else reads it
  }
  return { format: FORMAT, version: 1, games: [] };
}

function save(record) {
  localStorage.setItem(KEY, JSON.stringify(record));
}

/** The record's entry for a finished table this browser sat at, against bots only (null
 * for any other table: watched, unfinished, or with another person at it). */
export function entryOf(frame) {
  const { table, view, seat } = frame;
  if (seat === null || seat === undefined || table.status !== "finished") return null;
  if (table.preset === "lesson") return null; // a guided game is scripted: it says nothing of your level
  const others = table.seats.filter((_, n) => n !== seat);
  if (!others.length || !others.every((s) => s.kind.startsWith("bot:"))) return null;
  const scores = (view.scores || []).map(Number);
  const winners = table.winners || [];
  const outcome = winners.includes(seat) ? (winners.length === 1 ? "win" : "draw") : "loss";
  const place = 1 + scores.filter((s) => s > scores[seat]).length;
  return {
    table: table.id,
    game: table.game,
    date: new Date().toISOString(),
    seats: table.seats.map((s, n) => (n === seat ? "you" : s.kind.slice(4))),
    scores,
    place,
    outcome,
    // the server's proof of this result: the game may travel to another browser with it
    proof: frame.record_proof || undefined,
  };
}

/** Add a finished game once (a reload of its page finds it there already). */
export function recordGame(entry) {
  if (!entry) return false;
  const record = loadRecord();
  const known = record.games.find((g) => g.table === entry.table);
  if (known) {
    // recorded before the server gave proofs: the proof comes now, so the game can travel
    if (!known.proof && entry.proof) {
      known.proof = entry.proof;
      save(record);
    }
    return false;
  }
  record.games.push(entry);
  save(record);
  return true;
}

function validGame(g) {
  return g && typeof g === "object" && typeof g.table === "string" && typeof g.game === "string"
    && Array.isArray(g.seats) && Array.isArray(g.scores) && g.seats.length === g.scores.length
    && g.seats.filter((s) => s === "you").length === 1 && g.scores.every((s) => typeof s === "number")
    && ["win", "loss", "draw"].includes(g.outcome);
}

/** Merge a record file into this browser's: the number of games new to it. A file that is
 * not a record throws, and the record stays as it was. */
export function importRecord(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error("not json");
  }
  if (!data || data.format !== FORMAT || !Array.isArray(data.games) || !data.games.every(validGame)) {
    throw new Error("not a record");
  }
  const record = loadRecord();
  const known = new Set(record.games.map((g) => g.table));
  const fresh = data.games.filter((g) => !known.has(g.table) && known.add(g.table));
  // the file's player key (its ratings and games across days come along) only into a
  // browser with no record of its own: a record shared by a friend never takes this
  // browser's own key away, nor hands it the friend's seats
  if (!record.games.length) adoptPlayerKey(data.player);
  record.games.push(...fresh);
  record.games.sort((a, b) => String(a.date).localeCompare(String(b.date)));
  save(record);
  return fresh.length;
}

export function exportRecord() {
  const blob = new Blob([JSON.stringify({ ...loadRecord(), player: playerKey() }, null, 1)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `cardtable-record-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** The 95 % Wilson score interval of a share of n games. */
export function wilson(share, n, z = 1.96) {
  if (!n) return [0, 1];
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (share + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((share * (1 - share)) / n + z2 / (4 * n * n))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** Rows of the record: per game and the level of the bots at the table ("mixed" where the
 * levels differ), games played, won, and the win share (draws count half). */
export function tally(games) {
  const rows = new Map();
  for (const g of games) {
    const levels = [...new Set(g.seats.filter((s) => s !== "you"))];
    const level = levels.length === 1 ? levels[0] : "mixed";
    const key = `${g.game}|${level}`;
    if (!rows.has(key)) rows.set(key, { game: g.game, level, played: 0, won: 0, drawn: 0 });
    const row = rows.get(key);
    row.played += 1;
    if (g.outcome === "win") row.won += 1;
    if (g.outcome === "draw") row.drawn += 1;
  }
  return [...rows.values()].map((row) => {
    const share = (row.won + row.drawn / 2) / row.played;
    return { ...row, share, interval: wilson(share, row.played) };
  });
}
