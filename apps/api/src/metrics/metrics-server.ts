import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics';

/**
 * The metrics listener: its own server on `METRICS_PORT`, apart from the API's port, so that
 * `/metrics` is reachable only where the operator exposes that port (SPEC §8g). It answers
 * `GET /metrics` and 404 to everything else.
 */
export async function startMetricsServer(
  metrics: Metrics,
  port: number,
  host: string,
): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res
        .writeHead(path === '/metrics' ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Not found\n');
      return;
    }
    metrics.render().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () =>
        res
          .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
          .end('metrics could not be rendered\n'),
    );
  });
  // A scraper keeps its connection; it must not hold up a shutdown.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}
