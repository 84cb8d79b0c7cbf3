// Turn alerts: the tab's title and icon change when it is your turn (the sound that goes
// with it is sound.js's "turn" cue).
const ICON = "/static/favicon.svg";

function setIcon(alert) {
  const link = document.querySelector("link[rel=icon]");
  if (!link) return;
  const dot = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'><rect x='8' y='4' width='40' height='56' rx='6' fill='%23b3261e'/><circle cx='48' cy='16' r='14' fill='%23e0a526' stroke='%23fff' stroke-width='4'/></svg>`;
  link.href = alert ? `data:image/svg+xml,${dot}` : ICON;
}

/** Say in the tab whose turn it is. */
export function turnAlert({ mine, title, yourTurn, roundOver }) {
  if (mine) document.title = `● ${yourTurn} — ${title}`;
  else if (roundOver) document.title = `● ${roundOver} — ${title}`;
  else document.title = `${title} — cardtable`;
  setIcon(mine || Boolean(roundOver));
}
