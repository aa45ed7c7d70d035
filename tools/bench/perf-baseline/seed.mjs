// Creates and fills the baseline tables with deterministic data (ids are md5-derived uuids,
// so the same seed always yields the same ids). Re-running drops and recreates both tables.
//   DATABASE_URL  default postgres://postgres@127.0.0.1:55433/postgres
//   ITEMS         default 100000
//   AUDIT_ROWS    default 1000000
//   ORGS          default 20
import pg from 'pg';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55433/postgres';
const items = Number(process.env.ITEMS ?? 100_000);
const auditRows = Number(process.env.AUDIT_ROWS ?? 1_000_000);
const orgs = Number(process.env.ORGS ?? 20);
for (const [name, n] of Object.entries({ ITEMS: items, AUDIT_ROWS: auditRows, ORGS: orgs })) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
}

const client = new pg.Client({ connectionString: url });
await client.connect();

async function step(label, sql, values) {
  const t0 = process.hrtime.bigint();
  const res = await client.query(sql, values);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  console.log(`${label.padEnd(28)} ${(ms / 1000).toFixed(2)} s`);
  return res;
}

await client.query(`set synchronous_commit = off`);
await client.query(`set maintenance_work_mem = '256MB'`);

await step(
  'drop + create tables',
  `
  drop table if exists items;
  drop table if exists audit;
  create table items (
    id uuid primary key,
    org uuid not null,
    title text not null,
    created_at timestamptz not null
  );
  create table audit (
    org uuid not null,
    created_at timestamptz not null,
    id uuid not null,
    actor text not null,
    action text not null,
    summary text not null
  );`,
);

await step(
  `insert ${items} items`,
  `
  insert into items (id, org, title, created_at)
  select md5('item-' || g)::uuid,
         md5('org-' || (g % $2))::uuid,
         'item number ' || g,
         timestamptz '2026-01-01 00:00:00+00' - g * interval '61 seconds'
  from generate_series(1, $1::int) as g`,
  [items, orgs],
);

// 13.000017 s apart so created_at carries microseconds (exercises cursor precision).
await step(
  `insert ${auditRows} audit rows`,
  `
  insert into audit (org, created_at, id, actor, action, summary)
  select md5('org-' || (g % $2))::uuid,
         timestamptz '2026-01-01 00:00:00+00' - g * interval '13.000017 seconds',
         md5('audit-' || g)::uuid,
         'key_' || (g % 97),
         (array['key.created','key.revoked','member.added','member.removed','interrupt.resolved'])[1 + g % 5],
         'event ' || g || ' recorded by key_' || (g % 97) || ' for resource res_' || (g % 1013)
  from generate_series(1, $1::int) as g`,
  [auditRows, orgs],
);

await step('audit primary key', `alter table audit add primary key (id)`);
await step(
  'audit (org, created_at, id)',
  `
  create index audit_org_created_id on audit (org, created_at desc, id desc)`,
);
// vacuum sets hint bits and the visibility map now, so the first benchmark round does not pay for it.
await step('vacuum analyze items', `vacuum analyze items`);
await step('vacuum analyze audit', `vacuum analyze audit`);

const sample = await client.query(`
  select md5('item-1')::uuid as item,
         md5('org-0')::uuid as org,
         (select count(*) from audit where org = md5('org-0')::uuid) as org_rows`);
const s = sample.rows[0];
console.log(`sample item id: ${s.item}`);
console.log(`sample org:     ${s.org} (${s.org_rows} audit rows)`);
console.log(`try: /rows/${s.item}   /page?org=${s.org}&limit=50`);
await client.end();
