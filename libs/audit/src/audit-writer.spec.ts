import {
  AUDIT_ROWS_PER_STATEMENT,
  writeAuditEntries,
  writeAuditEntry,
  writeAuditRecord,
  type AuditEntryInput,
  type SqlExecutor,
} from './audit-writer';

function recorder(): SqlExecutor & { params: unknown[][]; sql: string[] } {
  const params: unknown[][] = [];
  const sql: string[] = [];
  return {
    params,
    sql,
    async query(text: string, parameters?: unknown[]) {
      sql.push(text);
      params.push(parameters ?? []);
      return [];
    },
  };
}

describe('writeAuditEntry', () => {
  it('writes an event of the catalogue with its category and rendered summary', async () => {
    const db = recorder();
    await writeAuditEntry(db, {
      organisationId: 'org-1',
      action: 'team.renamed',
      actor: { type: 'member', id: 'u-1', name: 'Ada Lovelace' },
      target: { type: 'team', id: 't-1', name: 'SRE' },
      metadata: { previousName: 'Ops', name: 'SRE' },
      ipAddress: '203.0.113.7',
    });
    const [row] = db.params;
    // organisation, id, action, category, actor type/id/name, target type/id/name, summary, metadata, ip, words
    expect(row[0]).toBe('org-1');
    expect(row.slice(2, 12)).toEqual([
      'team.renamed',
      'team',
      'member',
      'u-1',
      'Ada Lovelace',
      'team',
      't-1',
      'SRE',
      'Team Ops renamed to SRE by Ada Lovelace',
      JSON.stringify({ previousName: 'Ops', name: 'SRE' }),
    ]);
    expect(row[12]).toBe('203.0.113.7');
  });

  it('writes null metadata for an event that has none', async () => {
    const db = recorder();
    await writeAuditEntry(db, {
      organisationId: 'org-1',
      action: 'team.created',
      actor: { type: 'member', id: 'u-1', name: 'Ada' },
      target: { type: 'team', id: 't-1', name: 'Ops' },
      metadata: null,
    });
    expect(db.params[0][10]).toBe('Team Ops created by Ada');
    expect(db.params[0][11]).toBeNull();
    expect(db.params[0][12]).toBeNull();
  });
});

describe('writeAuditRecord', () => {
  it('writes any action as given, its category the prefix', async () => {
    const db = recorder();
    await writeAuditRecord(db, {
      organisationId: 'org-1',
      action: 'classification.created',
      actor: { type: 'system', id: null, name: 'Interlock' },
      summary: 'Anything at all',
    });
    expect(db.params[0].slice(2, 4)).toEqual(['classification.created', 'classification']);
    expect(db.params[0][10]).toBe('Anything at all');
  });
});

describe('writeAuditEntries', () => {
  const expired = (n: number): AuditEntryInput => ({
    organisationId: 'org-1',
    action: 'interrupt.expired',
    actor: { type: 'system', id: null, name: 'system' },
    target: { type: 'interrupt', id: `i-${n}`, name: `Refund ${n}` },
    metadata: { outcome: 'reject', actionNames: ['refund'] },
    ipAddress: null,
  });

  it('writes the rows writeAuditEntry writes, in the order given, one statement per chunk', async () => {
    const inputs = Array.from({ length: AUDIT_ROWS_PER_STATEMENT + 2 }, (_, n) => expired(n));
    const db = recorder();
    const written = await writeAuditEntries(db, inputs);
    expect(db.sql).toHaveLength(2);
    expect(db.params[0]).toHaveLength(AUDIT_ROWS_PER_STATEMENT * 14);
    expect(db.params[1]).toHaveLength(2 * 14);
    // Row by row, each the parameters one writeAuditEntry call would have sent (but its id).
    const rows = db.params.flatMap((p) =>
      Array.from({ length: p.length / 14 }, (_, r) => p.slice(r * 14, r * 14 + 14)),
    );
    for (const n of [0, 1, AUDIT_ROWS_PER_STATEMENT + 1]) {
      const one = recorder();
      await writeAuditEntry(one, inputs[n]);
      const [expected] = one.params;
      expect(rows[n][1]).toBe(written[n].id);
      expect([rows[n][0], ...rows[n].slice(2)]).toEqual([expected[0], ...expected.slice(2)]);
    }
    expect(db.sql[1]).toContain('($15, $16,');
    expect(db.sql[1]).toContain('array_to_tsvector($28::text[])');
    expect(new Set(written.map((w) => w.id)).size).toBe(inputs.length);
  });

  it('writes nothing for no entries', async () => {
    const db = recorder();
    expect(await writeAuditEntries(db, [])).toEqual([]);
    expect(db.sql).toHaveLength(0);
  });
});
