// 7 słów score pad for the boxed game: the area and the words of each round, checked and
// scored by the engine on the server; a 30-second hourglass for the table.
import { api, h } from "/static/js/api.js";
import { errorText, languageSwitch, loadLanguage, pickLanguage, t, translatePage, valueText } from "/static/js/i18n.js";
import { breakdown } from "/static/js/render/common.js";

const $ = (id) => document.getElementById(id);
const COLUMNS = [5, 4, 3, 2];
let pad = null;
let formRound = null;
let saving = Promise.resolve();
let sandTimer = null;
let formChallenges = null; // whether the form shows challenge boxes (challenge mode, or a family warning); null: not drawn yet
const playerName = (n) => t("pad.player", { n: n + 1 });

function emptyRound(players) {
  return { slots: Array(8).fill(""), words: Array(players).fill(""), fastest: null, challenges: [], upholds: [], late: false };
}

function areaText(slots) {
  const columns = [];
  for (let c = 0; c < 4; c++) columns.push(`${slots[2 * c] || "_"}${slots[2 * c + 1] || "_"}`);
  return columns.join("|");
}

function roundBody(current) {
  return {
    area: areaText(current.slots),
    words: current.words,
    fastest: current.fastest,
    challenges: current.challenges.filter(([by, target]) => by !== null && target !== null),
    upholds: current.upholds || [],
    late: Boolean(current.late),
  };
}

function save() {
  const body = {
    rounds: pad.data.rounds.map((r) => ("slots" in r ? roundBody(r) : r)),
    current: pad.data.current ? { ...roundBody(pad.data.current), slots: pad.data.current.slots } : null,
  };
  saving = saving
    .then(async () => {
      const answer = await api(`/api/companion/${pad.id}`, { method: "PUT", body });
      pad.results = answer.results;
      renderResults();
    })
    .catch((error) => $("pad-round").replaceChildren(h("p", { class: "error", role: "alert" }, t("pad.not_saved", { reason: errorText(error) }))));
  return saving;
}

function renderForm() {
  const current = pad.data.current;
  formRound = pad.data.rounds.length + 1;
  $("setup").hidden = true;
  $("entry").hidden = false;
  $("result").hidden = false;
  $("pad-heading").textContent = `7 słów · ${t("pad.round_n", { n: formRound })}`;
  $("pad-area").replaceChildren(...COLUMNS.map((value, c) =>
    h("div", { class: "area-column" }, h("div", { class: "column-value" }, value),
      [0, 1].map((row) => {
        const slot = 2 * c + row;
        return h("input", { class: "letter-slot", maxlength: 3, "aria-describedby": "pad-area-problem", autocomplete: "off", value: current.slots[slot], "data-slot": slot, autocapitalize: "characters",
          onchange: (e) => { current.slots[slot] = e.target.value.trim().toUpperCase(); e.target.value = current.slots[slot]; save(); } });
      }))));
  const warnings = pad.results.warnings || [];
  const rows = current.words.map((word, n) =>
    h("div", { class: "word-row", "data-player": n },
      h("label", {}, h("span", {}, t("pad.word_of", { name: playerName(n) })), " ",
        h("input", { class: "word-input", "data-word": n, value: word, autocomplete: "off", spellcheck: "false", autocapitalize: "characters",
          "aria-describedby": `pad-problem-${n}`,
          onchange: (e) => {
            current.words[n] = e.target.value.trim();
            save().then(renderChallenges);
          } })),
      h("span", { class: "challenge-slot", "data-challenge-slot": n }),
      h("span", { class: "word-warning muted", "data-warning": n }, warnings[n] ? valueText(warnings[n]) : ""),
      h("p", { class: "word-problem error", "data-problem": n, id: `pad-problem-${n}`, "aria-live": "polite" })));
  $("pad-words").replaceChildren(...rows, current.words.length === 1 ? lateBox(current) : fastestBox(current),
    h("div", { id: "pad-votes-slot" }));
  formChallenges = null;
  renderChallenges();
  renderVotes();
}

/** The challenge boxes open beside the words once a family warning (or challenge mode) calls for them.
 * Only their slots are redrawn: a word being typed in another field is never replaced. */
function renderChallenges() {
  const current = pad.data.current;
  const open = challengesOpen();
  if (!current || open === formChallenges) return;
  formChallenges = open;
  for (const slot of document.querySelectorAll("[data-challenge-slot]")) {
    slot.replaceChildren(open ? challengeBox(current, Number(slot.dataset.challengeSlot)) : "");
  }
}

