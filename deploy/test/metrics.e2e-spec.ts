import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  createDatabase,
  eventually,
  type PrometheusServer,
  ROOT,
  serviceMain,
  startProcess,
  type Started,
  startPrometheus,
} from './support/processes';

/**
 * The service's metrics as a real Prometheus sees them (SPEC §8g): the built service with
 * METRICS_PORT, Debian's Prometheus scraping it every second with the shipped alert rules loaded,
 * traffic driven through the API, and every assertion made through Prometheus's query API.
 */
describe('metrics, scraped by Prometheus', () => {
  let database: { url: string; drop(): Promise<void> };
  let service: Started;
  let prometheus: PrometheusServer;
  let receiver: Server;
  let received = 0;
  let api = '';
  let metricsPort = 0;

  const mailDir = mkdtempSync(join(tmpdir(), 'interlock-metrics-mail-'));

  beforeAll(async () => {
    database = await createDatabase();
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received += 1;
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    const started = await startProcess(
      process.execPath,
      [serviceMain()],
      {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        PORT: '0',
        METRICS_PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: database.url,
        WEBHOOK_POLL_INTERVAL: '200ms',
        MAIL_DIR: mailDir,
      },
      /"metricsPort":(\d+)[\s\S]*"port":(\d+)[^\n]*listening/,
    );
    service = started;
    metricsPort = Number(started.match[1]);
    api = `http://127.0.0.1:${started.match[2]}`;
    prometheus = await startPrometheus(
      [`127.0.0.1:${metricsPort}`],
      [join(ROOT, 'deploy/prometheus/alerts.yaml')],
    );
  }, 120_000);

  afterAll(async () => {
    await prometheus?.stop();
    await service?.stop();
    await new Promise((done) => receiver?.close(done));
    await database?.drop();
    rmSync(mailDir, { recursive: true, force: true });
  }, 60_000);

  const value = async (promql: string): Promise<number | undefined> => {
    const [sample] = await prometheus.query(promql);
    return sample?.value;
  };
  const atLeast = (promql: string, min: number) =>
    eventually(`${promql} >= ${min}`, async () => {
      const v = await value(promql);
      return v !== undefined && v >= min ? v : undefined;
    });

  it('serves /metrics on METRICS_PORT only, never on the API port', async () => {
    const onApi = await fetch(`${api}/metrics`);
    expect(onApi.status).toBe(404);
    const own = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await own.text()).toContain('# TYPE interlock_http_requests_total counter');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
    await atLeast('up{job="interlock"}', 1);
  });

  it('counts requests by route template, method and status class, guard refusals and 404s included', async () => {
    for (let i = 0; i < 5; i++) expect((await fetch(`${api}/health/live`)).status).toBe(200);
    const id = '0d8e8f4e-1b1c-4a0e-9a8e-3f2d1c0b9a87';
    expect((await fetch(`${api}/api/interrupts/${id}`)).status).toBe(401);
    expect((await fetch(`${api}/no/such/${id}`)).status).toBe(404);

    await atLeast(
      'interlock_http_requests_total{route="/health/live",method="GET",status_class="2xx"}',
      5,
    );
    await atLeast(
      'interlock_http_requests_total{route="/api/interrupts/:id",method="GET",status_class="4xx"}',
      1,
    );
    await atLeast(
      'interlock_http_requests_total{route="unmatched",method="GET",status_class="4xx"}',
      1,
    );
    await atLeast('interlock_http_request_duration_seconds_count{route="/health/live"}', 5);

    // Bounded labels: no route value carries an id or a raw path.
    const routes = await prometheus.query('count by (route) (interlock_http_requests_total)');
    expect(routes.length).toBeGreaterThan(0);
    for (const { metric } of routes) {
      expect(metric.route).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
      expect(metric.route === 'unmatched' || metric.route.startsWith('/')).toBe(true);
    }

    // The series move: more requests, a higher count at a later scrape.
    const before =
      (await value('interlock_http_requests_total{route="/health/live",status_class="2xx"}')) ?? 0;
    for (let i = 0; i < 3; i++) await fetch(`${api}/health/live`);
    await atLeast(
      'interlock_http_requests_total{route="/health/live",status_class="2xx"}',
      before + 3,
    );
    await atLeast(
      'histogram_quantile(0.99, sum by (le) (rate(interlock_http_request_duration_seconds_bucket{route="/health/live"}[1m])))',
      0,
    );
  });

  it('follows interrupts, webhook deliveries, the pool, the jobs, the bus and open streams', async () => {
    const signUp = await fetch(`${api}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `ops-${Date.now()}@example.test`,
        password: 'correct horse battery staple',
        name: 'Ops',
        organisationName: 'Ops',
      }),
    });
    expect(signUp.status).toBe(201);
    const cookie = (
      signUp.headers.getSetCookie().find((c) => c.startsWith('session=')) as string
    ).split(';')[0];
    const organisationId = ((await signUp.json()) as { organisation: { id: string } }).organisation
      .id;
    const member = {
      cookie,
      'x-organisation-id': organisationId,
      'content-type': 'application/json',
    };
    expect(
      (
        await fetch(`${api}/api/organisation/plan`, {
          method: 'PUT',
          headers: member,
          body: JSON.stringify({ plan: 'pro' }),
        })
      ).status,
    ).toBe(200);
    const keyRes = await fetch(`${api}/api/api-keys`, {
      method: 'POST',
      headers: member,
      body: JSON.stringify({ name: 'ops', expiry: 'never' }),
    });
    expect(keyRes.status).toBe(201);
    const key = ((await keyRes.json()) as { key: string }).key;
    const { port } = receiver.address() as AddressInfo;
    const hook = await fetch(`${api}/api/webhooks`, {
      method: 'POST',
      headers: member,
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook` }),
    });
    expect(hook.status).toBe(201);

    // An event stream stays open while the interrupts are opened.
    const stream = new AbortController();
    const events = await fetch(`${api}/api/events`, {
      headers: { cookie, 'x-organisation-id': organisationId },
      signal: stream.signal,
    });
    expect(events.status).toBe(200);
    let lastId = '';
    for (let i = 0; i < 3; i++) {
      const opened = await fetch(`${api}/api/interrupts`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Deploy ${i}`, actionRequests: [{ name: 'deploy' }] }),
      });
      expect(opened.status).toBe(201);
      const { id } = (await opened.json()) as { id: string };
      lastId = id;
      expect(
        (await fetch(`${api}/api/interrupts/${id}`, { headers: { 'x-api-key': key } })).status,
      ).toBe(200);
    }

    await atLeast('interlock_http_streams_open{route="/api/events"}', 1);
    // A long poll on an open interrupt is held; it is counted while held and never timed.
    const poll = new AbortController();
    const held = fetch(`${api}/api/interrupts/${lastId}?waitSeconds=30`, {
      headers: { 'x-api-key': key },
      signal: poll.signal,
    }).catch(() => undefined);
    await atLeast('interlock_http_long_polls_open{route="/api/interrupts/:id"}', 1);
    const timedBefore =
      (await value(
        'interlock_http_request_duration_seconds_count{route="/api/interrupts/:id",method="GET",status_class="2xx"}',
      )) ?? 0;
    poll.abort();
    await held;
    await eventually('the long poll to end', async () =>
      (await value('interlock_http_long_polls_open{route="/api/interrupts/:id"}')) === 0
        ? true
        : undefined,
    );
    expect(
      await value(
        'interlock_http_request_duration_seconds_count{route="/api/interrupts/:id",method="GET",status_class="2xx"}',
      ),
    ).toBe(timedBefore);
    await atLeast(
      'interlock_http_requests_total{route="/api/interrupts",method="POST",status_class="2xx"}',
      3,
    );
    await atLeast(
      'interlock_http_requests_total{route="/api/interrupts/:id",method="GET",status_class="2xx"}',
      3,
    );
    await atLeast('interlock_interrupts_open{age="0-5m"}', 3);
    await atLeast('interlock_webhook_deliveries_total{outcome="succeeded"}', 3);
    expect(received).toBeGreaterThanOrEqual(3);
    await atLeast('interlock_webhook_delivery_duration_seconds_count', 3);
    await atLeast('count(interlock_webhook_outbox_depth)', 4);
    await atLeast('interlock_webhook_outbox_oldest_due_seconds', 0);

    stream.abort();
    await eventually('the stream to close', async () =>
      (await value('interlock_http_streams_open{route="/api/events"}')) === 0 ? true : undefined,
    );

    await atLeast('interlock_db_query_duration_seconds_count{statement="insert"}', 1);
    await atLeast('sum(interlock_db_query_duration_seconds_count)', 10);
    await atLeast('interlock_db_pool_max', 10);
    await atLeast('count(interlock_db_pool_connections)', 2);
    await atLeast('interlock_db_pool_waiting', 0);
    // The interrupt reads above ran as named prepared statements; none ran unnamed past the cap.
    await atLeast('interlock_db_named_statements_on', 1);
    await atLeast('interlock_db_named_statements', 1);
    await atLeast('interlock_db_named_statements_max', 500);
    expect(await value('interlock_db_unnamed_statements')).toBe(0);
    await atLeast('sum(interlock_job_rounds_total{worker="webhook-deliveries"})', 1);
    await atLeast(
      'interlock_job_worker_last_round_timestamp_seconds{worker="webhook-deliveries"}',
      Date.now() / 1000 - 60,
    );
    await atLeast('count(interlock_job_lag_seconds)', 1);
    await atLeast('interlock_notification_bus_lag_seconds_count', 1);
    await atLeast('interlock_notification_bus_healthy', 1);
  });

  it('follows the notification outbox, argus outcomes and interrupts past their deadline', async () => {
    const signUp = await fetch(`${api}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `argus-${Date.now()}@example.test`,
        password: 'correct horse battery staple',
        name: 'Argus Ops',
        organisationName: 'Argus Ops',
      }),
    });
    expect(signUp.status).toBe(201);
    const cookie = (
      signUp.headers.getSetCookie().find((c) => c.startsWith('session=')) as string
    ).split(';')[0];
    const organisationId = ((await signUp.json()) as { organisation: { id: string } }).organisation
      .id;
    const member = {
      cookie,
      'x-organisation-id': organisationId,
      'content-type': 'application/json',
    };
    expect(
      (
        await fetch(`${api}/api/organisation/plan`, {
          method: 'PUT',
          headers: member,
          body: JSON.stringify({ plan: 'pro' }),
        })
      ).status,
    ).toBe(200);
    const keyRes = await fetch(`${api}/api/api-keys`, {
      method: 'POST',
      headers: member,
      body: JSON.stringify({ name: 'argus', expiry: 'never' }),
    });
    const key = ((await keyRes.json()) as { key: string }).key;
    const rule = async (body: Record<string, unknown>) => {
      const res = await fetch(`${api}/api/classification/rules`, {
        method: 'POST',
        headers: member,
        body: JSON.stringify({ name: 'rule', ...body }),
      });
      expect(res.status).toBe(201);
    };
    await rule({
      mode: 'enforce',
      priority: 1,
      match: { actions: ['read_logs'] },
      outcome: { type: 'approve' },
    });
    await rule({
      mode: 'shadow',
      priority: 2,
      match: { actions: ['drop_table'] },
      outcome: { type: 'reject', message: 'Never.' },
    });
    const open = async (body: Record<string, unknown>) => {
      const res = await fetch(`${api}/api/interrupts`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string; status: string };
    };
    expect(
      (await open({ title: 'Read the logs', actionRequests: [{ name: 'read_logs' }] })).status,
    ).toBe('answered');
    expect(
      (await open({ title: 'Drop a table', actionRequests: [{ name: 'drop_table' }] })).status,
    ).toBe('open');
    await atLeast('interlock_argus_outcomes_total{outcome="approve",result="enforced"}', 1);
    await atLeast('interlock_argus_outcomes_total{outcome="reject",result="shadow"}', 1);
    await atLeast('interlock_argus_failures_total', 0);
    await atLeast('interlock_argus_breaker_trips_total', 0);

    // The owner is notified of the open interrupt (email off: the message is written to MAIL_DIR).
    await atLeast('sum(interlock_notification_deliveries_total{outcome="logged"})', 1);
    await atLeast('interlock_notification_delivery_duration_seconds_count', 1);
    await atLeast('count(interlock_notification_outbox_depth)', 3);
    await atLeast('interlock_notification_outbox_oldest_due_seconds', 0);

    // Deadlines the expiry job has not applied yet: the job is held back, so they stay open.
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      await db.query(
        `UPDATE scheduled_jobs SET next_run_at = now() + interval '1 hour' WHERE name = 'interrupt-expiry'`,
      );
      expect(
        (await db.query(`SELECT 1 FROM scheduled_jobs WHERE name = 'interrupt-expiry'`)).rowCount,
      ).toBe(1);
      const late = await open({
        title: 'Late',
        actionRequests: [{ name: 'deploy' }],
        timeoutSeconds: 1,
      });
      await atLeast('interlock_interrupts_open_past_deadline', 1);
      // Once the job runs again, it expires them and the gauge goes back to 0.
      await db.query(
        `UPDATE scheduled_jobs SET next_run_at = now() WHERE name = 'interrupt-expiry'`,
      );
      await eventually('the late interrupt to expire', async () => {
        const res = await fetch(`${api}/api/interrupts/${late.id}`, {
          headers: { 'x-api-key': key },
        });
        return ((await res.json()) as { status: string }).status === 'expired' ? true : undefined;
      });
      await eventually('the gauge to drop', async () =>
        (await value('interlock_interrupts_open_past_deadline')) === 0 ? true : undefined,
      );
    } finally {
      await db.end();
    }
  });

  it('exposes the process: event-loop lag, heap, GC, CPU', async () => {
    await atLeast('nodejs_eventloop_lag_seconds', 0);
    await atLeast('nodejs_heap_size_used_bytes', 1);
    await atLeast('process_cpu_seconds_total', 0);
    await atLeast('process_resident_memory_bytes', 1);
    await atLeast('count(nodejs_gc_duration_seconds_count)', 1);
  });

  it('evaluates every shipped alert rule without error', async () => {
    const groups = await eventually('the rules evaluated', async () => {
      const res = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as {
        data: {
          groups: {
            rules: { name: string; health: string; lastError?: string; lastEvaluation: string }[];
          }[];
        };
      };
      const rules = res.data.groups.flatMap((g) => g.rules);
      return rules.length > 0 && rules.every((r) => !r.lastEvaluation.startsWith('0001'))
        ? rules
        : undefined;
    });
    expect(groups.map((r) => r.name)).toContain('InterlockHigh5xxRatio');
    for (const rule of groups)
      expect({ rule: rule.name, health: rule.health, lastError: rule.lastError ?? '' }).toEqual({
        rule: rule.name,
        health: 'ok',
        lastError: '',
      });
  });

  it('draws every panel of the Grafana dashboard from series the service exposes', async () => {
    const dashboard = JSON.parse(
      readFileSync(join(ROOT, 'deploy/grafana/interlock.json'), 'utf8'),
    ) as {
      panels: { type: string; title: string; targets?: { expr: string }[] }[];
    };
    // Empty in a short run: nothing in flight between requests, no periodic run due yet.
    const mayBeEmpty = /interlock_http_requests_in_flight|interlock_job_runs_total/;
    const targets = dashboard.panels.flatMap((p) =>
      (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })),
    );
    expect(targets.length).toBeGreaterThan(20);
    for (const { panel, expr } of targets) {
      const promql = expr.replaceAll('$__rate_interval', '1m').replaceAll('$instance', '.*');
      const result = await prometheus.query(promql);
      if (!mayBeEmpty.test(expr))
        expect({ panel, expr, samples: result.length > 0 }).toEqual({ panel, expr, samples: true });
    }
  });
});
