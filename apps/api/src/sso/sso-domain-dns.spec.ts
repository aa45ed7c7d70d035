import { createSocket, type Socket } from 'node:dgram';
import { SsoDomainDns } from './sso-domain-dns';

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
});
