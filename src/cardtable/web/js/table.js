// A live table: one WebSocket, the server's view of this seat, a renderer per game family.
import { api, cards, h } from "./api.js";
import { errorText, gameTitle, lang, languageSwitch, loadLanguage, pickLanguage, seatLabels, t, translatePage } from "./i18n.js";
import { loadClient } from "./render/index.js";
import { turnAlert } from "./table/alerts.js";
import { armSound, play, setSound, soundFrames, soundOn } from "./table/sound.js";
import { labelsOn, nameOnHold, setLabels } from "./table/card-names.js";
import { entryOf, recordGame } from "./record.js";
import { animateFrom, reducedMotion, snapshot } from "./table/motion.js";
import { Narrator, Story } from "./table/narration.js";
import { countdownText, renderResult, scoringCards } from "./table/result.js";
import { askName, openSeats, renderWaiting } from "./table/waiting.js";
import { renderDepartures } from "./table/departures.js";
import { coachInSight, noteText, renderCoach } from "./table/coach.js";
import { ratingBadge } from "./table/ratings.js";
import { heard, renderChat } from "./table/chat.js";
import { clockText } from "./table/day-clock.js";
const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();

let socket = null;
let frame = null;
let clockOffset = 0; // server time - local time
let retry = 0;
let cardInfo = null;
let games = {}; // game id -> what /api/games says of it (rule anchors, renderer, hints)
let draw = null; // the game's render function, once its module has loaded
let client = null; // the game's renderer module (render and the optional hooks)
const ui = {}; // renderer state that survives re-renders (selections)
let sentAt = null; // the version an action was sent at: a second click waits for the answer
let framesSeen = 0;
let narrator = null;
let story = null; // the game's lines so far (the log keeps the whole game, in order)

let freshInvite = false; // opened from an invite link (not by the table's creator)

function seatCredentials() {
  const params = new URLSearchParams(location.search);
  const stored = JSON.parse(localStorage.getItem(`cardtable.seat.${tableId}`) || "null");
  if (params.has("seat") && params.has("key")) {
    const fresh = { seat: Number(params.get("seat")), key: params.get("key") };
    freshInvite = sessionStorage.getItem(`cardtable.created.${tableId}`) === null;
    localStorage.setItem(`cardtable.seat.${tableId}`, JSON.stringify(fresh));
    history.replaceState(null, "", `/t/${tableId}`); // keep the secret out of the address bar
    return fresh;
  }
  if (params.has("watch")) return null;
  return stored;
}
const credentials = seatCredentials();

function showBanner(text) {
  const banner = $("banner");
  banner.textContent = text || "";
  banner.hidden = !text;
}

/** A seat key that is wrong or used: no dead end, watch the table or go to the lobby. */
function offerWatching() {
  localStorage.removeItem(`cardtable.seat.${tableId}`);
  const banner = $("banner");
  banner.replaceChildren(
    h("span", {}, t("table.bad_key")), " ",
    h("a", { id: "watch-link", class: "button primary", href: `/t/${tableId}?watch=1` }, t("table.watch")), " ",
    h("a", { id: "lobby-link", class: "button", href: "/" }, t("table.to_lobby")));
  banner.classList.add("dead-end");
  banner.hidden = false;
  if (!frame) document.querySelector("main").style.display = "none"; // an empty board says nothing
  $("sound").hidden = true;
}

