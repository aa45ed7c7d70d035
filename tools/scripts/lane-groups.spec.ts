import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// `npm test` runs the nx tasks in the groups of lane-groups.cjs: a task in no group would not run
// at all, and one in two groups would run twice.
const { TARGETS, LANE_GROUPS } = require('./lane-groups.cjs') as {
  TARGETS: string[];
  LANE_GROUPS: {
    name: string;
    seconds: number;
    targets: string[];
    projects?: string[];
    exclude?: string[];
  }[];
};

const root = join(__dirname, '..', '..');

/** Every project.json of the workspace (outside node_modules, dist and tmp): name → its targets. */
function projects(dir = root, found = new Map<string, string[]>()): Map<string, string[]> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (
        !['node_modules', 'dist', 'tmp', '.git', '.nx'].includes(entry.name) &&
        !entry.name.startsWith('.')
      )
        projects(join(dir, entry.name), found);
    } else if (entry.name === 'project.json') {
      const project = JSON.parse(readFileSync(join(dir, entry.name), 'utf8')) as {
        name: string;
        targets?: Record<string, unknown>;
      };
      found.set(project.name, Object.keys(project.targets ?? {}));
    }
  }
  return found;
}

describe("npm test's lane groups", () => {
  const all = projects();

  it('finds the workspace projects', () => {
    expect([...all.keys()]).toEqual(
      expect.arrayContaining(['api', 'web-e2e', 'contract', 'sdk-python']),
    );
  });

  it('run every target of every project exactly once', () => {
    const groupsOf = new Map<string, string[]>();
    const unknown: string[] = [];
    for (const group of LANE_GROUPS) {
      const names = group.projects ?? [...all.keys()].filter((p) => !group.exclude?.includes(p));
      for (const name of [...(group.projects ?? []), ...(group.exclude ?? [])])
        if (!all.has(name)) unknown.push(`${group.name}: ${name}`);
      for (const name of names)
        for (const target of group.targets.filter((t) => all.get(name)?.includes(t))) {
          const task = `${name}:${target}`;
          groupsOf.set(task, [...(groupsOf.get(task) ?? []), group.name]);
        }
    }
    expect(unknown).toEqual([]);
    const tasks = [...all].flatMap(([name, targets]) =>
      targets.filter((t) => TARGETS.includes(t)).map((t) => `${name}:${t}`),
    );
    expect(tasks.length).toBeGreaterThan(40);
    expect(
      tasks.filter((t) => groupsOf.get(t)?.length !== 1).map((t) => [t, groupsOf.get(t)]),
    ).toEqual([]);
  });

  it('are longest first, so the short ones fill the ends of both lanes', () => {
    const seconds = LANE_GROUPS.map((g) => g.seconds);
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
  });

  it('give nx each its targets, and its projects or the ones left out', () => {
    expect(LANE_GROUPS.find((g) => g.name === 'service-e2e')?.args).toEqual([
      '-t',
      'e2e',
      '--exclude',
      'api,web-e2e,contract,sdk-python,sdk-ts',
    ]);
    expect(LANE_GROUPS.find((g) => g.name === 'api-e2e')?.args).toEqual(['-t', 'e2e', '-p', 'api']);
  });
});