/** Player `n`'s challenge: nobody, or whose word (what was chosen stays chosen). */
function challengeBox(current, n) {
  const players = current.words.length;
  const chosen = current.challenges.find(([by]) => by === n)?.[1];
  return h("select", { "data-challenge": n, onchange: (e) => {
      current.challenges = current.challenges.filter(([by]) => by !== n);
      if (e.target.value !== "") current.challenges.push([n, Number(e.target.value)]);
      renderVotes();
      save();
    } }, new Option(`${t("pad.challenge_by", { name: playerName(n) })}: ${t("pad.nobody_short")}`, "", false, chosen === undefined),
    [...Array(players).keys()].filter((k) => k !== n).map((k) => new Option(`${t("pad.challenge_by", { name: playerName(n) })}: ${playerName(k)}`, String(k), false, chosen === k)));
}

function challengesOpen() {
  const players = pad.data.current ? pad.data.current.words.length : 0;
  return players > 1 && (pad.options.validation === "challenge" || (pad.results.warnings || []).some(Boolean));
}

function fastestBox(current) {
  const fastest = h("select", { id: "pad-fastest", onchange: (e) => { current.fastest = e.target.value === "" ? null : Number(e.target.value); save(); } },
    new Option(t("pad.nobody_short"), "", false, current.fastest === null),
    current.words.map((_, n) => new Option(playerName(n), String(n), false, current.fastest === n)));
  return h("label", {}, h("span", {}, t("pad.flipped")), " ", fastest);
}

/** Solo: was the word locked before the sand ran out? (The SOLO card moves on that.) */
function lateBox(current) {
  return h("label", { class: "check" },
    h("input", { type: "checkbox", id: "pad-late", checked: Boolean(current.late), onchange: (e) => { current.late = e.target.checked; save(); } }),
    " ", t("pad.late"));
}

/** A challenged word of the same family is voted on by the players not involved. */
function renderVotes() {
  const slot = $("pad-votes-slot");
  const current = pad.data.current;
  if (!slot || !current) return;
  const warnings = pad.results.warnings || [];
  const voted = current.challenges.filter(([, target]) => warnings[target]);
  slot.replaceChildren(voted.length ? votes(current, voted) : "");
}

function votes(current, voted) {
  const involved = new Set(voted.flat());
  const voters = current.words.map((_, n) => n).filter((n) => !involved.has(n));
  return h("fieldset", { class: "votes", id: "pad-votes" },
    h("legend", {}, t("pad.vote")),
    voters.length ? voters.map((n) => h("label", { class: "check" },
      h("input", { type: "checkbox", "data-uphold": n, checked: Boolean(current.upholds[n]), onchange: (e) => {
        current.upholds = current.words.map((_, k) => Boolean(k === n ? e.target.checked : current.upholds[k]));
        save();
      } }), " ", t("pad.same_family", { name: playerName(n) }))) : h("p", { class: "muted" }, t("pad.no_voters")));
}

/** Why the round cannot be scored, in the page's language where the server gave a code. */
function problemText(results) {
  const code = results.current_error_code;
  if (!code) return results.current_error || "";
  const values = results.current_error_values || {};
  return t(`pad.why.${code}${code === "no_such_card" && values.have ? "_has" : ""}`, values);
}

function renderSolo() {
  const solo = pad.results.solo;
  $("pad-solo").hidden = !solo;
  if (solo) $("pad-solo").textContent = t("pad.solo_field", { field: solo.field === "red" ? t("pad.red") : solo.field, target: solo.target });
}