let toastTimer = null;
export function toast(text) {
  const element = $("toast");
  element.textContent = text;
  element.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (element.hidden = true), 4000);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = credentials ? `?seat=${credentials.seat}&key=${encodeURIComponent(credentials.key)}` : "";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}${query}`);
  showBanner(frame ? t("table.reconnecting") : t("table.connecting"));
  socket.addEventListener("open", () => {
    retry = 0;
  });
  // the server closes connections that stay silent (socket_idle_seconds); a tab left open
  // to watch says it is still there
  const keepAlive = setInterval(() => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
  }, 240000);
  socket.addEventListener("close", () => clearInterval(keepAlive));
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      const previous = frame;
      frame = withLatestNote(message, frame);
      sentAt = null;
      clockOffset = message.now - Date.now() / 1000;
      showBanner("");
      render({ moved: true });
      soundFrames(previous, frame, isMine);
      framesSeen += 1;
      sendFollowUp();
    } else if (message.type === "presence" && frame) {
      // a seat came or went: only who is connected changed, not the game
      message.seats.forEach((seat, n) => Object.assign(frame.table.seats[n] || {}, seat));
      render();
    } else if (message.type === "coach" && frame) {
      takeCoachNote(message);
    } else if (message.type === "chat") {
      heard(message);
    } else if (message.type === "hint") {
      ui.hint = message;
      showHint();
      // a phone shows the answer under the board: brought up just enough to be read
      $("hint-text").scrollIntoView({ block: "nearest", behavior: reducedMotion() ? "auto" : "smooth" });
    } else if (message.type === "error") {
      ui.followUp = null;
      sentAt = null;
      // a click that raced the game (a double click, a move as the round ended) is no news
      if (message.code === "stale" || message.code === "round_break") return;
      // another server process holds the table now: the socket closes and the page
      // connects again by itself (to that process), no news for the player
      if (message.code === "moved") return;
      if (frame?.lesson && message.code === "illegal") {
        // in a lesson the coach explains a refused move: the rules' reason, then what to do
        ui.lessonWrong = { version: frame.version, text: t("lesson.wrong", { reason: errorText(message, seatName) }) };
        renderLesson();
        return;
      }
      if (message.code === "forbidden" || (message.code === "rate_limited" && !frame)) offerWatching();
      else if (message.code === "not_found") showBanner(message.message);
      else toast(t("table.error", { message: errorText(message, seatName) }));
    }
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4403 || event.code === 4404) return; // a wrong key or table: retrying won't help
    showBanner(t("table.reconnecting"));
    retry += 1;
    setTimeout(connect, Math.min(5000, 300 * 2 ** Math.min(retry, 4)));
  });
}

/** A state frame, keeping the coach's note the page already has when the frame's is
 * older: a frame worked out just before the note was written may arrive just after it
 * (the note would vanish until the next move). */
function withLatestNote(next, previous) {
  const kept = previous?.table.id === next.table.id ? previous.coach : null;
  if (kept && (!next.coach || next.coach.version < kept.version)) next.coach = kept;
  return next;
}

/** The coach's note on one of this seat's moves (a note on a later move may come first,
 * when the earlier one waited for the compute pool: the later one stays). */
function takeCoachNote(message) {
  if (frame.coach && frame.coach.version > message.version) return;
  frame.coach = message; // the next state frames carry it too
  renderCoach($("coach-panel"), { frame, t, lang: lang(), hints: games[frame.table.game].hints, client, ctx: client ? context() : null });
  // said at once in a toast only where the panel is out of sight (the toast keeps off the hand)
  if (!coachInSight($("coach-panel"))) toast(noteText(message, t, lang()));
}

/** A move a renderer chained to the last one (`ui.followUp = { ready(view), action }`): sent
 * once a state frame shows the first took effect, dropped when the server refuses it. */
function sendFollowUp() {
  const followUp = ui.followUp;
  if (!followUp || !followUp.ready(frame.view)) return;
  ui.followUp = null;
  send(followUp.action);
}

export function send(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  if (sentAt !== null && sentAt === frame?.version) return; // the first click is on its way
  sentAt = frame?.version ?? null;
  socket.send(JSON.stringify({ type: "action", action, version: frame?.version }));
}

function nextRound() {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "next_round" }));
}

function seatName(n) {
  if (n === null || n === undefined || n < 0) return "";
  return seatLabels(frame.table.seats)[n] ?? `#${n + 1}`;
}

function renderPlayers() {
  const { view, table } = frame;
  const list = $("players");
  list.replaceChildren();
  table.seats.forEach((seat, n) => {
    const moving = (view.to_move || []).includes(n);
    const item = h(
      "li",
      { class: `player${moving ? " to-move" : ""}${n === frame.seat ? " me" : ""}`, "data-seat": n },
      h("span", { class: `dot ${seat.kind === "human" ? (seat.connected ? "on" : "off") : "bot"}`, title: seat.connected ? t("table.connected") : t("table.offline") }),
      h("span", { class: "name" }, seatName(n)),
      ratingBadge(n, { frame, t, redraw: renderPlayers }),
      view.dealer === n ? h("span", { class: "tag" }, t("table.dealer")) : "",
      h("span", { class: "score" }, (view.scores || [])[n] ?? 0),
    );
    list.append(item);
  });
}

