// The table's chat (server/chat.py): preset phrases for everyone, each said in the reader's
// own language (the frame carries the phrase's id), free text only where the server allows
// it (a private table between invited people), and muting a seat, kept by this browser.
// Spectators read the phrases and send nothing. A page that reloads or comes late reads the
// table's last things said (as their ids, so in this reader's language) and merges them with
// what it hears, each once by its number.
import { api, h } from "../api.js";

const MAX_LINES = 50;
let lines = []; // {n, seat, phrase} or {n, seat, text}, oldest first
let choices = null; // what the server offers here: {phrases, free_text}
let asked = false;
let panel = null;
let context = null; // the latest {frame, t, seatName, send, credentials}
let newestShown = 0; // the number of the newest line drawn
const epochs = []; // the server's copies of this table's chat, in the order heard

/** Add ``found`` lines not seen yet, in the order they were said. A table rebuilt by the
 * server (a restart, another process) numbers its lines from 1 again in a new epoch: those
 * come after everything heard before, and the new copy's saved lines are asked for. */
function merge(found) {
  for (const line of found) {
    if (line.epoch && !epochs.includes(line.epoch)) {
      if (epochs.length) {
        asked = false; // the new copy's lines, with the next frame
        newestShown = 0;
      }
      epochs.push(line.epoch);
    }
  }
  const order = (line) => epochs.indexOf(line.epoch);
  const seen = new Set(lines.map((line) => `${line.epoch}:${line.n}`));
  const fresh = found.filter((line) => !seen.has(`${line.epoch}:${line.n}`))
    .map(({ n, epoch, seat, phrase, text }) => ({ n, epoch, seat, phrase, text }));
  lines = [...lines, ...fresh].sort((a, b) => order(a) - order(b) || a.n - b.n).slice(-MAX_LINES);
}

function muteKey() {
  return `cardtable.mute.${context.frame.table.id}`;
}

function muted() {
  try {
    return new Set(JSON.parse(localStorage.getItem(muteKey()) || "[]"));
  } catch {
    return new Set();
  }
}

function toggleMute(seat) {
  const seats = muted();
  if (seats.has(seat)) seats.delete(seat);
  else seats.add(seat);
  localStorage.setItem(muteKey(), JSON.stringify([...seats]));
  draw();
}

function lineText({ phrase, text }) {
  return phrase ? context.t(`chat.${phrase}`) : text;
}

function draw() {
  if (!panel || !choices) return;
  const { frame, t, seatName, send } = context;
  const silenced = muted();
  const shown = lines.filter((line) => !silenced.has(line.seat));
  const log = h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite" },
    shown.length ? shown.map((line) => h("li", { "data-seat": line.seat, class: line.phrase ? "phrase" : "text" },
      h("strong", {}, `${seatName(line.seat)}: `), lineText(line)))
      : h("li", { class: "muted" }, t("chat.empty")));
  const parts = [h("h3", {}, t("chat.title")), log];
  const seated = frame.seat !== null && frame.seat !== undefined;
  if (seated) {
    parts.push(h("div", { class: "chat-phrases" }, choices.phrases.map((phrase) =>
      h("button", { type: "button", "data-phrase": phrase, onclick: () => send({ type: "chat", phrase }) }, t(`chat.${phrase}`)))));
    if (choices.free_text) {
      const input = h("input", { id: "chat-text", maxlength: 200, placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder") });
      parts.push(h("form", {
        class: "chat-form", id: "chat-form",
        onsubmit: (event) => {
          event.preventDefault();
          const text = input.value.trim();
          if (text) send({ type: "chat", text });
          input.value = "";
        },
      }, input, h("button", { type: "submit" }, t("chat.send"))));
    } else {
      parts.push(h("p", { class: "muted chat-note" }, t("chat.phrases_only")));
    }
  }
  const others = frame.table.seats.map((seat, n) => ({ seat, n })).filter(({ seat, n }) => seat.kind === "human" && n !== frame.seat);
  if (others.length) {
    parts.push(h("p", { class: "chat-mutes" }, others.map(({ n }) => h("button", {
      type: "button", class: "link-button", "data-mute": n, "aria-pressed": silenced.has(n) ? "true" : "false",
      onclick: () => toggleMute(n),
    }, t(silenced.has(n) ? "chat.unmute" : "chat.mute", { name: seatName(n) })))));
  }
  // the text being typed survives a redraw (a frame came meanwhile)
  const typing = panel.querySelector("#chat-text");
  const kept = typing ? { value: typing.value, focused: document.activeElement === typing } : null;
  const scrolled = panel.querySelector("#chat-log")?.scrollTop ?? 0;
  panel.replaceChildren(...parts);
  // a new line comes into sight (however many were read); else the reader stays where they were
  const newest = lines.at(-1)?.n ?? 0;
  log.scrollTop = newest !== newestShown ? log.scrollHeight : scrolled;
  newestShown = newest;
  if (kept) {
    const input = panel.querySelector("#chat-text");
    if (input) {
      input.value = kept.value;
      if (kept.focused) input.focus();
    }
  }
}

/** Draw the chat panel for this frame (asks the server what it offers, once). */
export function renderChat(now) {
  context = now;
  // a word is for people: no chat at a table of one person and bots
  const people = now.frame.table.seats.filter((seat) => seat.kind === "human").length;
  if (people < 2) {
    if (panel) panel.hidden = true;
    return;
  }
  if (!panel) {
    panel = h("section", { class: "panel chat-panel", id: "chat-panel" });
    document.getElementById("players-panel").after(panel);
  }
  if (!asked) {
    asked = true;
    const tableId = now.frame.table.id;
    const reader = now.credentials || {};
    Promise.all([
      api(`/api/tables/${tableId}/chat`),
      api(`/api/tables/${tableId}/chat/lines`, { method: "POST", body: { seat: reader.seat ?? null, key: reader.key || "" } }),
    ]).then(([found, said]) => {
      choices = found;
      merge(said.lines);
      draw();
    }).catch(() => {
      asked = false; // asked again with the next frame
    });
  }
  draw();
}

/** A chat frame came. */
export function heard(message) {
  merge([message]);
  draw();
}
