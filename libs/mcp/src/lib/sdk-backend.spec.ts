// The stdio server reaches Interlock through the TypeScript SDK, so it inherits its refusal to
// follow redirects (issue 34, item 7): a redirect to another origin gets neither the key nor the
// body, and the tool reports why.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InterlockBackendError } from './backend';
import { SdkBackend } from './sdk-backend';

let service: Server;
let elsewhere: Server;
let serviceURL: string;
let elsewhereURL: string;
const reached: IncomingMessage['headers'][] = [];

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  elsewhere = createServer((req, res) => {
    reached.push(req.headers);
    req.resume();
    res
      .writeHead(201, { 'content-type': 'application/json' })
      .end(JSON.stringify({ id: 'stolen', title: 'stolen', status: 'open' }));
  });
  elsewhereURL = `http://localhost:${await listen(elsewhere)}`;
  service = createServer((req, res) => {
    req.resume();
    res.writeHead(307, { location: `${elsewhereURL}${req.url ?? '/'}` }).end();
  });
  serviceURL = `http://127.0.0.1:${await listen(service)}`;
});

afterAll(async () => {
  for (const server of [service, elsewhere]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

it('a 307 to another origin is a tool error, and that origin never sees the key', async () => {
  const backend = new SdkBackend({ apiKey: 'ilk_stdio_secret', baseURL: serviceURL });
  const error = await backend
    .createInterrupt(
      { title: 'Deploy', actionRequests: [{ name: 'deploy' }] },
      { idempotencyKey: 'k-1' },
    )
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InterlockBackendError);
  expect((error as Error).message).toBe(
    `The service answered 307 with a redirect to ${elsewhereURL}/api/interrupts; the SDK does not follow redirects (they could carry the API key elsewhere): set baseURL to the service's address.`,
  );
  expect(reached).toEqual([]);
});