function renderWaitingRoom() {
  const waiting = openSeats(frame.table).length > 0 && frame.table.status !== "finished";
  $("board").inert = waiting; // nothing to play before everyone has sat down
  renderWaiting($("waiting-room"), { frame, credentials, t, seatName, toast, game: games[frame.table.game] });
}

function renderOver() {
  const panel = $("over-panel");
  const { table } = frame;
  panel.hidden = table.status !== "finished";
  $("commitment").textContent = table.commitment;
  $("reveal").textContent = table.reveal ? `${t("table.reveal")}: ${table.reveal.seed} (${t("table.salt")} ${table.reveal.salt})` : "";
  if (panel.hidden) return;
  const winners = (table.winners || []).map(seatName);
  panel.replaceChildren(
    h("h3", {}, t("table.over")),
    h("p", { class: "winner" }, t("table.winner", { names: winners.join(", ") })),
    frame.seat !== null && !frame.lesson
      ? h("button", { class: "primary", id: "rematch", onclick: rematch }, t("table.rematch"))
      : "",
    h("a", { class: "button", href: `/api/tables/${tableId}/record`, download: `cardtable-${tableId}.json` }, t("table.download")),
    h("a", { class: "button", href: `/replay/${tableId}` }, t("table.replay")),
    frame.seat !== null && table.seats[frame.seat]?.kind === "human"
      ? h("a", { class: "button", id: "review-link", href: `/replay/${tableId}?review=${frame.seat}` }, t("review.link"))
      : "",
    h("a", { class: "button", href: "/" }, t("table.lobby")),
  );
  if (table.rematch_id && credentials) {
    location.href = `/t/${table.rematch_id}?seat=${credentials.seat}&key=${encodeURIComponent(credentials.key)}`;
  }
}

async function rematch() {
  try {
    await api(`/api/tables/${tableId}/rematch`, { method: "POST", body: credentials });
  } catch (error) {
    toast(error.message);
  }
}

/** A lesson's coach (frame.lesson): the step's line, a refused move explained, and the
 * element to use marked (data-lesson-target, .lesson-target) through the renderer's
 * optional lessonTarget(action, ctx) -> CSS selector inside the board. */
function renderLesson() {
  const lesson = frame?.lesson;
  const panel = $("lesson");
  panel.hidden = !lesson;
  document.querySelector("main").classList.toggle("with-lesson", Boolean(lesson));
  if (!lesson) return;
  if (ui.lessonWrong && ui.lessonWrong.version !== frame.version) ui.lessonWrong = null;
  const step = Math.min(lesson.step + 1, lesson.steps);
  // a stage or round result covers the table: the next step (which names cards on it)
  // waits until the result is dismissed; till then the coach says to read it
  const atBreak = !lesson.over && Boolean(frame.table.round_break?.waiting?.includes(frame.seat));
  const key = atBreak ? "lesson.read_result" : lesson.key;
  pinLesson(lesson, atBreak);
  panel.replaceChildren(
    // reading a result is no step of the lesson's script: it counts none (the next step
    // would be named twice, before and after the break)
    h("h3", {}, t("lesson.coach"), " ", h("span", { class: "lesson-step muted" }, lesson.over || atBreak || lesson.step >= lesson.steps ? "" : t("lesson.step", { n: step, of: lesson.steps }))),
    // the coach calls the learner by their seat's name (the one they gave on the lesson page)
    h("p", { class: "lesson-text", id: "lesson-text", "data-key": key }, t(key, { ...(lesson.values?.[lang()] || {}), name: seatName(frame.seat) })),
    ui.lessonWrong ? h("p", { class: "lesson-wrong", id: "lesson-wrong", role: "alert" }, ui.lessonWrong.text) : "",
    lesson.waiting && !lesson.over && lesson.key !== "lesson.waiting" ? h("p", { class: "lesson-wait muted" }, t("lesson.waiting")) : "",
    lesson.over
      ? h("p", {}, h("button", { class: "primary lesson-target", id: "lesson-next", "data-lesson-target": "", onclick: playEasyBot }, t("lesson.next_game")))
      : "",
  );
  markLessonTarget();
}

