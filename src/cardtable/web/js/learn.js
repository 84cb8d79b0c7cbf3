// /learn/GAME: the game's guided first game. A lesson this browser left unfinished is
// resumed (its seat is remembered like any table's); otherwise the server deals a new one,
// the learner's seat named as they asked (the coach calls them by it).
import { api } from "./api.js";
import { errorText, loadLanguage, pickLanguage, t, translatePage } from "./i18n.js";

const game = location.pathname.split("/").pop();
const $ = (id) => document.getElementById(id);

/** The unfinished lesson of this game this browser holds a seat at, or null. */
async function unfinished() {
  const id = localStorage.getItem(`cardtable.lesson.${game}`);
  if (!id || !localStorage.getItem(`cardtable.seat.${id}`)) return null;
  try {
    const meta = await api(`/api/tables/${id}`);
    return meta.status === "playing" ? id : null;
  } catch {
    return null;
  }
}

/** The learner's name: the one this browser keeps (the lobby's), else asked for here, so
 * the coach and the table call them by it rather than "Player 1". */
function learnerName() {
  const kept = (localStorage.getItem("cardtable.name") || "").trim();
  if (kept) return Promise.resolve(kept);
  $("learn-status").hidden = true;
  $("learn-name-form").hidden = false;
  $("learn-name").focus();
  return new Promise((resolve) => {
    $("learn-name-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const name = $("learn-name").value.trim();
      if (!name) return;
      localStorage.setItem("cardtable.name", name); // the lobby's name from now on too
      $("learn-name-form").hidden = true;
      $("learn-status").hidden = false;
      resolve(name);
    });
  });
}

async function main() {
  await loadLanguage(pickLanguage());
  translatePage();
  const fresh = new URLSearchParams(location.search).has("new");
  const resume = fresh ? null : await unfinished();
  if (resume) {
    location.replace(`/t/${resume}`);
    return;
  }
  const name = await learnerName();
  try {
    const created = await api(`/api/learn/${game}`, { method: "POST", body: { names: [name, t("lesson.opponent"), t("lesson.opponent")] } });
    sessionStorage.setItem(`cardtable.created.${created.id}`, "1"); // this browser sits down at once
    localStorage.setItem(`cardtable.lesson.${game}`, created.id);
    location.replace(created.url);
  } catch (error) {
    $("learn-status").textContent = "";
    $("learn-error").textContent = error.code === "not_found" || error.status === 400 ? t("lesson.none") : errorText(error);
    $("learn-back").hidden = false; // a way on: the lobby, where "Your games" are listed
  }
}

main();
