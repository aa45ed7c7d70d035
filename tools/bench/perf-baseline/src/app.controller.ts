import {
  BadRequestException,
  Controller,
  Get,
  NotFoundException,
  Param,
  Query,
} from '@nestjs/common';
import { Db } from './db.js';
import { decodeCursor, encodeCursor, isUuid } from './cursor.js';

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

const ROW_SQL = `
  select id, org, title, to_char(created_at at time zone 'UTC', ${ISO}) as created_at
  from items where id = $1`;

// ORDER BY uses qualified names on purpose: a bare \`created_at\` there would mean the to_char
// output column of the same name, which sorts text and cannot use the index.
const PAGE_COLUMNS = `a.id, to_char(a.created_at at time zone 'UTC', ${ISO}) as created_at,
  a.actor, a.action, a.summary`;

const PAGE_FIRST_SQL = `
  select ${PAGE_COLUMNS}
  from audit a where a.org = $1
  order by a.created_at desc, a.id desc
  limit $2`;

const PAGE_AFTER_SQL = `
  select ${PAGE_COLUMNS}
  from audit a where a.org = $1 and (a.created_at, a.id) < ($3::timestamptz, $4::uuid)
  order by a.created_at desc, a.id desc
  limit $2`;

interface AuditRow {
  id: string;
  created_at: string;
  actor: string;
  action: string;
  summary: string;
}

@Controller()
export class AppController {
  constructor(private readonly db: Db) {}

  @Get('ping')
  ping(): { ok: true } {
    return { ok: true };
  }

  @Get('rows/:id')
  async row(@Param('id') id: string) {
    if (!isUuid(id)) throw new BadRequestException('id must be a uuid');
    const { rows } = await this.db.pool.query({ name: 'row', text: ROW_SQL, values: [id] });
    if (rows.length === 0) throw new NotFoundException('no such row');
    return rows[0];
  }

  @Get('page')
  async page(
    @Query('org') org: string | undefined,
    @Query('limit') limitText: string | undefined,
    @Query('cursor') cursorText: string | undefined,
  ) {
    if (!isUuid(org)) throw new BadRequestException('org must be a uuid');
    const limit = limitText === undefined ? 50 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
      throw new BadRequestException('limit must be an integer from 1 to 200');
    }
    // Fetch one extra row to know whether another page exists.
    let result;
    if (cursorText === undefined) {
      result = await this.db.pool.query<AuditRow>({
        name: 'page_first',
        text: PAGE_FIRST_SQL,
        values: [org, limit + 1],
      });
    } else {
      const cursor = decodeCursor(cursorText);
      if (cursor === null) throw new BadRequestException('cursor is malformed');
      result = await this.db.pool.query<AuditRow>({
        name: 'page_after',
        text: PAGE_AFTER_SQL,
        values: [org, limit + 1, cursor.createdAt, cursor.id],
      });
    }
    const rows = result.rows;
    const more = rows.length > limit;
    const entries = more ? rows.slice(0, limit) : rows;
    const last = entries[entries.length - 1];
    const nextCursor =
      more && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null;
    return { entries, nextCursor };
  }
}
