// The connection pill of a live stream and its screen-reader announcements, shared by the market and
// orders views.
//
// The pill is for the eyes: it changes as soon as the stream does (a reconnect can last under a second)
// and its "verified 3 s ago" ticks. It is not a live region, so screen readers are not told every second.
// What they are told goes through `announcer`, a separate polite live region that changes at most once a
// second and only when the coarse state changes ("Reconnecting", "Live and verified"); the latest state
// wins when several come within a second.

const ANNOUNCE_EVERY_MS = 1000;

/**
 * `pill` is the element carrying the state as data attributes, `text` its visible text, `announcer` a
 * visually hidden element with aria-live="polite". `onAnnounced(text)` is called after a message went out.
 */
export function livePill({ pill, text, announcer, onAnnounced }) {
  let announced = "";
  let pending = null;
  let lastAt = 0;
  let timer = 0;

  function flush() {
    timer = 0;
    if (pending === null) return;
    const message = pending;
    pending = null;
    if (message === announced) return;
    announced = message;
    lastAt = Date.now();
    announcer.textContent = message;
    onAnnounced?.(message);
  }

  return {
    /**
     * Shows a state: `status` and `tone` (ok, wait, bad, paused) go to data attributes (the colour of the
     * dot; the words always say the same), `label` is the visible text, `detail` a tooltip, `data` more
     * data attributes. `announce` (optional) is the sentence for screen readers.
     */
    set({ status, tone, label, detail = "", data = {}, announce }) {
      pill.dataset.status = status;
      pill.dataset.tone = tone;
      for (const [key, value] of Object.entries(data)) pill.dataset[key] = String(value);
      if (text.textContent !== label) text.textContent = label;
      if (pill.title !== detail) pill.title = detail;
      if (announce) this.announce(announce);
    },
    /** Queues a sentence for screen readers: out at once, or a second after the previous one. */
    announce(message) {
      pending = message;
      if (timer) return;
      timer = setTimeout(flush, Math.max(0, lastAt + ANNOUNCE_EVERY_MS - Date.now()));
    },
    /** Forgets what was said (a new market or account starts afresh); nothing is announced. */
    reset() {
      clearTimeout(timer);
      timer = 0;
      pending = null;
      announced = "";
      announcer.textContent = "";
    },
  };
}

/** "just now", "5 s ago", "3 min ago". */
export function ago(at, now = Date.now()) {
  const seconds = Math.max(0, Math.floor((now - at) / 1000));
  if (seconds < 2) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ago` : `${Math.floor(minutes / 60)} h ago`;
}
