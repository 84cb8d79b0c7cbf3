// The player key: who this browser is, without an account (server/player_keys.py). 128
// random bits made on the first visit and kept here; "Continue on another device" and the
// record's file carry it, so ratings and "your turn" follow the person to a new browser.
const KEY = "cardtable.player";
const VALID = /^[0-9a-f]{32,64}$/;

export function playerKey() {
  let key = localStorage.getItem(KEY);
  if (!key || !VALID.test(key)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    key = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(KEY, key);
  }
  return key;
}

/** Take the key another browser handed over (it replaces this browser's own). */
export function adoptPlayerKey(key) {
  if (typeof key === "string" && VALID.test(key)) localStorage.setItem(KEY, key);
}
