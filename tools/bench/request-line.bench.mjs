#!/usr/bin/env node
// The request's log line alone (issue 28): CPU time and bytes allocated a line of the real
// `createLogger` + `httpLogger` (apps/api/src/logging/logger.ts, bundled by esbuild), on Node's own
// IncomingMessage and ServerResponse with request headers as autocannon sends them (and a key for
// whoami) and a few response headers like the service's, written to standard output (here
// /dev/null) as the service writes it: five lines a turn of the event loop. A fresh request and response a line (the service's case);
// `LOG_LEVEL=warn` gives what the harness costs without the line. No service, no database.
//
//   node tools/bench/request-line.bench.mjs
//
// Environment: LINES per round (default 200000), ROUNDS (default 6), ONLY (health, whoami or
// both, the default), LOG_LEVEL (default info). AGAINST=<another checkout>: that checkout's
// logger too, the two alternated round by round (the order swapped each round), each round in a
// fresh process; printed as this checkout's µs a line over the other's; AGAINST_LOG_LEVEL runs
// the other side at another level (AGAINST=. AGAINST_LOG_LEVEL=warn: what the line costs).
// SERVER=1: instead, a bare node:http server in a process of its own (the front door's request
// id and state, the line, a 15-byte JSON answer) driven by autocannon with 50 connections, its
// CPU time over LINES requests after 10,000: the line among real sockets and turns of the event
// loop, where it costs about twice what the loop above shows (BENCHMARKS.md, issue 28 session 19).
// Nothing is written.
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { buildSync } from 'esbuild';

const root = resolve(import.meta.dirname, '..', '..');
const LINES = Number(process.env.LINES ?? 200_000);
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const ROUTES = process.env.ONLY?.split(',') ?? ['health', 'whoami'];
const LEVEL = process.env.LOG_LEVEL ?? 'info';
const against = process.env.AGAINST ? resolve(process.env.AGAINST) : undefined;
const AGAINST_LEVEL = process.env.AGAINST_LOG_LEVEL ?? LEVEL;
const SERVER = process.env.SERVER === '1';

/** One round in the bundle's process: a warm-up round, then the measured one; JSON on stderr. */
const HARNESS = `
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Session } from 'node:inspector/promises';
import { createLogger, httpLogger } from './apps/api/src/logging/logger';
import { assignRequestId } from './apps/api/src/http/request-id.middleware';

const [route, level, lines] = [process.env.ROUTE, process.env.LEVEL, Number(process.env.LINES)];
const log = httpLogger(createLogger({ logLevel: level, logFormat: 'json' } as never), 'ilk_');
const socket = new Socket();
Object.defineProperty(socket, 'remoteAddress', { value: '127.0.0.1' });
const url = route === 'health' ? '/health/live' : '/api/whoami';
const requestHeaders = route === 'health'
  ? { host: 'localhost:39001' }
  : { host: 'localhost:39001', 'x-api-key': 'ilk_' + 'Ab'.repeat(32) };

function line(): void {
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = url;
  req.headers = { ...requestHeaders };
  const res = new ServerResponse(req);
  const state = assignRequestId(req, res);
  state.route = url;
  log(req, res, state);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', 15);
  res.setHeader('keep-alive', 'timeout=5');
  if (route === 'whoami') {
    res.setHeader('ratelimit-limit', 1000);
    res.setHeader('ratelimit-remaining', 999);
    res.setHeader('ratelimit-reset', 60);
    res.setHeader('cache-control', 'no-store');
  }
  res.statusCode = 200;
  res.emit('close');
}

async function round(): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < lines; i += 5) {
    for (let j = 0; j < 5; j++) line();
    await new Promise((next) => setImmediate(next));
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / lines;
}

(async () => {
  await round();
  const micros = await round();
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 512,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  await round();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { samples: unknown[] } };
  process.stderr.write(JSON.stringify({ micros, bytes: (profile.samples.length * 512) / lines }) + '\\n');
})();
`;

