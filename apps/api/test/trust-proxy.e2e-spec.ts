import { Controller, Get, Module } from '@nestjs/common';
import request from 'supertest';
import { ClientIp } from '../src/auth/decorators/current-principal.decorator';
import { PublicRoute } from '../src/auth/decorators/route-access.decorator';
import { startTestApp, TestApp } from './support/test-app';

// A probe answering the client address the service records in audit entries (`@ClientIp()`).
@Controller('probe-ip')
@PublicRoute()
class ClientIpProbe {
  @Get()
  ip(@ClientIp() ip: string | null) {
    return { ip };
  }
}

@Module({ controllers: [ClientIpProbe] })
class ClientIpProbeModule {}

// The supertest client connects from 127.0.0.1: that socket is the first hop.
const FORWARDED = '198.51.100.9, 203.0.113.7';

async function clientIpSeen(t: TestApp, forwardedFor?: string): Promise<string> {
  const req = request(t.app.getHttpServer()).get('/probe-ip');
  if (forwardedFor !== undefined) void req.set('x-forwarded-for', forwardedFor);
  const res = await req;
  expect(res.status).toBe(200);
  return (res.body as { ip: string }).ip;
}

describe.each([
  // No proxy trusted: X-Forwarded-For is the client's own claim, ignored.
  { hops: '0', expected: /^(::ffff:)?127\.0\.0\.1$/ },
  // One balancer: the address it saw connect (the last entry it appended).
  { hops: '1', expected: /^203\.0\.113\.7$/ },
  // Two proxies: one entry further back.
  { hops: '2', expected: /^198\.51\.100\.9$/ },
])('TRUST_PROXY=$hops (the client address on either HTTP adapter)', ({ hops, expected }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: hops }, imports: [ClientIpProbeModule] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes the client address that many hops back in X-Forwarded-For', async () => {
    expect(await clientIpSeen(t, FORWARDED)).toMatch(expected);
  });

  it('is the socket address without X-Forwarded-For', async () => {
    expect(await clientIpSeen(t)).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });
});
