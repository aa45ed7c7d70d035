import { createSocket, type Socket } from 'node:dgram';
import { SsoDomainDns } from './sso-domain-dns';

/** A name server that answers every question at once: no such name (NXDOMAIN). */
async function nxdomainServer(): Promise<Socket> {
  const socket = createSocket('udp4');
  socket.on('message', (query, from) => {
    // The header (12 bytes) and the question: its name's labels up to the empty one, type, class.
    let end = 12;
    while (query[end] !== 0) end += query[end] + 1;
    const answer = Buffer.from(query.subarray(0, end + 5));
    answer.writeUInt16BE(0x8183, 2); // a response, recursion desired and available, NXDOMAIN
    answer.fill(0, 6, 12); // no answer, authority or additional records
    socket.send(answer, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
}

/** A name server that reads every question and answers none. */
async function silentServer(): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
}

describe('SsoDomainDns (SPEC §8f domain proof)', () => {
  const servers: Socket[] = [];
  afterAll(() => servers.forEach((s) => s.close()));

  it('ends a look-up at its deadline (3 × the try timeout) however many servers stay silent: ETIMEOUT', async () => {
    for (let i = 0; i < 3; i++) servers.push(await silentServer());
    const asked: number[] = [];
    let reach: () => void = () => undefined;
    // 60 s a try: c-ares alone would hold the look-up for minutes, far past this test's bound.
    const dns = new SsoDomainDns(
      servers.map((s) => `127.0.0.1:${s.address().port}`),
      60_000,
      (ms) => {
        asked.push(ms);
        return new Promise<void>((resolve) => (reach = resolve));
      },
    );
    const lookUp = dns.lookUp('acme.test', 'token');
    expect(asked).toEqual([180_000]);
    reach();
    await expect(lookUp).resolves.toEqual({ outcome: 'unreachable', reason: 'ETIMEOUT' });
  }, 30_000);

  it('clears its deadline when the look-up ends first: no timer is left holding the resolver', async () => {
    const server = await nxdomainServer();
    servers.push(server);
    // Only the timers are fake (counted); the name server and c-ares run for real.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    try {
      const dns = new SsoDomainDns([`127.0.0.1:${server.address().port}`], 60_000);
      const lookUp = dns.lookUp('acme.test', 'token');
      expect(jest.getTimerCount()).toBe(1);
      await expect(lookUp).resolves.toEqual({ outcome: 'missing' });
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  }, 30_000);
});
