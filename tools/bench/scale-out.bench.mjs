#!/usr/bin/env node
// Scale-out: two instances behind HAProxy, their pools through PgBouncer in transaction mode
// (and, for comparison, direct): cross-instance notification latency, revoke-to-refusal time,
// and what a client sees when an instance is killed or stopped under load.
//   npx nx run tools:bench-scale-out     (BENCH_DATABASE_URL=postgres://… to use your own server)
// Installs HAProxy and PgBouncer from Debian when missing (as root), like npm test.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build, machine, root, writeSection } from './bench-support.mjs';
import { startThrowawayPostgres } from '../scripts/throwaway-postgres.mjs';

build('tools/bench/tsup.config.ts');
build('apps/api/tsup.config.ts');
let cluster;
let adminUrl = process.env.BENCH_DATABASE_URL;
if (!adminUrl) {
  cluster = await startThrowawayPostgres();
  adminUrl = cluster.url;
}
try {
  const output = await new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(root, 'dist/tools/bench/scale-out-bench.driver.js')],
      {
        env: { PATH: process.env.PATH, TEST_DATABASE_URL: adminUrl },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`driver exited ${code}`)),
    );
  });
  const r = JSON.parse(output);
  const ms = (x) => `${x.p50.toFixed(1)} / ${x.p99.toFixed(1)} / ${x.max.toFixed(1)}`;
  const counts = (x) => {
    const failed =
      Object.entries(x.failed)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ') || 'none';
    return `${x.sent} | ${x.ok} | ${failed} | ${Math.round(x.outOfRotationMs)} ms`;
  };
  const row = (label, x) =>
    `| ${label} | ${(x.startMs / 1000).toFixed(1)} s | ${ms(x.liveViewMs)} | ${ms(x.revoke.idle)} | ${ms(x.revoke.revoke)} | ${ms(x.revoke.firstRefusal)} | ${x.revoke.lateAccepted} of ${x.revoke.requestsAfter} |`;
  const p = r.pgbouncer;
  writeSection(
    'scale-out',
    `## Scale-out

Command: \`npx nx run tools:bench-scale-out\` — ${new Date().toISOString().slice(0, 10)}, ${machine()}, Postgres 15
(throwaway), PgBouncer 1.18 and HAProxy 2.6 from Debian, everything on the same machine. The
topology of the scale-out test (\`apps/api/test/scale-out.e2e-spec.ts\`): HAProxy round-robin with
health checks on \`/health/ready\` every 200 ms (2 failures to take a server out, 2 successes to
put it back) and retries with redispatch, in front of two instances whose pools go through
PgBouncer in transaction mode while LISTEN and migrations go direct — and, as the baseline, the
same two instances with their pools direct. One run; read as indicative. Before this setup
existed (issue 19, LISTEN through the same PgBouncer), a revoked key was still accepted by the
other instance for 0.7–2.7 s, Live View messages arrived 0.4–4.8 s late and a revoke took 2 s.

Both instances start at once on an empty database (one migrates, the other waits for the lock).
Live View: ${p.liveViewMs.n} messages appended through B one at a time, each timed from sending the append to
its arrival on a stream open on A. Revocation: ${p.revoke.revoke.n} keys revoked through A with B idle (the revoke's
own cost: commit, barrier, both instances' acknowledgements), then ${p.revoke.revoke.n} more while 16 clients call B
with the key as fast as they can; *first 401* is when the first refusal reached one of them, from
sending the revoke (B drops the key when the change's notification arrives, before it
acknowledges); *late* counts B's requests sent after the revoke's 204 that were served (the
target is 0). With B saturated, its notifications wait behind the requests on its event loop:
that, not the pooler, is the difference between the two revoke columns.

| pools | both up | Live View ms p50 / p99 / max | revoke, B idle, ms p50 / p99 / max | revoke, 16 clients on B, ms p50 / p99 / max | first 401 on B, ms p50 / p99 / max | late (of requests after the 204) |
|---|---|---|---|---|---|---|
${row('direct', r.direct)}
${row('PgBouncer, transaction mode', p)}

Losing an instance under 20 concurrent readers (\`GET /api/whoami\` with a key, through HAProxy,
1.5 s before and after): every request is counted; *out of rotation* is from the signal to
HAProxy marking the instance DOWN. SIGTERM uses a drain delay of 2 s.

| event | requests | 200 | failed | out of rotation |
|---|---|---|---|---|
| SIGKILL of one instance | ${counts(p.sigkill)} |
| SIGTERM of one instance | ${counts(p.sigterm)} |
| SIGKILL, HAProxy without retries | ${counts(p.sigkillWithoutRetries)} |`,
  );
  console.log('BENCHMARKS.md updated (scale-out).');
} finally {
  cluster?.stop();
}
