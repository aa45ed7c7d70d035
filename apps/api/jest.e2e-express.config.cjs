// The API on its second HTTP adapter, Express (`HTTP_ADAPTER=express`, set by the nx target
// `api:e2e-express`; `npm test` runs it): the e2e files that cover the HTTP layer itself — error
// bodies and body limits (413, 415), the client address, bodies on routes that take none, cookies and CSRF,
// the interrupts' reads and writes, the audit page and CSV export, MCP, SSE streams, the
// dashboard's files, graceful shutdown, single sign-on (its flow cookie set and read back,
// the callback's JSON refusals, the start's throttle by client address), the hot reads'
// named prepared statements (named-statements), and the headers of every kind of answer
// (answer-headers). The whole suite runs on Express with
// `HTTP_ADAPTER=express npx jest -c apps/api/jest.e2e.config.cjs`; this subset keeps CI short.
const base = require('./jest.e2e.config.cjs');

const SMOKE = [
  'http-errors',
  'trust-proxy',
  'body-less',
  'body-limits',
  'auth',
  'interrupts',
  'audit-log',
  'mcp',
  'events',
  'dashboard',
  'graceful-shutdown',
  'liveness',
  'single-sign-on',
  'named-statements',
  'answer-headers',
];

module.exports = {
  ...base,
  displayName: 'api-e2e-express',
  testMatch: SMOKE.map((name) => `<rootDir>/test/${name}.e2e-spec.ts`),
};
