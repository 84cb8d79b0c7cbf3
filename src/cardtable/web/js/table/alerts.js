// Turn alerts: the tab's title and icon change when it is your turn, and a short chime
// plays (unless muted; the switch is remembered by the browser).
const SOUND_KEY = "cardtable.sound";
const ICON = "/static/favicon.svg";
let audio = null;

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== "off";
}

export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
}

function chime() {
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    for (const [k, pitch] of [660, 880].entries()) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, now + k * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + k * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + k * 0.12 + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + k * 0.12);
      tone.stop(now + k * 0.12 + 0.3);
    }
  } catch {
    // no audio device (or the browser refuses before a first click): the title still says it
  }
}

function setIcon(alert) {
  const link = document.querySelector("link[rel=icon]");
  if (!link) return;
  const dot = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'><rect x='8' y='4' width='40' height='56' rx='6' fill='%23b3261e'/><circle cx='48' cy='16' r='14' fill='%23e0a526' stroke='%23fff' stroke-width='4'/></svg>`;
  link.href = alert ? `data:image/svg+xml,${dot}` : ICON;
}

/** Say in the tab whose turn it is; chime when the turn has just become ours. */
export function turnAlert({ mine, wasMine, first, title, yourTurn, roundOver }) {
  if (mine) document.title = `● ${yourTurn} — ${title}`;
  else if (roundOver) document.title = `● ${roundOver} — ${title}`;
  else document.title = `${title} — cardtable`;
  setIcon(mine || Boolean(roundOver));
  if (mine && !wasMine && !first && soundOn()) chime();
}
