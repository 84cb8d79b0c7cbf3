// The table's sounds: short, quiet cues made here by Web Audio synthesis (no sound files),
// off until the player turns them on (the switch is kept per browser). No AudioContext is
// made before the page's first click or key press, so a browser's autoplay rule never
// blocks one and a page that was only looked at stays silent.
const SOUND_KEY = "cardtable.sound";
const VOLUME = 0.1; // every cue under this master gain: quiet beside a voice call or music

let audio = null;
let gestured = false;

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

/** Turn sound on or off; the switch is a tap, so turning it on wakes the audio there. */
export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  if (on) wake();
}

/** Listen for gestures: only after one may a sound start, and the audio is made (or
 * woken) inside one, with sound on: iOS Safari lets an AudioContext play only when it was
 * made or resumed within a tap (a resume from a socket's frame stays silent there). */
export function armSound() {
  const armed = () => {
    gestured = true;
    if (soundOn()) wake();
  };
  for (const type of ["pointerdown", "touchend", "click", "keydown"]) {
    window.addEventListener(type, armed, { capture: true, passive: true });
  }
}

/** Make or resume the audio: within a gesture only (see armSound). */
function wake() {
  try {
    const ctx = context();
    if (ctx.state !== "running") ctx.resume();
  } catch {
    // no audio device: the table says everything in words and motion anyway
  }
}

function context() {
  if (!audio) {
    audio = new AudioContext();
    const master = audio.createGain();
    master.gain.value = VOLUME;
    master.connect(audio.destination);
    audio.master = master;
  }
  return audio;
}

/** One note: a pitch (Hz) rising or falling to ``glide``, a quick attack, a soft decay. */
function note(ctx, { at = 0, pitch, glide = pitch, length = 0.2, wave = "sine", level = 1 }) {
  const start = ctx.currentTime + at;
  const tone = ctx.createOscillator();
  const gain = ctx.createGain();
  tone.type = wave;
  tone.frequency.setValueAtTime(pitch, start);
  tone.frequency.exponentialRampToValueAtTime(glide, start + length);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(level, start + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  tone.connect(gain).connect(ctx.master);
  tone.start(start);
  tone.stop(start + length + 0.02);
}

/** A card laid down: a short burst of filtered noise, the snap of card on felt. */
function snap(ctx, { at = 0, level = 0.9, tone = 1800 } = {}) {
  const length = 0.07;
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const samples = buffer.getChannelData(0);
  for (let k = 0; k < samples.length; k++) samples[k] = (Math.random() * 2 - 1) * (1 - k / samples.length) ** 3;
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = tone;
  gain.gain.value = level;
  source.connect(filter).connect(gain).connect(ctx.master);
  source.start(ctx.currentTime + at);
}

// pentatonic pitches (Hz): the cues sound together as one family
const D5 = 587.3, E5 = 659.3, G5 = 784, A5 = 880, B5 = 987.8, D6 = 1174.7;

/** Each cue: what the player hears for one kind of event. */
const CUES = {
  card: (ctx) => snap(ctx),
  capture: (ctx) => { snap(ctx); snap(ctx, { at: 0.09, level: 0.7, tone: 1300 }); note(ctx, { at: 0.05, pitch: 330, glide: 300, length: 0.12, wave: "triangle", level: 0.5 }); },
  yaku: (ctx) => [D5, E5, G5, B5].forEach((pitch, k) => note(ctx, { at: k * 0.09, pitch, length: 0.45, wave: "triangle", level: 0.7 })),
  koikoi: (ctx) => { note(ctx, { pitch: A5, length: 0.16, wave: "square", level: 0.25 }); note(ctx, { at: 0.17, pitch: D6, length: 0.3, wave: "square", level: 0.25 }); },
  turn: (ctx) => { note(ctx, { pitch: E5, length: 0.25 }); note(ctx, { at: 0.12, pitch: A5, length: 0.3 }); },
  round: (ctx) => [B5, G5, E5, D5].forEach((pitch, k) => note(ctx, { at: k * 0.14, pitch, length: 0.5, wave: "triangle", level: 0.6 })),
};

/** Play ``cue`` (a CUES name), when sound is on and the player has touched the page. */
export function play(cue) {
  if (!soundOn() || !gestured || !CUES[cue]) return false;
  try {
    const ctx = context();
    if (ctx.state === "suspended") ctx.resume();
    CUES[cue](ctx);
    return true;
  } catch {
    return false; // no audio device: the table says everything in words and motion anyway
  }
}

const total = (rows) => (rows || []).reduce((sum, row) => sum + (Array.isArray(row) ? row.length : Number(row) || 0), 0);

/** What happened between two frames of a table, as cues, the most telling first: a round's
 * end, a yaku, a koi-koi call, a capture, a card played; then "your turn" when the move
 * has just come to the player (``mine(frame)``). Read from the frames every game sends
 * (``version``, ``table``), and from the hanafuda views' piles, yaku and calls where there. */
export function cuesBetween(before, after, mine) {
  if (!before || !after || after.version === before.version) return [];
  const was = before.view || {};
  const now = after.view || {};
  const sameRound = (was.round ?? was.stage) === (now.round ?? now.stage);
  const ended = (after.table.round_break && !before.table.round_break) ||
    (after.table.status === "finished" && before.table.status !== "finished");
  let main = "card";
  if (ended) main = "round";
  else if (sameRound && total(now.yaku) > total(was.yaku)) main = "yaku";
  else if (sameRound && total(now.koikoi_calls) > total(was.koikoi_calls)) main = "koikoi";
  else if (sameRound && total(now.piles) > total(was.piles)) main = "capture";
  const cues = [main];
  if (mine(after) && !mine(before)) cues.push("turn");
  return cues;
}

/** Play what happened between two frames: the main cue now, "your turn" just after it. */
export function soundFrames(before, after, mine) {
  const [main, ...rest] = cuesBetween(before, after, mine);
  if (!main) return [];
  play(main);
  rest.forEach((cue, k) => setTimeout(() => play(cue), 350 * (k + 1)));
  return [main, ...rest];
}