function renderResults() {
  const results = pad.results;
  const ctx = { t, seatName: playerName, gameId: "siedem-slow", ruleSections: pad.rule_sections };
  const noCards = () => h("span", {}, "");
  for (const element of document.querySelectorAll("[data-problem]")) element.textContent = "";
  for (const element of document.querySelectorAll("[data-word], [data-slot]")) element.removeAttribute("aria-invalid");
  if ($("pad-area-problem")) $("pad-area-problem").textContent = "";
  if (results.current) {
    $("pad-round").replaceChildren(breakdown(results.current, ctx, noCards));
    $("pad-round").dataset.scores = results.current.scores.join(",");
  } else {
    const seat = results.current_error_seat;
    const said = problemText(results);
    $("pad-round").replaceChildren(h("p", { class: "error", id: "pad-problem" }, said));
    delete $("pad-round").dataset.scores;
    const wrongSlot = results.current_error_values?.slot;
    if (wrongSlot !== undefined) {  // a card of the area: said right under the area
      $("pad-area-problem").textContent = said;
      document.querySelector(`[data-slot="${wrongSlot}"]`)?.setAttribute("aria-invalid", "true");
    }
    if (seat !== undefined && seat !== null) {
      const slot = document.querySelector(`[data-problem="${seat}"]`);
      if (slot) slot.textContent = said;
      const field = document.querySelector(`[data-word="${seat}"]`);
      if (field) field.setAttribute("aria-invalid", "true");
    }
  }
  $("pad-save").disabled = !results.current;
  renderSolo();
  renderVotes();
  for (const [n, warning] of (results.warnings || []).entries()) {
    const slot = document.querySelector(`[data-warning="${n}"]`);
    if (slot) slot.textContent = warning ? valueText(warning) : "";
  }
  $("pad-history").replaceChildren(
    h("table", { class: "breakdown", id: "pad-totals" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), results.totals.map((_, n) => h("th", { class: "num" }, playerName(n))))),
      h("tbody", {},
        results.rounds.map((round) => h("tr", {}, h("td", {}, round.outcome === "strike-out" ? t("pad.final") : `#${round.round}`),
          round.scores.map((s) => h("td", { class: "num" }, s)))),
        h("tr", { class: "totals" }, h("td", {}, t("pad.totals")), results.totals.map((s) => h("td", { class: "num" }, s))))));
  $("pad-totals").dataset.totals = results.totals.join(",");
  $("pad-leader").textContent = results.over ? t("pad.winner", { names: results.leaders.map(playerName).join(", ") }) : "";
  if (results.over) {
    $("entry").hidden = true;
    $("pad-save").hidden = true;
    $("pad-round-heading").hidden = true;
    $("pad-round").replaceChildren();
  }
}

function render() {
  translatePage();
  if (!pad) return;
  if (!pad.data.current && !pad.results.over) pad.data.current = emptyRound(pad.players);
  if (pad.data.current && (formRound !== pad.data.rounds.length + 1 || !$("pad-words").children.length)) renderForm();
  renderResults();
}

function startHourglass() {
  const seconds = 30;
  const started = Date.now();
  const sand = document.querySelector("#pad-sand .sand");
  const label = document.querySelector("#pad-sand span");
  $("pad-sand").className = "hourglass";
  clearInterval(sandTimer);
  sandTimer = setInterval(() => {
    const left = Math.max(0, seconds - (Date.now() - started) / 1000);
    sand.style.width = `${(left / seconds) * 100}%`;
    label.textContent = `${Math.ceil(left)} s`;
    if (left <= 0) clearInterval(sandTimer);
  }, 200);
}

async function createPad() {
  const players = Number($("pad-players").value);
  const options = { players, deck: $("pad-deck").value, validation: $("pad-validation").value };
  if (players === 1) options.difficulty = $("pad-difficulty").value;
  try {
    pad = await api("/api/companion", { method: "POST", body: { kind: "siedem-slow", game: "siedem-slow", options } });
  } catch (error) {
    $("pad-error").textContent = errorText(error);
    return;
  }
  localStorage.setItem("cardtable.words-pad", pad.id);
  history.replaceState(null, "", `/companion/siedem-slow?pad=${pad.id}`);
  pad.data.current = emptyRound(pad.players);
  render();
  await save();
}

async function nextRound() {
  if (!pad.results.current || $("pad-save").disabled) return;
  $("pad-save").disabled = true; // until the saved round's results say the new one can be saved
  pad.data.rounds.push(roundBody(pad.data.current));
  pad.data.current = emptyRound(pad.players);
  renderForm(); // at once: what is typed next belongs to the new round
  await save();
  render();
}

async function main() {
  await loadLanguage(pickLanguage());
  $("lang-slot").append(languageSwitch(() => { formRound = null; render(); }));
  $("pad-players").append(new Option(t("pad.solo"), "1"));
  for (let n = 2; n <= 6; n++) $("pad-players").append(new Option(String(n), String(n), false, n === 3));
  $("pad-players").addEventListener("change", () => { $("pad-difficulty-label").hidden = $("pad-players").value !== "1"; });
  $("pad-new").addEventListener("click", createPad);
  $("pad-save").addEventListener("click", nextRound);
  $("pad-hourglass").addEventListener("click", startHourglass);
  const wanted = new URLSearchParams(location.search).get("pad") || localStorage.getItem("cardtable.words-pad");
  if (wanted) {
    try {
      pad = await api(`/api/companion/${wanted}`);
      if (pad.data.current && !pad.data.current.slots) pad.data.current = null;
      history.replaceState(null, "", `/companion/siedem-slow?pad=${pad.id}`);
    } catch {
      localStorage.removeItem("cardtable.words-pad");
    }
  }
  translatePage();
  render();
}

main();
