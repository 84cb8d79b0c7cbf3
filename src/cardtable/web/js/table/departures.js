// A person who left a game in progress is announced in words ("Ania left the table"), not
// only by a dot turning red; the host may wait for them or give the seat to a bot
// (POST /api/tables/ID/hand-to-bot: only the host, only a seat whose person is gone).
import { api, h } from "../api.js";
import { errorText } from "../i18n.js";
import { openSeats } from "./waiting.js";

// a reload or a dropped connection comes back within this: no alarm for it
const GRACE_MS = 3000;
const goneSince = new Map(); // seat -> when it was gone since (the server's empty_for, on our clock)
const waitedFor = new Set(); // seats the host chose to wait for
let countdown = null; // the one timer that redraws while a seat's bot button waits

/** Seats whose person has left the game being played: taken, not connected, not ours. */
function leftSeats(frame) {
  const { table } = frame;
  if (table.status === "finished" || openSeats(table).length) return [];
  return table.seats
    .map((seat, n) => (seat.kind === "human" && seat.claimed && !seat.connected && n !== frame.seat ? n : null))
    .filter((n) => n !== null);
}

/** The host's button: disabled, with the seconds left, until the server allows it
 * (a seat must stand empty ``hand_to_bot_seconds`` first: its person may be reloading). */
function handToBotButton(frame, credentials, seat, { t, toast, later, now }) {
  const allowedMs = (frame.table.hand_to_bot_seconds ?? 0) * 1000;
  const leftMs = allowedMs - (now - goneSince.get(seat));
  if (leftMs > 0 && countdown === null) {
    countdown = setTimeout(() => {
      countdown = null;
      later();
    }, Math.min(1000, leftMs + 20));
  }
  const words = leftMs > 0 ? t("table.left_bot_in", { seconds: Math.ceil(leftMs / 1000) }) : t("table.left_bot");
  return h("button", {
    type: "button", class: "primary left-bot", "data-seat": seat, disabled: leftMs > 0,
    onclick: handToBot(frame, credentials, seat, { t, toast }),
  }, words);
}

function handToBot(frame, credentials, seat, { t, toast }) {
  const levels = frame.table.bot_levels || [];
  const bot = levels.includes("medium") || !levels.length ? "medium" : levels[0];
  return async () => {
    try {
      await api(`/api/tables/${frame.table.id}/hand-to-bot`, { method: "POST", body: { ...credentials, left: seat, bot } });
      toast(t("table.left_handed"));
    } catch (error) {
      toast(errorText(error));
    }
  };
}

/** Say who has left (after a short grace); the host gets "wait" and "give it to a bot".
 * ``later`` draws again once a grace period is over. */
export function renderDepartures(panel, { frame, credentials, t, seatName, toast, later }) {
  const now = Date.now();
  const left = leftSeats(frame);
  for (const seat of [...goneSince.keys()]) {
    if (!left.includes(seat)) {
      goneSince.delete(seat); // back at the table (or a bot's seat now)
      waitedFor.delete(seat);
    }
  }
  for (const seat of left) {
    if (goneSince.has(seat)) continue;
    goneSince.set(seat, now - (frame.table.seats[seat].empty_for || 0) * 1000);
    setTimeout(later, GRACE_MS + 50);
  }
  const announced = left.filter((seat) => now - goneSince.get(seat) >= GRACE_MS);
  panel.hidden = !announced.length;
  const host = Boolean(credentials) && frame.seat !== null && frame.seat === frame.table.host;
  panel.replaceChildren(...announced.map((seat) => {
    const name = seatName(seat);
    const parts = [h("strong", { class: "left-words" }, t("table.left", { name }))];
    if (!host) {
      parts.push(h("span", { class: "muted" }, t("table.left_host_decides")));
    } else {
      if (waitedFor.has(seat)) parts.push(h("span", { class: "muted left-waiting" }, t("table.left_waiting", { name })));
      else {
        parts.push(h("button", {
          type: "button", class: "left-wait", "data-seat": seat,
          onclick: () => {
            waitedFor.add(seat);
            later();
          },
        }, t("table.left_wait", { name })));
      }
      parts.push(handToBotButton(frame, credentials, seat, { t, toast, later, now }));
    }
    return h("div", { class: "seat-left", "data-seat": seat }, parts);
  }));
}