/** SERVER=1: the server, its port sent to the parent, its CPU time (µs) on each message. */
const SERVER_HARNESS = `
import { createServer } from 'node:http';
import { createLogger, httpLogger } from './apps/api/src/logging/logger';
import { assignRequestId } from './apps/api/src/http/request-id.middleware';

const log = httpLogger(createLogger({ logLevel: process.env.LEVEL, logFormat: 'json' } as never), 'ilk_');
const body = '{"status":"ok"}';
const server = createServer((req, res) => {
  const state = assignRequestId(req, res);
  state.route = req.url;
  log(req, res, state);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', body.length);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.send?.((server.address() as { port: number }).port));
process.on('message', () => {
  const used = process.cpuUsage();
  process.send?.(used.user + used.system);
});
`;

const work = mkdtempSync(join(tmpdir(), 'request-line-'));

/** The harness bundled against `checkout`'s sources (its packages left to its node_modules). */
function bundle(checkout, name) {
  const outfile = join(work, `${name}.cjs`);
  buildSync({
    stdin: { contents: SERVER ? SERVER_HARNESS : HARNESS, resolveDir: checkout, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return { checkout, outfile };
}

function measure({ checkout, outfile, level }, route) {
  const child = spawnSync(process.execPath, [outfile], {
    env: {
      ...process.env,
      NODE_PATH: join(checkout, 'node_modules'),
      ROUTE: route,
      LEVEL: level,
      LINES,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`the harness failed:\n${child.stderr}`);
  return JSON.parse(child.stderr.trim().split('\n').at(-1));
}

/** SERVER=1: CPU µs a request of a fresh server process over LINES requests, after 10,000. */
async function measureServer({ checkout, outfile, level }, route) {
  const child = fork(outfile, {
    env: { ...process.env, NODE_PATH: join(checkout, 'node_modules'), LEVEL: level },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    const port = await new Promise((ready) => child.once('message', ready));
    const cpu = () =>
      new Promise((read) => {
        child.once('message', read);
        child.send('cpu');
      });
    const options = {
      url: `http://127.0.0.1:${port}${route === 'health' ? '/health/live' : '/api/whoami'}`,
      connections: 50,
      headers: route === 'health' ? {} : { 'x-api-key': `ilk_${'Ab'.repeat(32)}` },
    };
    await autocannon({ ...options, amount: 10_000 });
    const before = await cpu();
    await autocannon({ ...options, amount: LINES });
    return { micros: ((await cpu()) - before) / LINES, bytes: Number.NaN };
  } finally {
    child.kill();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const f = (value, digits = 2) => value.toFixed(digits);
const allocated = (bytes) => (SERVER ? '' : `, ~${f(bytes, 0)} B`);

try {
  const sides = [
    { ...bundle(root, 'this'), level: LEVEL },
    ...(against ? [{ ...bundle(against, 'other'), level: AGAINST_LEVEL }] : []),
  ];
  const other = against ? ` (the other: ${AGAINST_LEVEL})` : '';
  const where = SERVER ? ', in a node:http server' : '';
  console.log(
    `request line${where}, LOG_LEVEL=${LEVEL}${other}, ${LINES} a round, load ${f(loadavg()[0], 1)}`,
  );
  for (const route of ROUTES) {
    const results = sides.map(() => []);
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => i).reverse();
      for (const i of order)
        results[i].push(SERVER ? await measureServer(sides[i], route) : measure(sides[i], route));
    }
    const micros = results.map((rs) => rs.map((x) => x.micros));
    const bytes = results.map((rs) => median(rs.map((x) => x.bytes)));
    let row = `| ${route} | ${micros[0].map((x) => f(x)).join(' ')} (**${f(median(micros[0]))}**) µs${allocated(bytes[0])} |`;
    if (against) {
      const ratios = micros[0].map((x, i) => x / micros[1][i]);
      row += ` ${micros[1].map((x) => f(x)).join(' ')} (**${f(median(micros[1]))}**) µs${allocated(bytes[1])} | ${ratios.map((x) => f(x, 3)).join(' ')} (**${f(median(ratios), 3)}**) |`;
    }
    console.log(row);
  }
  console.log(`load ${f(loadavg()[0], 1)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
