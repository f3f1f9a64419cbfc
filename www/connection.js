// The header's service pill: what the last requests and the open sockets saw of the service, not what was
// hoped. Every request of the page's Client goes through `fetch` below (ClientOptions.fetch), so each answer
// and each failure to connect is seen here; the views tell the state of their streams (`socket`). The pill is
// green only once the service has answered; red when nothing answers there (a port where nothing listens, a
// network down), when it answers with server errors (an outage), or when a stream lost its connection; amber
// while nothing is known yet and while the service is rate limiting. When it is not green, or when nothing
// has been heard for a while, the service is asked (GET /, through the Client) every few seconds, so the pill
// turns green again by itself after an outage, and `onRecovered` listeners run (to read again what failed).

const PROBE_BAD_MS = 3000;
const PROBE_IDLE_MS = 10_000;

const WORDS = {
  checking: { label: "checking…", say: (host) => `Checking ${host}…` },
  ok: { label: "", say: (host) => `Connected to ${host}: it answered just now.` },
  busy: { label: "busy", say: (host) => `${host} answers, but is rate limiting this page.` },
  error: { label: "not answering", say: (host, why) => `${host} is not answering requests${why ? ` (${why})` : ""}: the service has a problem.` },
  unreachable: { label: "unreachable", say: (host) => `${host} cannot be reached: nothing answered there. Check the base URL and your connection.` },
  reconnecting: { label: "reconnecting", say: (host) => `The connection to ${host} was lost; reconnecting.` },
};

/**
 * `summary`: the pill (its `data-state` colours the dot); `label`: the pill's state word; `detail`: the sentence
 * in the service form. `probe(signal)` asks the service something small through the current client.
 */
export function serviceHealth({ summary, label, detail, probe }) {
  let host = "";
  let generation = 0;
  /** The last request's outcome: { kind: ok | busy | error | unreachable, why }, or null before any. */
  let rest = null;
  /** When anything (an answer, a socket's news) was last heard from the service. */
  let heardAt = 0;
  /** name → the stream's status. */
  const sockets = new Map();
  let shown = "";
  let timer = 0;
  let probing = null;
  const recovered = [];

  function state() {
    const lost = [...sockets.values()].some((s) => s === "reconnecting");
    if (rest?.kind === "unreachable" || rest?.kind === "error") return rest.kind;
    if (lost) return "reconnecting";
    if (rest?.kind === "busy") return "busy";
    if (rest?.kind === "ok" || [...sockets.values()].includes("open")) return "ok";
    return "checking";
  }

  function render() {
    const now = state();
    const words = WORDS[now];
    summary.dataset.state = now;
    label.textContent = words.label;
    detail.textContent = words.say(host, rest?.why);
    summary.title = detail.textContent;
    const wasBad = ["error", "unreachable", "reconnecting"].includes(shown);
    shown = now;
    if (wasBad && now === "ok") for (const listener of recovered) listener();
    schedule();
  }

  /** Asks the service again soon when it is not known to be well, or when it has been quiet for a while. */
  function schedule() {
    clearTimeout(timer);
    const bad = shown !== "ok" && shown !== "busy";
    const wait = bad ? PROBE_BAD_MS : Math.max(0, heardAt + PROBE_IDLE_MS - Date.now());
    timer = setTimeout(runProbe, wait);
  }

  function runProbe() {
    if (document.hidden || probing) return schedule();
    if (shown === "ok" && Date.now() - heardAt < PROBE_IDLE_MS) return schedule();
    const controller = new AbortController();
    probing = controller;
    Promise.resolve()
      .then(() => probe(controller.signal))
      .catch(() => {}) // what it met is seen by `fetch` below
      .finally(() => {
        if (probing === controller) probing = null;
        schedule();
      });
  }

  function saw(mine, outcome) {
    if (mine !== generation) return; // an answer to the client that was replaced
    rest = outcome;
    if (outcome.kind !== "unreachable") heardAt = Date.now();
    render();
  }

  return {
    /** A new client for `baseUrl`: nothing is known of it yet. Answers the `fetch` to give that client. */
    connect(baseUrl) {
      generation += 1;
      host = new URL(baseUrl).host;
      rest = null;
      heardAt = 0;
      sockets.clear();
      probing?.abort();
      probing = null;
      const mine = generation;
      render();
      /** @type {(input: string, init?: RequestInit) => Promise<Response>} */
      return (input, init) => fetch(input, init).then((response) => {
        const s = response.status;
        saw(mine, s >= 500 ? { kind: "error", why: `HTTP ${s}` } : s === 429 ? { kind: "busy" } : { kind: "ok" });
        return response;
      }, (error) => {
        // A request the page gave up on (or timed out) says nothing of the service.
        if (!init?.signal?.aborted) saw(mine, { kind: "unreachable" });
        throw error;
      });
    },
    /** A view's stream changed: `status` as the stream tells it, or null when it closed. */
    socket(name, status) {
      if (status === null || status === "closed") sockets.delete(name);
      else sockets.set(name, status);
      if (status === "open") {
        heardAt = Date.now();
        // The socket reached the service: a failure to connect earlier is over.
        if (rest?.kind === "unreachable") rest = { kind: "ok" };
      }
      render();
    },
    /** `listener()` runs when the service answers again after it could not be reached or had errors. */
    onRecovered(listener) {
      recovered.push(listener);
    },
  };
}
