// The move log and the table's announcements: a renderer's narrate(view, ctx) says every
// event of the round in words; lines not shown yet are added to the log, and the ones it
// marks `announce` appear big on the table for a moment.
import { h } from "../api.js";

const SHOWN_MS = 1900;

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
    while (this.list.children.length > 200) this.list.firstElementChild.remove();
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
