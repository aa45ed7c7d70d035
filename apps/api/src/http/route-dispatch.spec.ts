import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { RouteDispatcher } from './route-dispatch';

// An Express app with routes in an order that matters (a parameter before a literal, a
// middleware mounted between routes, several methods on one path), served twice: by Express's
// own router, and through a front middleware that dispatches with RouteDispatcher. Every request
// must get the same answer from both, and the dispatcher must have taken the ones it can.
function makeApp(withDispatcher: boolean) {
  const app = express();
  const direct: string[] = [];
  const dispatcher = new RouteDispatcher(
    () => app.router.stack,
    () => front,
  );
  const front = (req: Request, res: Response, next: NextFunction) => {
    if (!withDispatcher) return next();
    // Marked while the dispatcher has it; unmarked when it hands the request to the router.
    const marked = req as Request & { viaDispatcher?: boolean };
    marked.viaDispatcher = true;
    dispatcher.dispatch(req, res, (err?: unknown) => {
      marked.viaDispatcher = false;
      next(err);
    });
  };
  app.use(front);
  const answer = (name: string) => (req: Request, res: Response) => {
    if ((req as Request & { viaDispatcher?: boolean }).viaDispatcher)
      direct.push(`${req.method} ${req.path}`);
    res.json({ route: name, params: req.params, routePath: (req.route as { path: string }).path });
  };
  app.get('/things/:id', answer('thing by id'));
  app.get('/things/counts', answer('counts (after :id: never reached)'));
  app.get('/items/counts', answer('item counts'));
  app.get('/items/:id', answer('item by id'));
  app.post('/items/:id', answer('item post'));
  app.delete('/items/:id/parts/:partId', answer('part delete'));
  app.use('/static', (_req: Request, res: Response) => res.json({ route: 'static middleware' }));
  app.get('/static/file', answer('shadowed by the middleware'));
  app.get('/after/static', answer('after the middleware'));
  // A middleware that takes only some values of a later route's parameter, and a route after the
  // parameter route that the parameter route shadows.
  app.use('/c/x', (_req: Request, res: Response) => res.json({ route: 'c/x middleware' }));
  app.get('/c/:id', answer('c by id'));
  app.get('/c/d', answer('c/d (after /c/:id: never reached)'));
  app.use('/a/special', (_req: Request, res: Response) =>
    res.json({ route: 'a/special middleware' }),
  );
  app.get('/a/:id', answer('a by id'));
  app.get('/wild/*rest', answer('wildcard: not indexed'));
  app.get('/after/wild', answer('after an unindexed route'));
  app.use((_req: Request, res: Response) => res.status(404).json({ route: 'not found' }));
  // Express's own error handler answers 400 for a parameter that does not decode.
  app.use((err: { status?: number }, _req: Request, res: Response, _next: NextFunction) =>
    res.status(err.status ?? 500).json({ route: 'error' }),
  );
  return { app, direct };
}

async function serve(app: express.Express): Promise<{ base: string; server: Server }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () =>
      resolve({ base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    );
  });
}

const REQUESTS: [string, string][] = [
  ['GET', '/things/counts'],
  ['GET', '/things/abc'],
  ['GET', '/items/counts'],
  ['GET', '/ITEMS/Counts/'],
  ['GET', '/items/a%20b'],
  ['GET', '/items/%zz'],
  ['POST', '/items/7'],
  ['PUT', '/items/7'],
  ['HEAD', '/items/7'],
  ['OPTIONS', '/items/7'],
  ['DELETE', '/items/1/parts/2'],
  ['DELETE', '/items/1/parts/'],
  ['GET', '/items//x'],
  ['GET', '/static/file'],
  ['GET', '/after/static'],
  ['GET', '/c/d'],
  ['GET', '/c/x'],
  ['GET', '/a/special'],
  ['GET', '/a/other'],
  ['GET', '/wild/a/b'],
  ['GET', '/after/wild'],
  ['GET', '/nowhere'],
];

describe('RouteDispatcher', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((s) => s.close()));

  it('answers every request as Express does, dispatching the ones it is sure of', async () => {
    const plain = makeApp(false);
    const fast = makeApp(true);
    const a = await serve(plain.app);
    const b = await serve(fast.app);
    servers.push(a.server, b.server);
    for (const [method, path] of REQUESTS) {
      const [expected, actual] = await Promise.all(
        [a.base, b.base].map(async (base) => {
          const res = await fetch(`${base}${path}`, { method });
          return {
            status: res.status,
            allow: res.headers.get('allow'),
            body: method === 'HEAD' ? '' : await res.text(),
          };
        }),
      );
      expect({ method, path, ...actual }).toEqual({ method, path, ...expected });
    }
    // Taken directly: requests to indexed routes (up to the first route it cannot index) that no
    // middleware before the route takes, for the methods it dispatches. HEAD, OPTIONS,
    // `/static/file`, `/c/x` and `/a/special` (taken by a middleware first), `/wild/*` and what
    // follows it, and the bad paths went to Express.
    expect(fast.direct).toEqual([
      'GET /things/counts',
      'GET /things/abc',
      'GET /items/counts',
      'GET /ITEMS/Counts/',
      'GET /items/a%20b',
      'POST /items/7',
      'DELETE /items/1/parts/2',
      'GET /after/static',
      'GET /c/d',
      'GET /a/other',
    ]);
  });
});