/** On a phone the coach stays pinned at the top only while the learner has a move to make
 * below it: not while the opponent plays (it would cover the piles it says to watch), nor
 * over a round's result and final board. */
function pinLesson(lesson, atBreak) {
  const pinned = Boolean(lesson.target) && !lesson.over && !atBreak && isMine();
  document.querySelector("main").classList.toggle("lesson-pinned", pinned);
}

function markLessonTarget() {
  const board = $("board");
  for (const element of board.querySelectorAll("[data-lesson-target]")) {
    element.removeAttribute("data-lesson-target");
    element.classList.remove("lesson-target");
  }
  for (const element of document.querySelectorAll("#round-result [data-lesson-target]")) element.removeAttribute("data-lesson-target");
  const breakFor = frame?.table.round_break?.waiting?.includes(frame.seat);
  if (frame?.lesson && breakFor) {
    // a stage or round is over: the coach points at "Next round" once it is shown
    const next = document.querySelector("#round-result:not([hidden]) #next-round:not([disabled])");
    if (next) {
      next.setAttribute("data-lesson-target", "");
      next.classList.add("lesson-target");
    }
    return;
  }
  const target = frame?.lesson?.target;
  if (!target || !client?.lessonTarget || !isMine()) return;
  const selector = client.lessonTarget(target, context());
  const element = selector ? board.querySelector(selector) : null;
  if (!element) return;
  element.setAttribute("data-lesson-target", "");
  element.classList.add("lesson-target");
}

/** The lesson's last step: a normal game against the easy bot. */
async function playEasyBot() {
  const { table } = frame;
  const seats = table.seats.map((_, n) => (n === frame.seat ? "human" : "bot:easy"));
  const names = table.seats.map((seat, n) => (n === frame.seat && seat.chosen !== false ? seat.name : ""));
  try {
    const created = await api("/api/tables", { method: "POST", body: { game: table.game, seats, names, public: false } });
    sessionStorage.setItem(`cardtable.created.${created.id}`, "1");
    location.href = created.url;
  } catch (error) {
    toast(errorText(error));
  }
}

function renderHintPanel() {
  const { view, seat, table } = frame;
  // a hint is for a seat to move in a game under way: not before everyone has sat down,
  // nor between rounds (the server refuses those)
  const underWay = table.status !== "finished" && !(table.waiting || []).length && !table.round_break;
  const canAsk = seat !== null && hintsHere(table, seat) && underWay && (view.to_move || []).includes(seat);
  $("hint-panel").hidden = !canAsk;
  if (!ui.hint || ui.hint.version !== frame.version) $("hint-text").textContent = "";
  showHint();
}

/** Whether the seat may ask for a hint: the hard bot's, in a game that explains its moves;
 * else a game's practice hint (7 słów: the solver's words), where no other person plays. */
function hintsHere(table, seat) {
  const game = games[table.game];
  if (game.hints) return true;
  return Boolean(game.practice_hints) && table.seats.every((other, n) => n === seat || other.kind !== "human");
}

function showHint() {
  if (!ui.hint || !frame || ui.hint.version !== frame.version) return;
  $("hint-text").textContent = ui.hint.texts?.[lang()] ?? ui.hint.text;
  const action = ui.hint.action;
  if (!action) return; // a practice hint names words, no move on the board
  const captured = ui.hint.reasons.flatMap((r) => r.cards?.card_codes || []);
  const marks = [action.card, action.take, ...(action.cards || []), ...captured].filter((c) => c !== undefined && c !== null);
  for (const mark of marks) {
    for (const element of document.querySelectorAll(`#board [data-code="${mark}"], #board .hand [data-card="${mark}"]`)) {
      element.classList.add("hinted");
    }
  }
}

function askHint() {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  $("hint-text").textContent = t("hint.thinking");
  socket.send(JSON.stringify({ type: "hint", lang: lang() }));
}

function isMine(of = frame) {
  const { view, seat, table } = of;
  return seat !== null && table.status !== "finished" && !table.round_break && (view.to_move || []).includes(seat);
}

