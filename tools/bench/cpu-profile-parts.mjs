#!/usr/bin/env node
// A request's CPU by parts, from a `--cpu-prof` profile of the service or of the floor (issue 28):
// each non-idle sample goes to the innermost frame of one of the contract's per-request duties
// on its stack — the request line, the key's SHA-256, the budget and its headers, the key's other
// checks, the request id — else to the package of its leaf frame (NestJS, Fastify, pg, Node's own
// code, the app's other code), the garbage collector, or the socket's write (`writev`, which a CPU
// profile counts as wall time). Prints each part's share of the samples, and with µs a request
// given, that share of it (a split of a measured figure, not a measurement of each part).
//
//   node tools/bench/cpu-profile-parts.mjs <file.cpuprofile> [fromSeconds] [µsPerRequest]
//
// FUNCTIONS=<regex> (env) also prints the self time of each function whose name matches, by
// function and file, as a share of the same samples (e.g. Node's header path:
// FUNCTIONS='^(setHeader|writeHead|_storeHeader|checkInvalidHeaderChar|isPlainObject)$').
//
// fromSeconds: samples before it (start-up, the bench's warm-up) are left out; see where the load
// starts with `node -e` over the profile's samples, or take the bench's own timings. The profiles
// come from bench-cpu: `CPU_PROF=<dir>` for the service, `BASELINE_NODE_ARGS="--cpu-prof
// --cpu-prof-dir=<dir>"` for the bare apps and the floor.
import { readFileSync } from 'node:fs';

const [file, fromArg = '0', usArg] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: cpu-profile-parts.mjs <file.cpuprofile> [fromSeconds] [µsPerRequest]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const from = Number(fromArg);
const usPerRequest = usArg === undefined ? undefined : Number(usArg);

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parentOf.set(child, node.id);

/** The duties, by the names of the functions that do them (the service's and the floor's). */
const DUTIES = [
  ['the request line', /^(writeLine|logLine|writeHeld|flushSync|writeFully|turnBytes|lineStarts)$/],
  ["the key's SHA-256", /^(presentedKeyDigest|hash|digest|Hash|update)$/],
  ['the budget and its headers', /^(spendOrRefuse|spend|setBudgetHeaders)$/],
  [
    "the key's form, cache and principal",
    /^(authenticate|authenticateKey|admit|verify|formIsRight|apiKeyFormRefusal|principalOf|keyAuthenticated)$/,
  ],
  ['the request id', /^(assignRequestId|requestId)$/],
];
const LOG_WRITE = /^(writeHeld|writeFully|flushSync)$/;
const SOCKET_WRITE = /^(writev|writeBuffer|writeUtf8String|writeLatin1String)$/;

const isApp = (url) => url.includes('/dist/apps/') || url.includes('duties.mjs');
const isCrypto = (url) => url.startsWith('node:') && url.includes('crypto');

/**
 * The package of a frame, or undefined for a native one. By the folder under `node_modules` (the
 * floor's own path, `perf-baseline/fastify/`, holds its pg and its script: not Fastify's).
 */
function packageOf(url) {
  if (isApp(url)) return "the app's other code";
  if (/node_modules\/(@nestjs|iterare|reflect-metadata|rxjs)\//.test(url)) return 'NestJS';
  if (/node_modules\/(@fastify\/|fastify|find-my-way|middie|avvio|light-my-request)/.test(url))
    return 'Fastify';
  if (/node_modules\/pg[-/]/.test(url)) return 'pg';
  if (url.startsWith('node:')) return "Node's own code";
  return undefined;
}

/** The frames of a sample, innermost first. */
function* stackOf(id) {
  for (let at = id; at !== undefined; at = parentOf.get(at)) yield nodes.get(at);
}

function partOf(leaf) {
  const name = leaf.callFrame.functionName;
  if (name === '(garbage collector)') return 'GC';
  if (name === '(program)') return '(program)';
  if (SOCKET_WRITE.test(name) && leaf.callFrame.url === '') {
    for (const frame of stackOf(leaf.id))
      if (LOG_WRITE.test(frame.callFrame.functionName)) return 'the request line';
    return "the socket's write (wall time)";
  }
  for (const frame of stackOf(leaf.id)) {
    const { functionName, url } = frame.callFrame;
    if (!isApp(url) && !isCrypto(url) && url !== '') continue;
    for (const [part, names] of DUTIES) {
      if (!names.test(functionName)) continue;
      // Hashing is Node's code; every other duty is the app's own.
      if (isApp(url) || part === "the key's SHA-256") return part;
    }
  }
  for (const frame of stackOf(leaf.id)) {
    const part = packageOf(frame.callFrame.url);
    if (part !== undefined) return part;
  }
  return 'native, other';
}

const FUNCTIONS = process.env.FUNCTIONS ? new RegExp(process.env.FUNCTIONS) : undefined;
/** Self samples of the functions FUNCTIONS names, by `name file`. */
const selfCounts = new Map();
const counts = new Map();
let total = 0;
let time = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  time += profile.timeDeltas[i];
  if ((time - profile.startTime) / 1e6 < from) continue;
  const leaf = nodes.get(profile.samples[i]);
  if (leaf.callFrame.functionName === '(idle)') continue;
  total += 1;
  const part = partOf(leaf);
  counts.set(part, (counts.get(part) ?? 0) + 1);
  const { functionName, url } = leaf.callFrame;
  if (FUNCTIONS?.test(functionName)) {
    const key = `${functionName} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\//, '')}`;
    selfCounts.set(key, (selfCounts.get(key) ?? 0) + 1);
  }
}

console.log(
  `${total} samples from ${from} s${usPerRequest ? `, shares of ${usPerRequest} µs` : ''}`,
);
console.log(usPerRequest ? '| part | share | µs |\n|---|---|---|' : '| part | share |\n|---|---|');
for (const [part, count] of [...counts].sort((a, b) => b[1] - a[1])) {
  const share = `${((100 * count) / total).toFixed(1)} %`;
  const us = usPerRequest ? ` ${((count / total) * usPerRequest).toFixed(1)} |` : '';
  console.log(`| ${part} | ${share} |${us}`);
}
if (FUNCTIONS !== undefined) {
  console.log(
    `\nSelf time of the functions matching ${FUNCTIONS}:\n| function | share |\n|---|---|`,
  );
  for (const [key, count] of [...selfCounts].sort((a, b) => b[1] - a[1]))
    console.log(`| ${key} | ${((100 * count) / total).toFixed(2)} % |`);
}
