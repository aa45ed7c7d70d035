import { createServer, type ServerResponse } from 'node:http';
import { HttpDrain } from '../health/http-drain';
import { instrumentHttpServer } from '../metrics/http-metrics';
import { Metrics } from '../metrics/metrics';
import { RouteTemplates } from '../metrics/route-templates';
import type { PromotionWork } from './promotion-process';
import { requestBursts } from './promotion';

/**
 * The promotion work of http-drain.spec (`drain`) and http-metrics.spec (`metrics`), in a process
 * of its own (`promotedInFreshProcesses`): bursts of GETs to a server watched by an `HttpDrain` or
 * by `instrumentHttpServer`, each response carrying ~40 KB of small objects, so that what keeps a
 * finished response alive shows. The control: each response kept in a process-long Map set and
 * deleted per request (what the drain's Map and the metrics' Set did before, issue 28 session 21).
 */
export const RESPONSE_PROMOTION_WORK = __filename;

/** The work named `kind` ('drain' or 'metrics'), on a new server. */
export async function setUpPromotionWork(kind: string): Promise<PromotionWork> {
  const kept = new Map<object, ServerResponse>();
  let keepInOldMap = false;
  const server = createServer((req, res) => {
    (res as ServerResponse & { cargo?: unknown }).cargo = Array.from({ length: 2_000 }, (_, i) => ({
      i,
    }));
    if (keepInOldMap) kept.set(req.socket, res);
    setImmediate(() => {
      if (keepInOldMap) kept.delete(req.socket);
      res.end('ok');
    });
  });
  let stop: () => Promise<void>;
  if (kind === 'drain') {
    const drain = new HttpDrain(server);
    stop = () => drain.close();
  } else if (kind === 'metrics') {
    const routes = new RouteTemplates([{ method: 'GET', path: '/a' }]);
    const uninstrument = instrumentHttpServer(server, new Metrics(), routes);
    stop = async () => {
      uninstrument();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    };
  } else throw new Error(`no promotion work '${kind}'`);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { burst, close } = requestBursts((server.address() as { port: number }).port, '/a');
  return {
    work: burst,
    control: (on) => (keepInOldMap = on),
    close: async () => {
      close();
      await stop();
    },
  };
}
