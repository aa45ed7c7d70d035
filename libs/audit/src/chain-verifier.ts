import type { SqlExecutor } from './audit-writer';

export type ChainVerdict =
  | { ok: true; entries: number }
  | { ok: false; entries: number; brokenAt: { seq: string; id: string | null; reason: string } };

const BATCH = 5000;

/**
 * Walks one organisation's audit chain in sequence order, recomputing each entry's hash from
 * its content and its predecessor's hash with the database's own digest function, and reports
 * the first broken link: an altered entry, a gap or a duplicate in the sequence, or a head that
 * does not match the last entry (entries removed from the end). The JSON an entry stores for the
 * audit pages (`entry_json`, outside the hash) must be its content's rendering, made again here,
 * when today's renderer stored it (a text of another version is never answered: reads render
 * such entries again).
 */
export async function verifyAuditChain(
  db: SqlExecutor,
  organisationId: string,
): Promise<ChainVerdict> {
  let carried = '';
  let lastSeq = 0n;
  let count = 0;
  for (;;) {
    const rows = (await db.query(
      `SELECT id, seq::text AS seq, hash,
              audit_log_entry_digest(
                CASE WHEN row_number() OVER (ORDER BY e.seq) = 1 THEN $3 ELSE lag(hash) OVER (ORDER BY e.seq) END, e
              ) AS expected,
              entry_json IS NULL OR entry_render_version IS DISTINCT FROM audit_log_render_version()
                OR entry_json = audit_log_entry_json(e) AS json_matches
         FROM audit_log_entries e
        WHERE organisation_id = $1 AND e.seq > $2
        ORDER BY e.seq
        LIMIT ${BATCH}`,
      [organisationId, lastSeq.toString(), carried],
    )) as { id: string; seq: string; hash: string; expected: string; json_matches: boolean }[];
    for (const row of rows) {
      const seq = BigInt(row.seq);
      if (seq !== lastSeq + 1n) {
        return {
          ok: false,
          entries: count,
          brokenAt: {
            seq: (lastSeq + 1n).toString(),
            id: row.id,
            reason: `sequence jumps from ${lastSeq} to ${seq}`,
          },
        };
      }
      if (row.hash !== row.expected) {
        return {
          ok: false,
          entries: count,
          brokenAt: { seq: row.seq, id: row.id, reason: 'content does not match its hash' },
        };
      }
      if (!row.json_matches) {
        return {
          ok: false,
          entries: count,
          brokenAt: {
            seq: row.seq,
            id: row.id,
            reason: 'its stored JSON does not match its content',
          },
        };
      }
      carried = row.hash;
      lastSeq = seq;
      count++;
    }
    if (rows.length < BATCH) break;
  }
  const [head] = (await db.query(
    `SELECT last_seq::text AS last_seq, last_hash FROM audit_log_heads WHERE organisation_id = $1`,
    [organisationId],
  )) as { last_seq: string; last_hash: string }[];
  const headSeq = head === undefined ? 0n : BigInt(head.last_seq);
  if (headSeq !== lastSeq || (head !== undefined && head.last_hash !== carried)) {
    return {
      ok: false,
      entries: count,
      brokenAt: {
        seq: headSeq.toString(),
        id: null,
        reason: `the chain ends at ${lastSeq} but its head records ${headSeq}`,
      },
    };
  }
  return { ok: true, entries: count };
}
