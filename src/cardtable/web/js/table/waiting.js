// The waiting room: who has sat down, the invite link of each empty seat with a big copy
// button and a QR code for a phone at the same table, and "start with bots" for the
// creator; the game starts on the server when every human seat is taken.
import { api, h } from "../api.js";
import { errorText, gameTitle, lang, seatLabels } from "../i18n.js";
import { describeOptions } from "../options-form.js";

/** Human seats nobody has taken yet (from the frame and the presence updates since). */
export function openSeats(table) {
  return table.seats.map((seat, n) => ({ ...seat, n })).filter((s) => s.kind === "human" && !s.claimed).map((s) => s.n);
}

/** A link to hand to another device: the address with a big copy button, and its QR code
 * for a phone at hand (the waiting room's invites, "continue on another device"). */
export function shareLink(url, { id, seat, caption, t }) {
  const copy = h("button", { class: "primary copy", id, type: "button" }, t("table.copy"));
  const input = h("input", { readonly: true, value: url, class: "invite-url", "data-seat": seat, onfocus: (e) => e.target.select() });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      input.select(); // no clipboard permission: the link is selected for the person to copy
      document.execCommand?.("copy");
    }
    copy.textContent = t("wait.copied");
  });
  return [
    h("div", { class: "invite-link" }, input, copy),
    h("figure", { class: "qr" },
      h("img", { src: `/api/qr?text=${encodeURIComponent(url)}`, alt: caption, width: 168, height: 168, "data-seat": seat }),
      h("figcaption", {}, caption)),
  ];
}

function inviteRow(invite, seatName, t) {
  const url = `${location.origin}${invite.url}`;
  return h("li", { class: "invite", "data-seat": invite.seat },
    h("p", { class: "invite-for" }, t("wait.share", { name: seatName(invite.seat) })),
    shareLink(url, { id: `copy-invite-${invite.seat}`, seat: invite.seat, caption: t("wait.qr"), t }));
}

/** The game and this table's rules, for whoever waits for it to start or is invited to
 * it: the game in a line, its rule set and house rules in words, the link to all rules. */
function aboutTheGame(table, game, t, lang) {
  const summaryKey = `game.${table.game}.summary`;
  return [
    h("p", { class: "muted game-summary" }, t(summaryKey) === summaryKey ? game?.summary ?? "" : t(summaryKey)),
    h("h3", {}, t("join.rules")),
    rulesInWords(table, game, t),
    h("p", {}, h("a", { href: `/rules/${table.game}?lang=${lang}`, target: "_blank", rel: "noopener" }, t("join.full_rules", { game: gameTitle(table.game, table.title) }))),
  ];
}

/** Fill `panel` while seats are empty; hide it once the game has started. A spectator is
 * told so first: the board's own "You are watching" lies under the panel. */
export function renderWaiting(panel, { frame, credentials, t, seatName, toast, game }) {
  const table = frame.table;
  const open = openSeats(table);
  panel.hidden = !open.length || table.status === "finished";
  if (panel.hidden) {
    panel.replaceChildren();
    delete panel.dataset.shown;
    return;
  }
  const invites = JSON.parse(sessionStorage.getItem(`cardtable.invites.${table.id}`) || "[]").filter((i) => open.includes(i.seat));
  const host = credentials && credentials.seat === (table.host ?? 0);
  // every frame and presence update comes here: a panel that would look the same is left as
  // it is, so the host's chosen level, an open drop-down and the focus survive a friend's arrival
  const shown = JSON.stringify([lang(), open, invites, table.seats.map((_, n) => seatName(n)), host, table.bot_levels]);
  if (panel.dataset.shown === shown) return;
  panel.dataset.shown = shown;
  const chosenLevel = panel.querySelector("#fill-level")?.value;
  const seats = h("ul", { class: "seat-list" }, table.seats.map((seat, n) =>
    h("li", { class: open.includes(n) ? "open" : "taken", "data-seat": n },
      h("span", { class: "mark", "aria-hidden": "true" }, open.includes(n) ? "…" : "✓"),
      h("span", {}, seatName(n)),
      h("span", { class: "muted" }, open.includes(n) ? t("wait.not_yet") : t("wait.sat")))));
  const watching = frame.seat === null || frame.seat === undefined;
  const parts = [
    h("h3", {}, watching ? gameTitle(table.game, table.title) : t("wait.title")),
    watching ? h("p", { class: "watching", id: "wait-watching" }, t("table.spectating")) : "",
    h("p", { class: "muted" }, t("wait.starts")), seats,
  ];
  if (invites.length) parts.push(h("ul", { class: "invites" }, invites.map((invite) => inviteRow(invite, seatName, t))));
  if (host) { // only the host fills seats
    const levels = table.bot_levels || ["easy", "medium", "hard"];
    const selected = levels.includes(chosenLevel) ? chosenLevel : "medium";
    const level = h("select", { id: "fill-level", "aria-label": t("wait.fill_level") },
      levels.map((bot) => new Option(t(`bot.${bot}`), bot, false, bot === selected)));
    const fill = h("button", { id: "fill-bots", type: "button" }, t("wait.fill"));
    fill.addEventListener("click", async () => {
      try { // the bots are called in each reader's language ("Bot (trudny)"): no names sent
        await api(`/api/tables/${table.id}/fill`, { method: "POST", body: { ...credentials, bot: level.value } });
      } catch (error) {
        toast(errorText(error));
      }
    });
    parts.push(h("div", { class: "fill" }, fill, " ", level));
  }
  parts.push(h("section", { class: "wait-about", id: "wait-about" }, aboutTheGame(table, game, t, lang())));
  panel.replaceChildren(...parts);
}

