#!/usr/bin/env node
// The cost of one password hash at the service's default scrypt parameters (N=2^17, r=8, p=1:
// apps/api/src/auth/password.util.ts, through its own bundled code): CPU time and wall time per
// hash one at a time, then HASHES hashes started together (as sign-ins arriving at once: Node
// runs them on libuv's thread pool, UV_THREADPOOL_SIZE, 4 by default) with the process's peak RSS,
// since every hash in flight holds its 128 MiB. CPU time is the process's (process.cpuUsage, every
// thread), so it holds on a busy machine where wall time does not.
//   npx nx run tools:bench-password-hash      (HASHES=8 LOG_N=17 BENCH_WRITE=0 to print only)
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { build, machine, median, root, writeSection } from './bench-support.mjs';

const HASHES = Number(process.env.HASHES ?? 8);
const LOG_N = Number(process.env.LOG_N ?? 17);

build('tools/bench/tsup.config.ts');
const { hashPassword, passwordMatches } = createRequire(import.meta.url)(
  `${root}dist/tools/bench/password-hash.driver.js`,
);

const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

const loadBefore = loadavg()
  .map((l) => l.toFixed(1))
  .join(' / ');
await hashPassword('warm-up', LOG_N);

const sequential = [];
for (let i = 0; i < HASHES; i++) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await hashPassword(`password-${i}`, LOG_N);
  sequential.push({ wall: performance.now() - started, cpu: cpuMs(cpu) });
}
const stored = await hashPassword('correct horse', LOG_N);
const verifyCpu = process.cpuUsage();
const verifyStarted = performance.now();
const matched = await passwordMatches('correct horse', stored, LOG_N);
const verify = { wall: performance.now() - verifyStarted, cpu: cpuMs(verifyCpu) };
if (!matched) throw new Error('the hash made does not verify');

let peakRss = process.memoryUsage().rss;
const baseRss = peakRss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 10);
const togetherCpu = process.cpuUsage();
const togetherStarted = performance.now();
await Promise.all(Array.from({ length: HASHES }, (_, i) => hashPassword(`together-${i}`, LOG_N)));
const together = { wall: performance.now() - togetherStarted, cpu: cpuMs(togetherCpu) };
clearInterval(sampler);
const loadAfter = loadavg()
  .map((l) => l.toFixed(1))
  .join(' / ');

const fmt = (ms) => Math.round(ms).toLocaleString('en-GB');
const seqWall = median(sequential.map((s) => s.wall));
const seqCpu = median(sequential.map((s) => s.cpu));
const threads = process.env.UV_THREADPOOL_SIZE ?? '4 (default)';
const markdown = `
## Password hashing: one scrypt hash at the default cost (issue 33)

Command: \`npx nx run tools:bench-password-hash\` — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${machine()};
load average ${loadBefore} before, ${loadAfter} after. The service's own \`hashPassword\` / \`passwordMatches\`
(scrypt, N=2^${LOG_N}, r=8, p=1), bundled from \`apps/api/src/auth/password.util.ts\`.

| measure | median of ${HASHES} (all, ms) |
|---|---|
| one hash alone: CPU time | **${fmt(seqCpu)} ms** (${sequential.map((s) => fmt(s.cpu)).join(', ')}) |
| one hash alone: wall time | **${fmt(seqWall)} ms** (${sequential.map((s) => fmt(s.wall)).join(', ')}) |
| one sign-in's check (\`passwordMatches\`, right password) | CPU ${fmt(verify.cpu)} ms, wall ${fmt(verify.wall)} ms |
| ${HASHES} hashes started together (thread pool ${threads}) | wall ${fmt(together.wall)} ms, CPU ${fmt(together.cpu)} ms; RSS ${Math.round(baseRss / 2 ** 20)} → peak **${Math.round(peakRss / 2 ** 20)} MB** |

Reading it: a sign-in, a sign-up, a password change or a reset costs one hash (a change two: the current
password's check and the new hash); each hash in flight holds 128 MiB, and Node runs at most
\`UV_THREADPOOL_SIZE\` of them at once, so a burst of sign-ins raises the process's RSS by up to that many
times 128 MiB while it lasts (the sign-in throttling bounds how many one client can start).
`;
if (process.env.BENCH_WRITE === '0') console.log(markdown);
else writeSection('password-hash', markdown);
console.error(markdown);
