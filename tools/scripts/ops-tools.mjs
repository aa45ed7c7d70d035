#!/usr/bin/env node
// The operations checks' tools (deploy/test): Prometheus and promtool from Debian's `prometheus`
// package, installed when missing (as root, like the Postgres and Chromium installs), and Helm
// built with `go install` from the Go module proxy into tmp/tools/bin (kept between runs).
// Prints nothing when all is in place; exits non-zero with a reason when something cannot be had.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The Helm release the chart is checked with; `go install` builds it from the module proxy. */
export const HELM_VERSION = 'v3.19.0';
export const helmPath = join(root, 'tmp', 'tools', 'bin', 'helm');
export const prometheusPath = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
export const promtoolPath = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';

function helmVersionOf(path) {
  try {
    return execFileSync(path, ['version', '--template', '{{.Version}}'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

export function ensurePrometheus() {
  if (existsSync(prometheusPath) && existsSync(promtoolPath)) return;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    throw new Error(`no Prometheus at ${prometheusPath}: install Debian's prometheus package (apt-get install prometheus) or set PROMETHEUS_PATH and PROMTOOL_PATH`);
  }
  console.log('[ops-tools] installing Prometheus from Debian packages…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'prometheus'], { stdio: 'inherit', env });
}

export function ensureHelm() {
  // `go install` reports a module build as "v3.19.0"; the binary says so in `helm version`.
  if (existsSync(helmPath) && helmVersionOf(helmPath) !== undefined) return;
  let go = 'go';
  if (existsSync('/usr/local/go/bin/go')) go = '/usr/local/go/bin/go';
  console.log(`[ops-tools] building Helm ${HELM_VERSION} with go install (a few minutes the first time)…`);
  mkdirSync(join(root, 'tmp', 'tools', 'bin'), { recursive: true });
  execFileSync(go, ['install', `helm.sh/helm/v3/cmd/helm@${HELM_VERSION}`], {
    stdio: 'inherit',
    env: { ...process.env, GOBIN: join(root, 'tmp', 'tools', 'bin'), CGO_ENABLED: '0' },
  });
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
