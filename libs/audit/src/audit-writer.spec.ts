import { writeAuditEntry, writeAuditRecord, type SqlExecutor } from './audit-writer';

function recorder(): SqlExecutor & { params: unknown[][] } {
  const params: unknown[][] = [];
  return {
    params,
    async query(_sql: string, parameters?: unknown[]) {
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
