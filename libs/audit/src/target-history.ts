/**
 * The audit log lends this fragment to another module's read that shows one target's history in
 * the same statement as the target itself — the interrupt detail read (GET
 * /api/interrupts/{id}?include=history), a hot read kept to one named prepared statement, so a
 * second call to the audit log would cost a round trip.
 *
 * A JSON array of the target's entries — the latest `limit`, oldest first — through the audit
 * log's target index (`'[]'` when there are none). `organisationId` and `targetId` are the
 * caller's SQL expressions (`targetId` as text); `targetType` and `limit` are constants.
 * `actorType` keeps only the entries one kind of actor wrote (argus's receipts on an interrupt).
 */
export function targetHistoryJson(
  organisationId: string,
  targetType: 'interrupt',
  targetId: string,
  limit: number,
  { actorType }: { actorType?: 'argus' | 'system' } = {},
): string {
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`history limit must be a positive integer, not ${limit}`);
  const byActor = actorType === undefined ? '' : ` AND a.actor_type = '${actorType}'`;
  return `COALESCE((
    SELECT json_agg(json_build_object(
             'id', h.id, 'action', h.action, 'createdAt', h.created_at, 'actorType', h.actor_type,
             'actorId', h.actor_id, 'actorName', h.actor_name, 'summary', h.summary, 'metadata', h.metadata)
           ORDER BY h.created_at, h.seq)
      FROM (SELECT a.id, a.seq, a.action, a.created_at, a.actor_type, a.actor_id, a.actor_name, a.summary, a.metadata
              FROM audit_log_entries a
             WHERE a.organisation_id = ${organisationId} AND a.target_id = ${targetId} AND a.target_type = '${targetType}'${byActor}
             ORDER BY a.created_at DESC, a.seq DESC
             LIMIT ${limit}) h
  ), '[]'::json)`;
}
