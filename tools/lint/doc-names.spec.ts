import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The docs name code: a class, a function or a file in backticks. When the code is renamed or
// deleted, the docs must follow. This spec collects every backticked identifier (camelCase or
// PascalCase) and repository path in the docs a contributor reads, and fails for the ones the
// tree no longer has. A name right after "was " (a rename recorded in DECISIONS.md) or "then "
// (the name a thing had when a decision was taken) is history and is not checked. SPEC.md is
// checked too: the fields, classes and files it names (`actionDigest`, `RunState`) must exist.
// STYLE.md and BENCHMARKS.md are left out on purpose: the first quotes other codebases, the
// second records measurements of code as it was.
const root = join(__dirname, '..', '..');

const git = (...args: string[]): string[] =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

const DOCS = [
  'README.md',
  'ARCHITECTURE.md',
  'docs/SPEC.md',
  'docs/DECISIONS.md',
  ...git('ls-files', 'apps/*/README.md', 'libs/*/README.md', 'tools/*/README.md'),
];

// Everything a backticked name may live in: the sources, configs and deployment files.
const SOURCES = git(
  'ls-files',
  'apps',
  'libs',
  'tools',
  'contract',
  'docker',
  'deploy',
  '.ci',
  '*.json',
  '*.mjs',
  '*.cjs',
  '*.ts',
).filter(
  (path) =>
    !path.endsWith('.md') && !path.endsWith('.png') && path !== 'tools/lint/doc-names.spec.ts',
);

// camelCase or PascalCase with at least one inner capital, optionally called: `fooBar`, `FooBar()`.
const IDENTIFIER =
  /^([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+)(?:\(\))?$/;
// A path into the repository: starts with one of its top-level folders, ends in an extension.
const PATH =
  /^(?:apps|libs|tools|docs|docker|deploy|contract)\/(?:[\w.@-]+\/)*[\w@-][\w.@-]*\.[a-z]+$/;
// Names of other software the docs mention in passing (Kubernetes fields, for one).
const OUTSIDE = new Set(['terminationGracePeriodSeconds']);

function knownWords(): Set<string> {
  const words = new Set<string>();
  for (const file of SOURCES) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const word of text.match(/[A-Za-z_$][\w$]*/g) ?? []) words.add(word);
  }
  return words;
}

function unknownNames(): string[] {
  const words = knownWords();
  const unknown: string[] = [];
  for (const doc of DOCS) {
    readFileSync(join(root, doc), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        for (const match of line.matchAll(/`([^`\n]+)`/g)) {
          const name = match[1];
          if (/\b(?:was|then) $/.test(line.slice(0, match.index))) continue;
          const identifier = IDENTIFIER.exec(name);
          const missing = identifier
            ? !words.has(identifier[1]) && !OUTSIDE.has(identifier[1])
            : PATH.test(name) && !existsSync(join(root, name));
          if (missing) unknown.push(`${doc}:${index + 1}: ${name}`);
        }
      });
  }
  return unknown;
}

describe('names in the docs', () => {
  it('every backticked identifier and path still exists in the tree', () => {
    expect(unknownNames()).toEqual([]);
  });

  it('would notice a name the tree does not have', () => {
    expect(IDENTIFIER.test('ApiKeyAuthGuard')).toBe(true);
    expect(knownWords().has('ApiKeyAuthGuard')).toBe(false);
    expect(PATH.test('apps/api/src/http/nowhere.ts')).toBe(true);
  });
});
