// The groups of nx tasks that `npm test` (tools/scripts/test.mjs) runs on its two lanes, each group
// one `nx run-many` of one task at a time. lane-groups.spec.ts checks that every target of TARGETS
// of every project is in exactly one group, and that the groups stay longest first.

/** The targets `npm test` runs (besides the builds, which come first). */
const TARGETS = ['lint', 'typecheck', 'test', 'e2e', 'e2e-express', 'e2e-crewai'];

/**
 * Longest first by their time in run L (the last fresh-clone run, 27:30: `seconds`): the two lanes
 * start with the first two, and whichever is free first takes the next, so the shorter groups
 * fill the ends of both lanes. In one `nx run-many --parallel=2` nx started the most depended-on
 * projects' tasks first and the browser tests last (run J ended at 31:38 on them); with the
 * browser tests on one lane and every other TypeScript task in one group on the other (run K),
 * the browser lane was idle from 24:43 while the other ran the unit, Express and deploy tasks
 * queued behind the API's e2e suite until 27:27. In run L the SDKs', MCP's and deploy tools' e2e
 * were one group (208 s) and the Python SDK another (213 s): both fell to the API's lane, which
 * ended 2:34 after the other; the TypeScript SDK's e2e is a group of its own now, so the lane
 * that is free first takes it. A group names its projects (`projects`) or every project but some
 * (`exclude`), so a new project's targets land in `lint-unit` or `service-e2e`.
 */
const GROUPS = [
  { name: 'api-e2e', seconds: 1146, targets: ['e2e'], projects: ['api'] },
  { name: 'web-e2e', seconds: 726, targets: ['e2e'], projects: ['web-e2e'] },
  // Lint, type-check and unit tests (api:test, web:test, tools:test…), and the API's Express
  // files; web-e2e's lint and type-check too.
  {
    name: 'lint-unit',
    seconds: 385,
    targets: ['lint', 'typecheck', 'test', 'e2e-express', 'e2e-crewai'],
    exclude: ['contract', 'sdk-python'],
  },
  // The contract test on Fastify (every phase, 209 s), then on Express (93 s).
  { name: 'contract', seconds: 306, targets: TARGETS, projects: ['contract'] },
  // The Python SDK (e2e 131 s, CrewAI 61 s).
  { name: 'sdk-python', seconds: 213, targets: TARGETS, projects: ['sdk-python'] },
  // MCP's and the deploy tools' e2e (run L's 208 s for these and the TypeScript SDK's, shared out
  // as in run K: 155 s the SDK's, 113 s MCP's, 46 s the deploy tools').
  {
    name: 'service-e2e',
    seconds: 105,
    targets: ['e2e'],
    exclude: ['api', 'web-e2e', 'contract', 'sdk-python', 'sdk-ts'],
  },
  // The TypeScript SDK's e2e (its package test builds, packs and installs the SDK).
  { name: 'sdk-ts-e2e', seconds: 103, targets: ['e2e'], projects: ['sdk-ts'] },
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
