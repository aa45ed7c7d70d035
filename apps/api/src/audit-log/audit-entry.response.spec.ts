import { AuditEntryRow, auditEntryJson, compactJson, isoMillis, toAuditEntry } from './audit-entry.response';

/** JSON as Postgres writes jsonb: a space after each `:` and `,`, keys by length then bytes. */
function jsonbText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}: ${jsonbText((value as Record<string, unknown>)[k])}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

describe('compactJson', () => {
  it('takes out the spaces Postgres puts between tokens, and none inside strings', () => {
    expect(compactJson('{"a": 1, "b": [true, null, "x y"]}')).toBe('{"a":1,"b":[true,null,"x y"]}');
    expect(compactJson('{"k": "\\": \\", ", "z": {}}')).toBe('{"k":"\\": \\", ","z":{}}');
    expect(compactJson('{"k": "ends in a backslash \\\\", "n": -2.5}')).toBe('{"k":"ends in a backslash \\\\","n":-2.5}');
    expect(compactJson('[]')).toBe('[]');
    expect(compactJson('"just a string"')).toBe('"just a string"');
  });

  it('gives the JSON.stringify bytes of metadata shaped like the audit catalogue’s', () => {
    const values = [
      { externalId: 'run 42', actionRequests: ['deploy', 'notify, then wait'] },
      { previousName: 'a "b" c', name: 'tab\there, newline\n, \\ and ✓ 😀' },
      { level: 3, reason: null, failingForMs: 86_400_000, ratio: 0.25 },
      { permissions: [], added: ['x'], removed: [], nested: { deep: [{ a: [1, [2, [3]]] }] } },
      {},
    ];
    for (const value of values) {
      const text = jsonbText(value);
      expect(compactJson(text)).toBe(JSON.stringify(JSON.parse(text)));
    }
  });
});

describe('isoMillis', () => {
  it('writes a UTC timestamp as toISOString does, milliseconds truncated', () => {
    for (const [utc, iso] of [
      ['2026-11-21 12:00:00', '2026-11-21T12:00:00.000Z'],
      ['2026-11-21 12:00:00.5', '2026-11-21T12:00:00.500Z'],
      ['2026-11-21 12:00:00.12', '2026-11-21T12:00:00.120Z'],
      ['2026-11-21 12:00:00.123999', '2026-11-21T12:00:00.123Z'],
      ['0999-01-01 00:00:00.000001', '0999-01-01T00:00:00.000Z'],
    ]) {
      expect(isoMillis(utc)).toBe(iso);
      expect(new Date(`${utc.replace(' ', 'T')}Z`).toISOString()).toBe(iso);
    }
  });

  it('refuses what is not a UTC timestamp of four-digit years', () => {
    for (const text of ['2026-11-21 12:00:00+00', '12026-11-21 12:00:00', '2026-11-21T12:00:00', '21/11/2026 12:00:00', '2026-11-21 12:00:00 BC']) {
      expect(() => isoMillis(text)).toThrow('not a UTC timestamp');
    }
  });
});

describe('auditEntryJson', () => {
  it('writes the bytes JSON.stringify(toAuditEntry(row)) gives, every optional field present and absent', () => {
    const awkward = 'quote " backslash \\ tab \t nl \n \u0001 é 😀 \u2028';
    const full: AuditEntryRow = {
      id: '6aba50bc-8b1f-4c19-8090-f9042950ef24',
      created_at: new Date('2026-11-21T12:00:00.123Z'),
      seq: '7',
      action: 'interrupt.created',
      category: 'interrupt',
      actor_type: 'api_key',
      actor_id: `k"1`,
      actor_name: awkward,
      target_type: 'interrupt',
      target_id: 'i\\1',
      target_name: null,
      summary: awkward,
      metadata: { externalId: awkward, actionRequests: ['deploy', 'notify'] },
      ip_address: '::1',
    };
    const bare: AuditEntryRow = { ...full, actor_id: null, target_type: null, target_id: null, metadata: null, ip_address: null };
    for (const row of [full, bare, { ...full, target_name: awkward }]) {
      const text = {
        ...row,
        created_at_utc: '2026-11-21 12:00:00.123456',
        metadata: row.metadata === null ? null : jsonbText(row.metadata),
      };
      expect(auditEntryJson(text)).toBe(JSON.stringify(toAuditEntry(row)));
    }
  });
});
