// The groups of nx tasks that `npm test` (tools/scripts/test.mjs) runs on its two lanes, each group
// one `nx run-many` of one task at a time. lane-groups.spec.ts checks that every target of TARGETS
// of every project is in exactly one group, and that the groups stay longest first.

/** The targets `npm test` runs (besides the builds, which come first). */
const TARGETS = ['lint', 'typecheck', 'test', 'e2e', 'e2e-express', 'e2e-crewai'];

/**
 * Longest first by their time in run K (the last fresh-clone run, quiet machine: `seconds`): the
 * two lanes start with the first two, and whichever is free first takes the next, so the shorter
 * groups fill the ends of both lanes. In one `nx run-many --parallel=2` nx started the most
 * depended-on projects' tasks first and the browser tests last (run J ended at 31:38 on them); with
 * the browser tests on one lane and every other TypeScript task in one group on the other (run K),
 * the browser lane was idle from 24:43 while the other ran the unit, Express and deploy tasks
 * queued behind the API's e2e suite until 27:27. A group names its projects (`projects`) or every
 * project but some (`exclude`), so a new project's targets land in `lint-unit` or `service-e2e`.
 */
const GROUPS = [
  { name: 'api-e2e', seconds: 766, targets: ['e2e'], projects: ['api'] },
  { name: 'web-e2e', seconds: 661, targets: ['e2e'], projects: ['web-e2e'] },
  // Lint, type-check and unit tests (api:test 36 s, web:test 70 s, tools:test 60 s…), and the
  // API's Express files (88 s); web-e2e's lint and type-check too.
  {
    name: 'lint-unit',
    seconds: 480,
    targets: ['lint', 'typecheck', 'test', 'e2e-express', 'e2e-crewai'],
    exclude: ['contract', 'sdk-python'],
  },
  // The contract test on Fastify (every phase, 318 s), then on Express (154 s).
  { name: 'contract', seconds: 472, targets: TARGETS, projects: ['contract'] },
  // The TypeScript SDK's (155 s), MCP's (113 s) and the deploy tools' (46 s) e2e.
  {
    name: 'service-e2e',
    seconds: 314,
    targets: ['e2e'],
    exclude: ['api', 'web-e2e', 'contract', 'sdk-python'],
  },
  // The Python SDK (e2e 181 s, CrewAI 61 s).
  { name: 'sdk-python', seconds: 260, targets: TARGETS, projects: ['sdk-python'] },
];

/** The groups with their `nx run-many` arguments. */
const LANE_GROUPS = GROUPS.map((g) => ({
  ...g,
  args: [
    '-t',
    ...g.targets,
    ...(g.projects ? ['-p', g.projects.join(',')] : []),
    ...(g.exclude ? ['--exclude', g.exclude.join(',')] : []),
  ],
}));

module.exports = { TARGETS, LANE_GROUPS };
