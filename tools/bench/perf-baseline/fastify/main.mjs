// Bare Fastify 5 + pg: the same three routes and SQL as the NestJS (Express) app one folder up, no framework
// layers beyond Fastify's own router, JSON serializer and error replies. Env: PORT (4101), HOST,
// DATABASE_URL, PG_POOL_MAX (10).
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55433/postgres',
  max: Number(process.env.PG_POOL_MAX ?? 10),
});
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
const ROW_SQL = `select id, org, title, to_char(created_at at time zone 'UTC', ${ISO}) as created_at from items where id = $1`;
const COLS = `a.id, to_char(a.created_at at time zone 'UTC', ${ISO}) as created_at, a.actor, a.action, a.summary`;
const PAGE_FIRST_SQL = `select ${COLS} from audit a where a.org = $1 order by a.created_at desc, a.id desc limit $2`;
const PAGE_AFTER_SQL = `select ${COLS} from audit a where a.org = $1 and (a.created_at, a.id) < ($3::timestamptz, $4::uuid) order by a.created_at desc, a.id desc limit $2`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const bad = (reply, message) =>
  reply.code(400).send({ statusCode: 400, message, error: 'Bad Request' });

const app = Fastify({ logger: false });
app.get('/ping', async () => ({ ok: true }));
app.get('/rows/:id', async (req, reply) => {
  const { id } = req.params;
  if (!UUID.test(id)) return bad(reply, 'id must be a uuid');
  const { rows } = await pool.query({ name: 'row', text: ROW_SQL, values: [id] });
  if (rows.length === 0)
    return reply.code(404).send({ statusCode: 404, message: 'no such row', error: 'Not Found' });
  return rows[0];
});
app.get('/page', async (req, reply) => {
  const { org, limit: limitText, cursor: cursorText } = req.query;
  if (typeof org !== 'string' || !UUID.test(org)) return bad(reply, 'org must be a uuid');
  const limit = limitText === undefined ? 50 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    return bad(reply, 'limit must be an integer from 1 to 200');
  let result;
  if (cursorText === undefined) {
    result = await pool.query({
      name: 'page_first',
      text: PAGE_FIRST_SQL,
      values: [org, limit + 1],
    });
  } else {
    const [createdAt, id, extra] = Buffer.from(String(cursorText), 'base64url')
      .toString('utf8')
      .split('|');
    if (extra !== undefined || !ISO_MICROS.test(createdAt ?? '') || !UUID.test(id ?? ''))
      return bad(reply, 'cursor is malformed');
    result = await pool.query({
      name: 'page_after',
      text: PAGE_AFTER_SQL,
      values: [org, limit + 1, createdAt, id],
    });
  }
  const rows = result.rows;
  const more = rows.length > limit;
  const entries = more ? rows.slice(0, limit) : rows;
  const last = entries[entries.length - 1];
  const nextCursor =
    more && last
      ? Buffer.from(`${last.created_at}|${last.id}`, 'utf8').toString('base64url')
      : null;
  return { entries, nextCursor };
});
const port = Number(process.env.PORT ?? 4101);
await app.listen({ port, host: process.env.HOST ?? '127.0.0.1' });
console.log(`fastify baseline listening on ${port} (pid ${process.pid})`);
