import { createServer, get, type Server, type ServerResponse } from 'node:http';
import { promotedInFreshProcesses } from '../testing/promotion-process';
import { RESPONSE_PROMOTION_WORK } from '../testing/response-promotion';
import { instrumentHttpServer } from './http-metrics';
import { Metrics } from './metrics';
import { RouteTemplates } from './route-templates';

const routes = new RouteTemplates([
  { method: 'GET', path: '/a' },
  { method: 'GET', path: '/b' },
  { method: 'GET', path: '/events' },
]);

function request(port: number, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    }).on('error', reject);
  });
}

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** A gauge's value by route in the exposition text (absent: undefined). */
function gauge(text: string, name: string, route: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{route="${route}"} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('instrumentHttpServer', () => {
  it('counts the requests in flight by route, with the event streams and long polls among them, until each closes', async () => {
    const held: ServerResponse[] = [];
    const server = createServer((req, res) => {
      if (req.url === '/events') {
        res.setHeader('content-type', 'text/event-stream');
        res.write(': open\n\n');
      }
      held.push(res);
    });
    const metrics = new Metrics();
    const stop = instrumentHttpServer(server, metrics, routes);
    const port = await listening(server);
    const inFlight = async () => {
      const text = await metrics.render();
      return ['/a', '/b', '/events'].map((route) => [
        gauge(text, 'interlock_http_requests_in_flight', route),
        gauge(text, 'interlock_http_streams_open', route),
        gauge(text, 'interlock_http_long_polls_open', route),
      ]);
    };
    try {
      const answered = ['/a', '/a?waitSeconds=5', '/b', '/events'].map((path) =>
        request(port, path),
      );
      while (held.length < 4) await new Promise((r) => setTimeout(r, 5));
      expect(await inFlight()).toEqual([
        [2, undefined, 1],
        [1, undefined, undefined],
        [1, 1, undefined],
      ]);
      // Closed in another order than they came: the first, then the last, then the rest.
      const byPath = new Map(held.map((res) => [res.req.url, res]));
      byPath.get('/a')?.end();
      byPath.get('/events')?.end();
      await Promise.all([answered[0], answered[3]]);
      expect(await inFlight()).toEqual([
        [1, undefined, 1],
        [1, undefined, undefined],
        [0, 0, undefined],
      ]);
      byPath.get('/a?waitSeconds=5')?.end();
      byPath.get('/b')?.end();
      await Promise.all(answered);
      expect(await inFlight()).toEqual([
        [0, undefined, 0],
        [0, undefined, undefined],
        [0, 0, undefined],
      ]);
    } finally {
      stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('keeps no entry per request in a collection of the old generation (issue 28: finished responses are not promoted)', async () => {
    // In fresh processes, not this reused worker; up to four of three rounds of 480 requests each.
    const promoted = await promotedInFreshProcesses(RESPONSE_PROMOTION_WORK, 'metrics');
    expect(promoted.withControl).toBeGreaterThan(4);
    expect(promoted.without).toBeLessThan(1);
  }, 120_000);
});
