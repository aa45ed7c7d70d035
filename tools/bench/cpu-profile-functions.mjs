#!/usr/bin/env node
// A `--cpu-prof` profile (bench-cpu's CPU_PROF for the service, BASELINE_NODE_ARGS="--cpu-prof
// --cpu-prof-dir=<dir>" for the floor) by function and by package, self and inclusive, over a
// window of its samples; given two or more, side by side (issue 28: the service's PK read
// against the floor's on the same requests). Where cpu-profile-parts.mjs gives each sample to one
// of the contract's duties, this one names every function, so a part that is not a duty (Nest's
// route pipeline, the promise turns, Fastify's hooks) shows as itself.
//
//   node tools/bench/cpu-profile-functions.mjs <file.cpuprofile>
//       the profile's busy share every 2 s (where the measured requests are)
//   node tools/bench/cpu-profile-functions.mjs <file>@<from>-<to>[=<µs>] [<file>@<from>-<to>[=<µs>] …]
//       the samples from <from> to <to> seconds after the profile starts; with =<µs> (the
//       process's measured CPU a request) each share is also shown as that share of it: a split
//       of a measured figure, not a measurement of each part
//
// Env: TOP (functions listed, default 40), MATCH (a regular expression: only the functions whose
// "name file:line" matches), WITHOUT_WRITE=1 (the socket's writes, `writev`, left out of the
// samples). Shares are of the window's busy samples: a CPU profile counts a socket write as wall
// time, the thread descheduled in it too, so on a loaded machine its share moves with the load;
// WITHOUT_WRITE=1 compares the rest.
import { readFileSync } from 'node:fs';

const TOP = Number(process.env.TOP ?? 40);
const MATCH = process.env.MATCH === undefined ? undefined : new RegExp(process.env.MATCH);
const WITHOUT_WRITE = process.env.WITHOUT_WRITE === '1';

/** The package or part a function's own time is counted under. */
function packageOf(frame) {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'the collector';
  if (functionName === '(program)') return '(program)';
  if (functionName === 'writev' || functionName === 'writeBuffer') return 'the socket write';
  if (url === '') return `V8/native: ${functionName || '(anonymous)'}`;
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    // pg-protocol's files are dist/parser.js, dist/serializer.js…: named by their package.
    return name.startsWith('pg') || name === 'postgres-array' ? 'pg' : name;
  }
  if (url.startsWith('node:')) return `node:${url.slice('node:'.length).split('/').at(-1)}`;
  if (url.includes('/dist/apps/api/')) return 'the service';
  return url.split('/').at(-1);
}

const keyOf = (frame) => {
  const modules = frame.url.lastIndexOf('node_modules/');
  const where =
    modules >= 0
      ? frame.url.slice(modules + 'node_modules/'.length)
      : frame.url.replace(/^.*\/(dist\/apps\/api\/|tools\/bench\/)/, '$1');
  return `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
};

function load(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  return { profile, nodes, parentOf };
}

/** Calls `each(node, seconds, µs)` for every sample: its leaf node, when, and how long it stands for. */
function samples({ profile, nodes }, each) {
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    const lasted = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i];
    each(nodes.get(profile.samples[i]), (at - profile.startTime) / 1e6, lasted);
  }
}

function timeline(file) {
  const loaded = load(file);
  const busy = new Map();
  samples(loaded, (node, seconds, lasted) => {
    if (node.callFrame.functionName === '(idle)') return;
    const slot = Math.floor(seconds / 2) * 2;
    busy.set(slot, (busy.get(slot) ?? 0) + lasted);
  });
  for (const [slot, micros] of [...busy].sort((a, b) => a[0] - b[0]))
    console.log(`${String(slot).padStart(4)} s  ${((micros / 2e6) * 100).toFixed(1)} % busy`);
}

function split(spec) {
  const parsed = /^(.*)@([\d.]+)-([\d.]+)(?:=([\d.]+))?$/.exec(spec);
  if (parsed === null) throw new Error(`${spec}: expected <file>@<from>-<to>[=<µs>]`);
  const [, file, from, to, us] = parsed;
  const loaded = load(file);
  const self = new Map();
  const inclusive = new Map();
  const packages = new Map();
  let busy = 0;
  samples(loaded, (node, seconds, lasted) => {
    if (seconds < Number(from) || seconds > Number(to)) return;
    if (node.callFrame.functionName === '(idle)') return;
    if (WITHOUT_WRITE && packageOf(node.callFrame) === 'the socket write') return;
    busy += lasted;
    const leaf = keyOf(node.callFrame);
    self.set(leaf, (self.get(leaf) ?? 0) + lasted);
    const part = packageOf(node.callFrame);
    packages.set(part, (packages.get(part) ?? 0) + lasted);
    // Each function once per sample, however often it recurs on the stack.
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = loaded.parentOf.get(id)) {
      const key = keyOf(loaded.nodes.get(id).callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + lasted);
    }
  });
  return { spec, busy, us: us === undefined ? undefined : Number(us), self, inclusive, packages };
}

function show(value, of) {
  const share = `${((value / of.busy) * 100).toFixed(2)} %`;
  return of.us === undefined ? share : `${share} (${((value / of.busy) * of.us).toFixed(1)} µs)`;
}

const specs = process.argv.slice(2);
if (specs.length === 0) {
  console.error(
    'usage: cpu-profile-functions.mjs <file.cpuprofile> | <file>@<from>-<to>[=<µs>] [<file>@<from>-<to>[=<µs>] …]',
  );
  process.exit(2);
}
if (specs.length === 1 && !specs[0].includes('@')) {
  timeline(specs[0]);
  process.exit(0);
}
const profiles = specs.map(split);
const columns = (map) => profiles.map((p) => show(map(p), p)).join(' | ');
console.log(`| by package (self) | ${profiles.map((p) => p.spec).join(' | ')} |`);
console.log(`|---|${profiles.map(() => '---|').join('')}`);
const parts = new Set(profiles.flatMap((p) => [...p.packages.keys()]));
const total = (part) => profiles.reduce((sum, p) => sum + (p.packages.get(part) ?? 0) / p.busy, 0);
for (const part of [...parts].sort((a, b) => total(b) - total(a))) {
  if (total(part) < 0.002 * profiles.length) continue;
  console.log(`| ${part} | ${columns((p) => p.packages.get(part) ?? 0)} |`);
}
for (const p of profiles) {
  for (const [title, map] of [
    ['self', p.self],
    ['inclusive', p.inclusive],
  ]) {
    console.log(`\n${p.spec}: functions by ${title} time (self, inclusive)`);
    const rows = [...map]
      .filter(([key]) => MATCH === undefined || MATCH.test(key))
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP);
    for (const [key] of rows)
      console.log(`  ${show(p.self.get(key) ?? 0, p)}  ${show(p.inclusive.get(key), p)}  ${key}`);
  }
}
