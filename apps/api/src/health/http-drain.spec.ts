import { channel } from 'node:diagnostics_channel';
import { Agent, createServer, get, IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect, Socket as NetSocket, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { promotedInFreshProcesses } from '../testing/promotion-process';
import { RESPONSE_PROMOTION_WORK } from '../testing/response-promotion';
import { HttpDrain, KEEP_ALIVE_TIMEOUT_MS, REQUEST_START, RESPONSE_FINISH } from './http-drain';

function request(
  port: number,
  path: string,
  agent: Agent | false = false,
): Promise<IncomingMessage & { body: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve(Object.assign(res, { body })));
    }).on('error', reject);
  });
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** A weak hold on `socket` and its closing, so that no variable of the test keeps it alive. */
function watched(socket: Socket): { closedSocket: WeakRef<Socket>; closed: Promise<unknown> } {
  return { closedSocket: new WeakRef(socket), closed: new Promise((r) => socket.once('close', r)) };
}

describe('HttpDrain', () => {
  let server: Server;
  let drain: HttpDrain;
  let port: number;
  /** Requests to /slow wait here until released. */
  const held: ServerResponse[] = [];
  /** Each response's 'close' listeners when the application's handler got it. */
  const closeListeners: number[] = [];
  /** The connection of each request the application's handler got. */
  const connections: Socket[] = [];

  beforeEach(async () => {
    server = createServer((req, res) => {
      closeListeners.push(res.listenerCount('close'));
      connections.push(req.socket);
      if (req.url === '/slow') {
        held.push(res);
        return;
      }
      res.end('ok');
    });
    drain = new HttpDrain(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterEach(async () => {
    held.splice(0).forEach((res) => res.end());
    closeListeners.splice(0);
    connections.splice(0);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('keeps idle connections longer than it tells clients to', async () => {
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(server.headersTimeout).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
    const res = await request(port, '/', new Agent({ keepAlive: true }));
    expect(res.headers.connection).toBe('keep-alive');
    expect(res.headers['keep-alive']).toBe('timeout=5');
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
  });

  it('while draining, serves new connections and closes each after its response, in-flight ones too', async () => {
    const agent = new Agent({ keepAlive: true });
    const slow = request(port, '/slow', agent);
    while (held.length === 0) await new Promise((r) => setTimeout(r, 5));
    drain.beginDraining();

    const fresh = await request(port, '/', agent);
    expect(fresh.body).toBe('ok');
    expect(fresh.headers.connection).toBe('close');
    expect(fresh.headers['keep-alive']).toBeUndefined();

    held[0].end('slow ok');
    const answered = await slow;
    expect(answered.body).toBe('slow ok');
    expect(answered.headers.connection).toBe('close');
  });

  it('marks a request in flight on a connection that has answered before', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await request(port, '/', agent);
    expect(first.headers.connection).toBe('keep-alive');
    const slow = request(port, '/slow', agent);
    while (held.length === 0) await new Promise((r) => setTimeout(r, 5));
    expect(connections[1]).toBe(connections[0]);
    drain.beginDraining();

    held[0].end('slow ok');
    const answered = await slow;
    expect(answered.headers.connection).toBe('close');
    expect(answered.headers['keep-alive']).toBeUndefined();
  });

  it("learns its own server's responses in flight from Node's channels, and leaves them when it closes", async () => {
    // A request starting on this server, as Node announces it: the drain sets its header on it.
    const announce = () => {
      const req = new IncomingMessage(new NetSocket());
      const res = new ServerResponse(req);
      channel(REQUEST_START).publish({ request: req, response: res, socket: req.socket, server });
      channel(RESPONSE_FINISH).publish({ request: req, response: res, socket: req.socket, server });
      return res.getHeader('keep-alive');
    };
    expect(announce()).toBe('timeout=5');
    // Another server with a drain of its own, draining: not this server's responses.
    const other = createServer((_req, res) => res.end('other'));
    const otherDrain = new HttpDrain(other);
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const slow = request(port, '/slow', new Agent({ keepAlive: true }));
      while (held.length === 0) await new Promise((r) => setTimeout(r, 5));
      otherDrain.beginDraining();
      held[0].end('slow ok');
      const answered = await slow;
      expect(answered.headers.connection).toBe('keep-alive');
    } finally {
      await otherDrain.close();
    }

    // This server closed too: its drain no longer listens (whatever else in the process does).
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    expect(announce()).toBeUndefined();
    server = createServer(); // closed again by afterEach
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  it('while draining, answers every pipelined request on a connection and closes it after the last', async () => {
    const client = connect(port, '127.0.0.1');
    let received = '';
    client.setEncoding('utf8');
    client.on('data', (d: string) => (received += d));
    const ended = new Promise((r) => client.once('close', r));
    client.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    while (held.length < 2) await new Promise((r) => setTimeout(r, 5));
    drain.beginDraining();
    held[0].end('first');
    held[1].end('second');
    await ended;
    const responses = received.split(/(?=HTTP\/1\.1 )/);
    expect(responses.map((r) => r.slice(r.lastIndexOf('\r\n') + 2))).toEqual([
      expect.stringContaining('first'),
      expect.stringContaining('second'),
    ]);
    // The first keeps the connection for the second; the second closes it.
    expect(responses[0]).toMatch(/\r\nConnection: keep-alive\r\n/i);
    expect(responses[1]).toMatch(/\r\nConnection: close\r\n/i);
  });

  it('keeps nothing of a finished response while its connection idles', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let finished: WeakRef<ServerResponse> | undefined;
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      finished = new WeakRef(res);
    });
    await request(port, '/', agent);
    expect(connections[0].destroyed).toBe(false);
    // Rounds: a collection may leave it for a later one.
    for (let round = 0; round < 10 && finished?.deref() !== undefined; round++) {
      await new Promise((r) => setImmediate(r));
      gc();
    }
    expect(finished).toBeDefined();
    expect(finished?.deref()).toBeUndefined();
    agent.destroy();
  });

  it('keeps nothing of a response whose connection is lost before it finishes', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const client = connect(port, '127.0.0.1');
    client.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    while (held.length === 0) await new Promise((r) => setTimeout(r, 5));
    const lost = new WeakRef(held.splice(0)[0]);
    // Its socket still points at it (Node's own hold): not kept here either, and no closed
    // connection stays tracked.
    const { closedSocket, closed } = watched(connections.splice(0)[0]);
    client.destroy();
    await closed;
    const collected = () => lost.deref() === undefined && closedSocket.deref() === undefined;
    for (let round = 0; round < 10 && !collected(); round++) {
      await new Promise((r) => setImmediate(r));
      gc();
    }
    expect(lost.deref()).toBeUndefined();
    expect(closedSocket.deref()).toBeUndefined();
  });

  it('keeps no entry per request in a collection of the old generation (issue 28: finished responses are not promoted)', async () => {
    // In fresh processes, not this reused worker; up to four of three rounds of 480 requests each.
    const promoted = await promotedInFreshProcesses(RESPONSE_PROMOTION_WORK, 'drain');
    expect(promoted.withControl).toBeGreaterThan(4);
    expect(promoted.without).toBeLessThan(1);
  }, 120_000);

  it("sets its headers before the application's handler runs, with no 'request' listener of its own", async () => {
    expect(server.listenerCount('request')).toBe(1);
    const seen: unknown[] = [];
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) =>
      seen.push(res.getHeader('keep-alive')),
    );
    await request(port, '/');
    drain.beginDraining();
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) =>
      seen.push(res.getHeader('connection')),
    );
    await request(port, '/');
    expect(seen).toEqual(['timeout=5', 'close', undefined]);
  });

  it('adds no listener to a response (issue 28: nothing a request)', async () => {
    const plain = createServer((_req, res) => {
      closeListeners.push(res.listenerCount('close'));
      res.end('ok');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      await request((plain.address() as { port: number }).port, '/');
      await request(port, '/');
      expect(closeListeners).toEqual([closeListeners[0], closeListeners[0]]);
    } finally {
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  it('close refuses new connections at once and resolves when the request in flight has its response', async () => {
    const slow = request(port, '/slow', new Agent({ keepAlive: true }));
    const idle = new Agent({ keepAlive: true });
    await request(port, '/', idle); // an idle keep-alive connection, closed by close()
    while (held.length === 0) await new Promise((r) => setTimeout(r, 5));

    let closed = false;
    const closing = drain.close().then(() => (closed = true));
    expect(await refused(port)).toBe(true);
    await new Promise((r) => setTimeout(r, 150));
    expect(closed).toBe(false);

    held[0].end('finished');
    expect((await slow).body).toBe('finished');
    await closing;
    expect(closed).toBe(true);
  });
});