function renderTitle() {
  const { table, view } = frame;
  let progress = "";
  if (view.stage) progress = t("table.stage", { n: view.stage });
  else if (view.round && view.rounds) progress = t("table.round", { n: view.round, of: view.rounds });
  $("title").textContent = `${gameTitle(table.game, table.title)} · ${progress}`;
  const mine = isMine();
  const waitingForMe = table.round_break && table.round_break.waiting.includes(frame.seat);
  turnAlert({
    mine, title: gameTitle(table.game, table.title), yourTurn: t("table.your_turn"),
    roundOver: waitingForMe ? t(view.stage ? "table.stage_over" : "table.round_over", { n: table.round_break.round }) : null,
  });
}

function renderSoundSwitch() {
  const button = $("sound");
  const on = soundOn();
  // drawn, not an emoji: not every system has a font with a bell
  button.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2 15a2 2 0 0 0 4 0" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/>${on ? "" : '<path d="M4 4l16 16" stroke="currentColor" stroke-width="2"/>'}</svg>`;
  button.setAttribute("aria-pressed", String(on));
  button.title = on ? t("table.sound_on") : t("table.sound_off");
  button.setAttribute("aria-label", button.title);
}

/** The "Card labels" switch, shown where the game's renderer draws labels. */
function renderLabelsSwitch() {
  const button = $("labels");
  const on = labelsOn();
  button.hidden = !client?.cardLabels;
  button.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M3 12V4h8l10 10-8 8z" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/><circle cx="7.5" cy="8.5" r="1.5" fill="currentColor"/>${on ? "" : '<path d="M4 4l16 16" stroke="currentColor" stroke-width="2"/>'}</svg>`;
  button.setAttribute("aria-pressed", String(on));
  button.title = on ? t("table.labels_on") : t("table.labels_off");
  button.setAttribute("aria-label", button.title);
}

function tickCountdown() {
  const element = $("next-countdown");
  if (element && frame?.table.round_break) element.textContent = countdownText(frame.table.round_break, Date.now() / 1000 + clockOffset, t);
}

function tickClock() {
  tickCountdown();
  const element = $("clock");
  const clock = frame?.clock;
  if (!clock || frame.table.status === "finished") {
    element.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil(clock.deadline - (Date.now() / 1000 + clockOffset)));
  element.hidden = false;
  element.textContent = clockText(left, t);
  element.className = `clock${left <= 10 ? " low" : ""}`; // the kind is data-kind: a game's class of that name (.hourglass) is not the clock's
  element.dataset.kind = clock.kind;
  element.dataset.left = String(left);
}

function context() {
  return {
    frame,
    view: frame.view,
    seat: frame.seat,
    send,
    t,
    lang: lang(),
    cards: cardInfo,
    seatName,
    labels: labelsOn(),
    ui,
    toast,
    dialog: $("dialog"),
    clockLeft: () => (frame.clock ? frame.clock.deadline - (Date.now() / 1000 + clockOffset) : null),
    gameId: frame.table.game,
    ruleSections: games[frame.table.game].rule_sections,
    roundBreak: frame.table.round_break || null,
  };
}

/** Mark the cards the finished round's lines name, on its final board. */
function markScoring(board) {
  const { table } = frame;
  if (!table.round_break && table.status !== "finished") return;
  const codes = scoringCards(client.lastResult ? client.lastResult(frame.view) : null);
  for (const element of board.querySelectorAll("[data-code], [data-anim]")) {
    if (codes.has(element.dataset.code ?? element.dataset.anim)) element.classList.add("scoring");
  }
}

