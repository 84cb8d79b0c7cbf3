// The move log and the table's announcements: a renderer's narrate(view, ctx) says every
// event of the round in words; lines not shown yet are added to the log, and the ones it
// marks `announce` appear big on the table for a moment.
import { h } from "../api.js";

const SHOWN_MS = 1900;
// a whole match's lines stay in the log (twelve rounds of koi-koi are some 300)
const KEPT_LINES = 1000;

/** A table's game in lines, the whole of it and in the order things happened: a renderer's
 * narrate(view, ctx) says one round (the view's); the story keeps each round's last view
 * and the order in which its lines were first said, in the tab's sessionStorage, so a
 * reload (or another language) tells the earlier rounds again and keeps each line where it
 * came (a koi-koi call where it was made, not after the round's last card). */
export class Story {
  constructor(tableId) {
    this.tableId = tableId;
    this.key = `cardtable.story.${tableId}`;
    const kept = JSON.parse(sessionStorage.getItem(this.key) || "null");
    this.rounds = kept?.rounds || {}; // round -> { view, roundBreak } as last seen
    this.order = kept?.order || []; // line ids, first said first
  }

  /** Every line of the game so far, in order; `narrate` says one round. */
  lines(view, ctx, narrate) {
    const round = String(view.round ?? view.stage ?? 0);
    this.rounds[round] = { view, roundBreak: ctx.roundBreak };
    const told = Object.keys(this.rounds)
      .sort((a, b) => Number(a) - Number(b))
      .flatMap((n) => (n === round ? narrate(view, ctx) : narrate(this.rounds[n].view, { ...ctx, roundBreak: this.rounds[n].roundBreak })));
    const byId = new Map();
    for (const line of told) if (!byId.has(line.id)) byId.set(line.id, line);
    const known = new Set(this.order);
    for (const id of byId.keys()) if (!known.has(id)) this.order.push(id);
    this.save();
    return this.order.filter((id) => byId.has(id)).map((id) => byId.get(id));
  }

  save() {
    try {
      sessionStorage.setItem(this.key, JSON.stringify({ rounds: this.rounds, order: this.order }));
    } catch {
      // a full storage: the story lives on in this page, a reload starts it again
    }
  }
}

export class Narrator {
  constructor(list, banner) {
    this.list = list;
    this.banner = banner;
    this.seen = new Set();
    this.queue = [];
    this.showing = false;
  }

  /** Add the lines not seen yet; `quiet` (a first frame, a language switch) only logs. */
  update(lines, quiet) {
    let added = false;
    for (const line of lines) {
      if (this.seen.has(line.id)) continue;
      this.seen.add(line.id);
      added = true;
      this.list.append(h("li", { class: line.announce ? "event announced" : "event", "data-id": line.id }, line.text));
      if (line.announce && !quiet) this.announce(line.text);
    }
    while (this.list.children.length > KEPT_LINES) this.list.firstElementChild.remove();
    if (added) this.list.scrollTop = this.list.scrollHeight;
  }

  /** Forget what was said (the language changed): the next update says it again. */
  reset() {
    this.seen.clear();
    this.list.replaceChildren();
  }

  /** Drop what is still to be announced and the one on the table now (the round's result
   * box says it all, and a banner would lie over it). */
  hush() {
    this.queue.length = 0;
    this.banner.classList.remove("show");
  }

  announce(text) {
    this.queue.push(text);
    if (!this.showing) this.next();
  }

  next() {
    const text = this.queue.shift();
    if (text === undefined) {
      this.showing = false;
      this.banner.classList.remove("show");
      return;
    }
    this.showing = true;
    this.banner.textContent = text;
    this.banner.classList.remove("show");
    void this.banner.offsetWidth; // restart the CSS animation for the next text
    this.banner.classList.add("show");
    setTimeout(() => this.next(), this.queue.length ? SHOWN_MS * 0.7 : SHOWN_MS);
  }
}
