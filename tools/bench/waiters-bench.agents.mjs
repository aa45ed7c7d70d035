// One of bench-waiters' agent processes (forked by waiters.bench.mjs): its share of the agents,
// each waiting for its interrupt with the TypeScript SDK's real `waitForAnswer`. The parent makes
// the decisions from a process of its own; this one says when each wait returned, on the clock
// every process of the machine shares (process.hrtime: CLOCK_MONOTONIC), and what its agents'
// requests met. Messages (IPC):
//   parent → { type: 'start', sdk, key, bases, ids }   sdk: the SDK's dist/index.js as a file URL
//   parent → { type: 'snapshot', tag }                 → { type: 'snapshot', tag, ...counters }
//   parent → { type: 'stop' }                          → { type: 'stopped', failures } and exit
//   this   → { type: 'sent' }                          every agent's first request is sent
//   this   → { type: 'returned', id, at, server }      a wait returned (at: ms on hrtime)
import { setMaxListeners } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const now = () => Number(process.hrtime.bigint()) / 1e6;

const seen = {
  requests: 0,
  refused: 0,
  unavailable: 0,
  unavailableWhy: {},
  leastRemaining: null,
};
const abort = new AbortController();
setMaxListeners(0, abort.signal); // one listener per agent
const failures = [];
const lag = monitorEventLoopDelay({ resolution: 10 });
let waits = Promise.resolve();

/** The fetch the agents' SDK clients use: counts what every request met, and who served it. */
async function countingFetch(input, init) {
  seen.requests++;
  const res = await fetch(input, init);
  if (res.status === 429) seen.refused++;
  if (res.status === 503) {
    seen.unavailable++;
    // Who refused, and why: the service's JSON error, or the load balancer's page.
    void res
      .clone()
      .text()
      .then((text) => {
        const why = /"message":"([^"]*)"/.exec(text)?.[1] ?? text.slice(0, 60).replace(/\s+/g, ' ');
        seen.unavailableWhy[why] = (seen.unavailableWhy[why] ?? 0) + 1;
      });
  }
  const remaining = res.headers.get('ratelimit-remaining');
  if (remaining !== null)
    seen.leastRemaining = Math.min(seen.leastRemaining ?? Infinity, Number(remaining));
  return res;
}

async function start({ sdk, key, bases, ids }) {
  const { Interlock } = await import(sdk);
  // The server that answered each agent's last request (HAProxy's x-bench-server), by interrupt.
  const servedBy = new Map();
  const clients = bases.map(
    (baseURL) =>
      new Interlock({
        apiKey: key,
        baseURL,
        fetch: async (input, init) => {
          const res = await countingFetch(input, init);
          const server = res.headers.get('x-bench-server');
          const id = /\/api\/interrupts\/([0-9a-f-]{36})/.exec(String(input))?.[1];
          if (server !== null && id !== undefined) servedBy.set(id, server);
          return res;
        },
      }),
  );
  // The SDK's defaults, as an agent has them (a 503 or 429 is retried with backoff); agent i goes
  // through bases[i % k] (one load balancer of several, or the one instance).
  waits = Promise.all(
    ids.map((id, i) =>
      clients[i % clients.length].interrupts
        .waitForAnswer(id, { timeout: 30 * 60_000, signal: abort.signal })
        .then(() => {
          const at = now();
          process.send({ type: 'returned', id, at, server: servedBy.get(id) ?? null });
        })
        .catch((error) => {
          if (!abort.signal.aborted) failures.push(`${id}: ${error.message}`);
        }),
    ),
  );
  while (seen.requests < ids.length) await new Promise((r) => setTimeout(r, 100));
  process.send({ type: 'sent' });
}

process.on('message', (message) => {
  switch (message.type) {
    case 'start':
      lag.enable();
      void start(message).catch((error) => {
        console.error(error);
        process.exit(1);
      });
      return;
    case 'snapshot': {
      const snapshot = {
        type: 'snapshot',
        tag: message.tag,
        ...seen,
        lagP99: lag.percentile(99) / 1e6,
      };
      lag.reset();
      process.send(snapshot);
      return;
    }
    case 'stop':
      abort.abort();
      void waits.then(() => {
        lag.disable();
        process.send({ type: 'stopped', failures }, () => process.exit(0));
      });
      return;
  }
});
