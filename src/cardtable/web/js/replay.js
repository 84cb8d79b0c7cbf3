// The replay viewer: step through a finished game and check its fair shuffle in the browser.
import { api, cards, h } from "./api.js";
import { errorText, gameTitle, lang, languageSwitch, loadLanguage, pickLanguage, seatLabels, t, translatePage } from "./i18n.js";
import { loadClient } from "./render/index.js";
import { Review } from "./replay/review.js";
const $ = (id) => document.getElementById(id);
const tableId = location.pathname.startsWith("/replay/") ? location.pathname.split("/").pop() : null;
let data = null;
let step = 0;
let cardInfo = null;
let games = [];
let review = null; // the review panel, on a finished table's replay
let lastVerdict = null; // the verdict on an uploaded file, said again when the language changes
const renderers = {}; // game id -> its render function, once loaded

async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function browserCheck(record) {
  const fairness = record.fairness;
  if (!fairness || !crypto.subtle) return;
  const digest = await sha256(`cardtable-seed/1:${fairness.salt}:${fairness.seed}`);
  const ok = digest === fairness.commitment && Number(record.seed) === Number(fairness.seed);
  $("browser-check").textContent = t("replay.browser_check", { ok: ok ? "✓" : "✗" });
  $("browser-check").dataset.ok = String(ok);
}

function showVerdict(verdict) {
  const element = $("verdict");
  element.className = `verdict ${verdict.ok ? "ok" : "bad"}`;
  const failed = verdict.failed_move;
  // the server says its problems in English; those the page knows it says in the reader's language
  const known = {
    "the record is not signed by a server": "replay.unsigned",
    "the record carries no chain of its moves": "replay.no_chain",
    "signed by another key than this server": "replay.other_key",
    "the signature does not match: the file was changed after the server signed it": "replay.bad_signature",
  };
  const altered = verdict.altered_move;
  const problems = verdict.problems.map((problem) => {
    if (failed && problem.includes(`move ${failed.move} (`)) {
      return t("replay.failed_move", { n: failed.move, seat: failed.seat, action: failed.action, reason: failed.reason });
    }
    if (altered && problem.startsWith(`move ${altered} `)) return t("replay.altered_move", { n: altered });
    return known[problem] ? t(known[problem]) : problem;
  });
  element.textContent = verdict.ok ? t("replay.verified", { n: verdict.moves }) : `${t("replay.failed")}: ${problems.join("; ")}`;
  if (failed) element.dataset.failedMove = String(failed.move);
  if (altered) element.dataset.alteredMove = String(altered);
}

function seatName(n) {
  return seatLabels(data?.record.table?.seats ?? [])[n] ?? `#${n + 1}`;
}

// the browser's own file input would name the file (or its absence) in the browser's language
function showChosenFile() {
  const chosen = $("upload").files[0];
  $("upload-name").textContent = chosen ? chosen.name : t("replay.no_file");
}

function render() {
  translatePage();
  $("explain-where").textContent = t("replay.explain_where", { button: t("table.download") });
  if (!tableId) $("title").textContent = t("replay.upload");
  showChosenFile();
  if (!data) {
    if (lastVerdict) showVerdict(lastVerdict);
    return;
  }
  showVerdict(data.verdict);
  const view = data.views[step];
  const game = games.find((g) => g.id === data.record.game);
  $("title").textContent = `${t("replay.title")} · ${gameTitle(data.record.game, game?.title ?? data.record.game)}`;
  $("step").textContent = t("replay.step", { n: step, of: data.views.length - 1 });
  showRounds();
  $("slider").max = String(data.views.length - 1);
  $("slider").value = String(step);
  $("players").replaceChildren(...(view.scores || []).map((s, n) => h("li", { class: "player" }, h("span", { class: "name" }, seatName(n)), h("span", { class: "score" }, s))));
  const seat = $("seat").value === "" ? null : Number($("seat").value);
  const draw = renderers[data.record.game];
  if (!draw) return; // loadBoard() draws it once the game's code is here
  draw($("board"), {
    frame: { table: { id: "replay", seats: [] }, version: step, clock: null, seat },
    view: { ...view, legal_actions: [] },
    seat,
    send: () => {},
    t,
    lang: lang(),
    cards: cardInfo,
    seatName,
    ui: { noDialogs: true },
    replay: true,
    toast: () => {},
    dialog: $("dialog"),
    clockLeft: () => null,
  });
  review?.render(step);
}

