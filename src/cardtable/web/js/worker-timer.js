// Timers that a hidden tab keeps on time. After five minutes in the background Chrome runs
// a page's chained timers about once a minute ("intensive throttling"): a quick-match
// ticket polled that rarely drops out of the queue (the server forgets a ticket nobody
// polled for half a minute). A dedicated worker's timers are not slowed so, and its message
// wakes the page. Where no worker can be made, the page's own timer serves.
let worker = null; // null: not made yet; false: none can be
let last = 0;
const pending = new Map(); // id -> { callback, handle } (handle: the page's own timer)

const SOURCE = "onmessage = (event) => setTimeout(() => postMessage(event.data.id), event.data.ms);";

function timerWorker() {
  if (worker === null) {
    try {
      worker = new Worker(URL.createObjectURL(new Blob([SOURCE], { type: "text/javascript" })));
      worker.onmessage = (event) => {
        const entry = pending.get(event.data);
        pending.delete(event.data);
        entry?.callback();
      };
    } catch {
      worker = false;
    }
  }
  return worker;
}

/** Call ``callback`` once, ``ms`` from now (hidden or not); returns an id for cancel(). */
export function later(callback, ms) {
  const id = ++last;
  const timer = timerWorker();
  if (timer) {
    pending.set(id, { callback, handle: null });
    timer.postMessage({ id, ms });
  } else {
    pending.set(id, { callback, handle: setTimeout(() => { pending.delete(id); callback(); }, ms) });
  }
  return id;
}

/** The call later() set up will not happen. */
export function cancel(id) {
  const entry = pending.get(id);
  if (entry?.handle) clearTimeout(entry.handle);
  pending.delete(id);
}
