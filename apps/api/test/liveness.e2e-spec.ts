import request from 'supertest';
import { HealthController } from '../src/health/health.controller';
import { startTestApp, TestApp } from './support/test-app';

// GET /health/live on Fastify is answered by Fastify alone (answerFixedRoutes): Nest's route
// pipeline — guards, pipes, the controller — is not run for it, and the answer is the one the
// controller gives on Express, byte for byte, with the request id and the log line of any request.
// A request the pipeline could refuse (a query, a body) still takes Nest's way.
describe('GET /health/live', () => {
  let t: TestApp;
  // Spied before the app is built (Nest keeps the handler it finds when it maps the route), and
  // given the route's metadata, which Nest reads off the method itself.
  const original = HealthController.prototype.live;
  const live = jest.spyOn(HealthController.prototype, 'live');
  for (const key of Reflect.getMetadataKeys(original))
    Reflect.defineMetadata(key, Reflect.getMetadata(key, original), live);
  const onFastify = (process.env.HTTP_ADAPTER ?? 'fastify') === 'fastify';
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    live.mockRestore();
    await t?.close();
  });

  it('answers {"status":"ok"} as JSON, with a request id and its log line', async () => {
    live.mockClear();
    const res = await http().get('/health/live').set('x-request-id', 'liveness-1');
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"status":"ok"}');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe('15');
    expect(res.headers['x-request-id']).toBe('liveness-1');
    // Without Nest's pipeline on Fastify; through it on Express.
    expect(live).toHaveBeenCalledTimes(onFastify ? 0 : 1);
    const line = t.logs.find((l) => l.requestId === 'liveness-1' && l.res !== undefined);
    expect(line).toMatchObject({
      route: '/health/live',
      req: { method: 'GET', url: '/health/live' },
      res: { statusCode: 200 },
    });
  });

  it('answers HEAD with the same headers and no body', async () => {
    const res = await http().head('/health/live');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text ?? '').toBe('');
  });

  it('leaves a request with a query or a body to Nest, which checks them as on any route', async () => {
    live.mockClear();
    const queried = await http().get('/health/live?probe=1');
    expect(queried.status).toBe(200);
    expect(queried.text).toBe('{"status":"ok"}');
    expect(live).toHaveBeenCalledTimes(1);

    const nul = await http().get('/health/live?probe=%00');
    expect(nul.status).toBe(400);
    expect(nul.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'query.probe: contains the NUL character (U+0000), which cannot be stored',
    });

    const notJson = await http()
      .get('/health/live')
      .set('content-type', 'text/plain')
      .send('hello');
    expect(notJson.status).toBe(415);
  });

  it('answers 405 with Allow for another method', async () => {
    const res = await http().post('/health/live');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });
});