/** The game's rounds (Ohanami's stages) on the timeline: a tick where each begins, and a
 * button per round that jumps to its first move, the current one marked. */
function roundKey() {
  return data.views[0].stage !== undefined ? "replay.stage_n" : "replay.round_n";
}

function roundAt(at) {
  return data.rounds.filter((start) => start <= at).length - 1;
}

function showRounds() {
  const rounds = data.rounds || [0];
  const last = Math.max(data.views.length - 1, 1);
  $("round-ticks").replaceChildren(...rounds.slice(1).map((start) =>
    h("span", { class: "round-tick", style: `--at: ${start / last}` })));
  const jumps = $("round-jumps");
  jumps.hidden = rounds.length < 2;
  const current = roundAt(step);
  jumps.replaceChildren(h("span", { class: "muted" }, t(data.views[0].stage !== undefined ? "replay.stages" : "replay.rounds")),
    ...rounds.map((start, index) => h("button", {
      type: "button",
      class: "round-jump",
      "data-round": index + 1,
      "aria-current": index === current ? "step" : null,
      "aria-label": t(roundKey(), { n: index + 1 }),
      onclick: () => goTo(start),
    }, String(index + 1))));
}

/** The game's board code, loaded before the first draw: drawn later, the board would
 * grow under a reader who had scrolled to a swing, and the review be drawn twice. */
async function loadBoard() {
  const game = games.find((g) => g.id === data.record.game);
  renderers[data.record.game] = (await loadClient(game)).render;
}

async function loadReplay(seat) {
  data = await api(`/api/tables/${tableId}/replay${seat === null ? "" : `?seat=${seat}`}`);
  await browserCheck(data.record);
}

function goTo(n) {
  step = Math.max(0, Math.min(data.views.length - 1, n));
  render();
}

function setupControls(players) {
  $("controls").hidden = false;
  const select = $("seat");
  if (!select.options.length) {
    for (let n = 0; n < players; n++) select.append(new Option(seatName(n), String(n)));
    select.append(new Option(t("replay.spectator"), ""));
    select.addEventListener("change", async () => {
      if (tableId) {
        await loadReplay(select.value === "" ? null : Number(select.value));
        render();
      }
    });
  }
  const go = goTo;
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(step - 1);
  $("next").onclick = () => go(step + 1);
  $("last").onclick = () => go(data.views.length - 1);
  $("slider").oninput = (e) => go(Number(e.target.value));
  document.onkeydown = (e) => {
    if (e.key === "ArrowRight") go(step + 1);
    if (e.key === "ArrowLeft") go(step - 1);
  };
}

async function upload(event) {
  const file = event.target.files[0];
  showChosenFile();
  if (!file) return;
  let record;
  let verdict;
  try {
    record = JSON.parse(await file.text());
    verdict = await api("/api/verify", { method: "POST", body: record });
  } catch (error) {
    $("verdict").className = "verdict bad";
    $("verdict").textContent = `${t("replay.failed")}: ${error instanceof SyntaxError ? t("replay.not_json") : errorText(error)}`;
    return;
  }
  data = null;
  lastVerdict = verdict;
  showVerdict(verdict);
  await browserCheck(record);
}

async function main() {
  await loadLanguage(pickLanguage());
  cardInfo = await cards();
  games = await api("/api/games");
  $("lang-slot").append(languageSwitch(render));
  $("upload").addEventListener("change", upload);
  translatePage();
  $("explain").hidden = Boolean(tableId);
  // checking a file: no board and no scores until there is a game to show
  $("board").hidden = !tableId;
  $("scores-panel").hidden = !tableId;
  if (!tableId) render();
  if (tableId) {
    $("upload-label").hidden = true;
    await loadReplay(0);
    await loadBoard();
    setupControls(data.views[0].players);
    step = 0; // a replay is watched from the deal, like a game
    review = new Review($("review-panel"), {
      tableId,
      t,
      lang,
      players: data.views[0].players,
      seats: data.record.table?.seats || [],
      timeline: () => ({ steps: data.views.length, rounds: data.rounds || [0], roundKey: roundKey() }),
      here: $("review-here"),
      show: async (seat, at) => {
        if ($("seat").value !== String(seat)) {
          $("seat").value = String(seat);
          await loadReplay(seat);
        }
        step = Math.max(0, Math.min(data.views.length - 1, at));
        render();
      },
    });
    render();
    review.begin(new URLSearchParams(location.search).get("review"));
  }
}

main();
