#!/usr/bin/env node
// The operations checks' tools (deploy/test): Prometheus and promtool from Debian's `prometheus`
// package, installed when missing (as root, like the Postgres and Chromium installs), and Helm
// built with `go install` from the Go module proxy into tmp/tools/bin (kept between runs).
// Prints nothing when all is in place; exits non-zero with a reason when something cannot be had.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The Helm release the chart is checked with; `go install` builds it from the module proxy. */
export const HELM_VERSION = 'v3.19.0';
export const prometheusPath = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
export const promtoolPath = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';
/** Where the link to the Helm in use is kept for the tests (deploy/test/support/processes.ts). */
export const helmPath = join(root, 'tmp', 'tools', 'bin', 'helm');

/** A `go install` build reports its version without the patch (`v3.19`): it must be HELM_VERSION's. */
function isWantedHelm(path) {
  const version = existsSync(path) ? helmVersionOf(path) : undefined;
  return (
    version !== undefined && (version === HELM_VERSION || HELM_VERSION.startsWith(`${version}.`))
  );
}

function helmVersionOf(path) {
  try {
    return execFileSync(path, ['version', '--template', '{{.Version}}'], {
      encoding: 'utf8',
    }).trim();
  } catch {
    return undefined;
  }
}

export function ensurePrometheus() {
  if (existsSync(prometheusPath) && existsSync(promtoolPath)) return;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    throw new Error(
      `no Prometheus at ${prometheusPath}: install Debian's prometheus package (apt-get install prometheus) or set PROMETHEUS_PATH and PROMTOOL_PATH`,
    );
  }
  console.log('[ops-tools] installing Prometheus from Debian packages…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'prometheus'], {
    stdio: 'inherit',
    env,
  });
}

function goBinary() {
  return existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : 'go';
}

/**
 * Helm $HELM_VERSION: one already on PATH or in $GOPATH/bin, else built there with `go install`
 * (about 3 minutes of CPU the first time on this machine, seconds once Go's caches are warm, which
 * outlive a checkout), then linked at tmp/tools/bin/helm.
 */
export function ensureHelm() {
  if (isWantedHelm(helmPath)) return;
  const gopath = execFileSync(goBinary(), ['env', 'GOPATH'], { encoding: 'utf8' }).trim();
  const candidates = [
    join(gopath, 'bin', 'helm'),
    ...(process.env.PATH ?? '').split(':').map((dir) => join(dir, 'helm')),
  ];
  let found = candidates.find(isWantedHelm);
  if (found === undefined) {
    console.log(
      `[ops-tools] building Helm ${HELM_VERSION} with go install into ${join(gopath, 'bin')} (minutes the first time)…`,
    );
    execFileSync(goBinary(), ['install', `helm.sh/helm/v3/cmd/helm@${HELM_VERSION}`], {
      stdio: 'inherit',
    });
    found = join(gopath, 'bin', 'helm');
  }
  mkdirSync(dirname(helmPath), { recursive: true });
  rmSync(helmPath, { force: true });
  symlinkSync(found, helmPath);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const wanted = process.argv.slice(2);
    if (wanted.length === 0 || wanted.includes('prometheus')) ensurePrometheus();
    if (wanted.length === 0 || wanted.includes('helm')) ensureHelm();
  } catch (error) {
    console.error(`[ops-tools] ${error.message}`);
    process.exit(1);
  }
}