/** The rules of ``table`` in words: its rule set, the house rules that differ from the
 * game's defaults (as the new-table form words them), the move clock. */
function rulesInWords(table, game, t) {
  const preset = table.preset || "default";
  const items = [h("li", { class: "rule-set" }, h("strong", {}, `${t("lobby.preset")}: ${t(`preset.${table.game}.${preset}`)}`),
    " ", h("span", { class: "muted" }, t(`preset.${table.game}.${preset}.help`)))];
  const changed = game ? describeOptions(game.schema, table.options || {}, { game: table.game, t }) : [];
  for (const option of changed) {
    items.push(h("li", { "data-option": option.name }, h("strong", {}, `${option.label}: ${option.value}`),
      option.help ? [" ", h("span", { class: "muted" }, option.help)] : ""));
  }
  if (!changed.length) items.push(h("li", { class: "muted" }, t("join.standard")));
  if (table.move_seconds) items.push(h("li", {}, t("join.clock", { s: table.move_seconds })));
  return h("ul", { class: "join-rules", id: "join-rules" }, items);
}

/** An invited person meets the table before sitting down: who invited them, the game and
 * its rules in words, who sits there, and a name to choose (an empty one gets a name in the
 * page's language); resolves once the name is saved. */
export function askName(panel, { table, game, credentials, t, lang }) {
  return new Promise((resolve) => {
    const names = seatLabels(table.seats);
    const seated = names.map((name, n) => (n === credentials.seat ? `${name} (${t("lobby.you")})` : name));
    const input = h("input", { id: "sit-name", maxlength: 24, autocomplete: "nickname", value: localStorage.getItem("cardtable.name") || "" });
    const error = h("p", { class: "error", role: "alert" });
    const form = h("form", { class: "sit-down" },
      h("p", { class: "join-host", id: "join-host" }, t("join.invited_by", { host: names[table.host ?? 0], game: gameTitle(table.game, table.title) })),
      h("h2", {}, gameTitle(table.game, table.title)),
      aboutTheGame(table, game, t, lang),
      h("p", { class: "join-seats" }, t("join.seats", { names: seated.join(", ") })),
      h("label", {}, h("span", {}, t("lobby.name")), " ", input),
      error,
      h("button", { class: "primary", id: "sit-down", type: "submit" }, t("join.button")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const chosen = input.value.trim();
      localStorage.setItem("cardtable.name", chosen);
      try { // no name typed: the seat keeps its default, "Player 2" in each reader's language
        if (chosen) await api(`/api/tables/${table.id}/name`, { method: "POST", body: { ...credentials, name: chosen } });
        panel.hidden = true;
        resolve();
      } catch (failure) {
        if (failure.code === "forbidden") {
          panel.hidden = true; // a wrong or used key: the table page offers to watch instead
          resolve();
          return;
        }
        error.textContent = errorText(failure);
      }
    });
    panel.replaceChildren(form);
    panel.hidden = false;
    input.focus();
  });
}
