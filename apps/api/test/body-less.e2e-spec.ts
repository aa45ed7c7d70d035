import request from 'supertest';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { declaredRoutes } from '../src/auth/route-declarations.util';
import { createApiKey, signUpOwner, SignedUpOwner, startSession } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const NIL = '00000000-0000-4000-8000-000000000000';

// SPEC §5: unknown fields answer 400 — on endpoints that take no body too (issue 17, item 6).
describe('endpoints that take no body', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
  });
  afterAll(async () => {
    await t.close();
  });

  /**
   * Non-GET routes whose handler has no @Body() parameter (Nest's route metadata), aside from
   * those that read the body themselves: /mcp, and Slack's interactions (a signed form).
   */
  function bodyLessRoutes() {
    const controllers = new Map<string, object>();
    for (const module of t.app.get(ModulesContainer).values()) {
      for (const wrapper of module.controllers.values())
        if (wrapper.metatype) controllers.set(wrapper.metatype.name, wrapper.metatype);
    }
    return declaredRoutes(t.app).filter((route) => {
      if (route.method === 'GET' || route.path === '/mcp') return false;
      if (route.path.startsWith('/api/slack/interactions/')) return false;
      const [controller, handler] = route.handler.split('.');
      const params = (Reflect.getMetadata(
        ROUTE_ARGS_METADATA,
        controllers.get(controller) as object,
        handler,
      ) ?? {}) as Record<string, unknown>;
      return !Object.keys(params).some((k) => Number(k.split(':')[0]) === RouteParamtypes.BODY);
    });
  }

  it('are exactly these (a new one must be reviewed here)', () => {
    expect(bodyLessRoutes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'DELETE /api/api-keys/:id',
      'POST /api/auth/sign-out',
      'DELETE /api/classification/classifier',
      'POST /api/classification/classifier/rotate-secret',
      'DELETE /api/classification/rules/:id',
      'POST /api/classification/suggestions/:id/dismiss',
      'POST /api/classification/suggestions/:id/restore',
      'DELETE /api/invitations/:id',
      'POST /api/me/email-verification',
      'DELETE /api/me/sessions/:id',
      'POST /api/me/sessions/revoke-others',
      'DELETE /api/members/:id',
      'DELETE /api/notifications/slack',
      'DELETE /api/organisation/sso',
      'DELETE /api/roles/:id',
      'POST /api/sessions/:id/disconnect',
      'POST /api/sessions/:id/end',
      'DELETE /api/teams/:id',
      'DELETE /api/teams/:id/members/:memberId',
      'DELETE /api/webhooks/:id',
      'POST /api/webhooks/:id/deliveries/:deliveryId/retry',
      'POST /api/webhooks/:id/rotate-secret',
      'POST /api/webhooks/:id/test',
    ]);
  });

  it('answer 400 to a body with fields, or that is not an object, naming what is wrong', async () => {
    for (const route of bodyLessRoutes()) {
      const path = route.path.replace(/:\w+/g, NIL);
      const send = (body: string) => {
        const req = request(t.app.getHttpServer())
          [route.method.toLowerCase() as 'post'](path)
          .set('content-type', 'application/json');
        return (
          route.access?.principal === 'api_key'
            ? req.set('x-api-key', key)
            : req.set('cookie', owner.cookie)
        ).send(body);
      };
      const what = `${route.method} ${route.path}`;
      const unknown = await send('{"reason":"done","force":true}');
      expect({ what, status: unknown.status, body: unknown.body }).toMatchObject({
        what,
        status: 400,
        body: {
          code: 'VALIDATION_FAILED',
          message: 'property reason should not exist; property force should not exist',
        },
      });
      for (const body of ['[]', '"end"', '42', 'null', '[{}]']) {
        const res = await send(body);
        expect({ what, body, status: res.status, message: res.body.message }).toEqual({
          what,
          body,
          status: 400,
          message: 'body: this endpoint takes no body (send none, or {}).',
        });
      }
    }
  });

  it('accept no body, an empty one, or {}', async () => {
    const session = await startSession(t.app.getHttpServer(), key);
    const end = (req: request.Test) => req.set('x-api-key', key);
    // No body, no Content-Type: the endpoint does its work (here: 404, the id is unknown).
    expect((await end(http().post(`/api/sessions/${NIL}/end`))).status).toBe(404);
    expect(
      (
        await end(http().post(`/api/sessions/${NIL}/end`))
          .set('content-type', 'application/json')
          .send('')
      ).status,
    ).toBe(404);
    expect((await end(http().post(`/api/sessions/${NIL}/end`)).send({})).status).toBe(404);
    expect((await end(http().post(`/api/sessions/${session.id}/end`)).send({})).status).toBe(200);
    expect(
      (await http().delete(`/api/api-keys/${NIL}`).set('cookie', owner.cookie).send({})).status,
    ).toBe(404);
    expect(
      (await http().post(`/api/sessions/${NIL}/disconnect`).set('cookie', owner.cookie)).status,
    ).toBe(404);
  });

  it('check the body after the credential (SPEC §4), and refuse a body with fields without acting', async () => {
    expect((await http().post(`/api/sessions/${NIL}/end`).send({ x: 1 })).body.code).toBe(
      'MISSING_API_KEY',
    );
    expect(
      (await http().delete(`/api/api-keys/${NIL}`).set('x-api-key', key).send({ x: 1 })).body.code,
    ).toBe('HUMANS_ONLY');
    const session = await startSession(t.app.getHttpServer(), key);
    const refused = await http()
      .post(`/api/sessions/${session.id}/end`)
      .set('x-api-key', key)
      .send({ summary: 'done' });
    expect(refused.status).toBe(400);
    expect(
      (await http().get(`/api/sessions/${session.id}`).set('x-api-key', key)).body.status,
    ).toBe('active');
  });
});