function render({ moved = false } = {}) {
  if (!frame) return;
  translatePage();
  renderTitle();
  renderPlayers();
  renderChat({ frame, t, seatName, credentials, send: (message) => socket.send(JSON.stringify(message)) });
  renderDepartures($("departures"), { frame, credentials, t, seatName, toast, later: () => render() });
  renderWaitingRoom();
  renderOver();
  if (frame.table.status === "finished") recordGame(entryOf(frame)); // once per table
  renderSoundSwitch();
  renderLabelsSwitch();
  tickClock();
  const board = $("board");
  board.dataset.version = String(frame.version);
  board.dataset.phase = frame.view.phase ?? "";
  board.dataset.status = frame.table.status;
  board.dataset.round = String(frame.view.round ?? frame.view.stage ?? "");
  board.dataset.mine = String(isMine());
  board.dataset.break = frame.table.round_break ? String(frame.table.round_break.round) : "";
  if (!draw) {
    loadClient(games[frame.table.game]).then((loaded) => {
      client = loaded;
      draw = loaded.render;
      render();
    });
    return;
  }
  const before = moved && framesSeen > 0 ? snapshot(board) : null;
  const ctx = context();
  draw(board, ctx);
  markScoring(board);
  animateFrom(board, before);
  const resultPanel = $("round-result");
  renderResult(resultPanel, { frame, client, ctx, ui, onNext: nextRound, now: Date.now() / 1000 + clockOffset });
  // the open result box says the round's score itself: its lines only go to the log
  const resultOpen = !resultPanel.hidden && !resultPanel.classList.contains("folded");
  if (resultOpen) narrator.hush();
  if (client.narrate) {
    if (story?.tableId !== frame.table.id) story = new Story(frame.table.id);
    narrator.update(story.lines(frame.view, ctx, client.narrate), framesSeen === 0 || !moved || resultOpen);
  }
  renderHintPanel();
  renderCoach($("coach-panel"), { frame, t, lang: lang(), hints: games[frame.table.game].hints, client, ctx });
  renderLesson();
}

/** The board fills the screen below whatever stands above it (the header, a banner, a
 * departure notice, the folded result's bar, a lesson on a narrow screen): the games' styles
 * size it with --board-top, so the own seat pinned to the screen's foot never lies over the
 * board's middle and the hand never runs off the screen when a notice comes. */
function followBoardTop() {
  const board = $("board");
  const update = () => {
    const top = Math.round(board.getBoundingClientRect().top + window.scrollY);
    document.documentElement.style.setProperty("--board-top", `${top}px`);
  };
  const above = ["banner", "departures", "round-result", "lesson", "join"].map($);
  const watcher = new ResizeObserver(update);
  for (const element of [document.querySelector("header.top"), ...above]) watcher.observe(element);
  window.addEventListener("resize", update);
  update();
}

/** Opened from an invite: the person chooses a name before taking the seat. */
async function sitDown() {
  let meta;
  try {
    meta = await api(`/api/tables/${tableId}`);
  } catch {
    return; // no such table: the socket says so
  }
  const seat = meta.seats[credentials.seat];
  if (!seat || seat.kind !== "human" || seat.claimed || meta.status === "finished") return;
  try {
    await api(`/api/tables/${tableId}/key`, { method: "POST", body: credentials });
  } catch {
    return; // a wrong key: the socket refuses it and the page offers to watch
  }
  // the friend meets the table on a page of its own: no empty board or panels behind it
  const main = document.querySelector("main");
  main.hidden = $("sound").hidden = true;
  await askName($("join"), { table: meta, game: games[meta.game], credentials, t, lang: lang() });
  main.hidden = $("sound").hidden = false;
}

async function main() {
  await loadLanguage(pickLanguage());
  cardInfo = await cards();
  games = Object.fromEntries((await api("/api/games")).map((g) => [g.id, g]));
  narrator = new Narrator($("log"), $("announce"));
  $("lang-slot").append(languageSwitch(() => {
    narrator.reset();
    if ($("banner").classList.contains("dead-end")) offerWatching();
    render();
  }));
  armSound();
  $("sound").addEventListener("click", () => {
    setSound(!soundOn());
    renderSoundSwitch();
    play("turn"); // turned on: a sample of how quiet it is
  });
  // every card or choice drawn as role="button" answers Enter and Space, as a button does
  $("board").addEventListener("keydown", (event) => {
    const target = event.target;
    if ((event.key === "Enter" || event.key === " ") && target.getAttribute?.("role") === "button") {
      event.preventDefault();
      target.click();
    }
  });
  $("labels").addEventListener("click", () => {
    setLabels(!labelsOn());
    render();
  });
  nameOnHold($("board"), $("card-name"));
  $("hint").addEventListener("click", askHint);
  // a renderer may redraw the board by itself (a selected card): the coach's mark follows
  new MutationObserver(() => frame?.lesson && markLessonTarget()).observe($("board"), { childList: true });
  translatePage();
  followBoardTop();
  if (credentials && freshInvite) await sitDown();
  connect();
  setInterval(tickClock, 250);
}

main();
