import { auditEntriesAfter, auditHead } from './audit-stream';
import { targetHistoryJson } from './target-history';

describe('the event stream reads', () => {
  it("reads the organisation's head as a number, 0 before its first entry", async () => {
    const db = {
      query: jest
        .fn()
        .mockResolvedValueOnce([{ last_seq: '42' }])
        .mockResolvedValueOnce([]),
    };
    expect(await auditHead(db, 'org')).toBe(42);
    expect(await auditHead(db, 'org')).toBe(0);
    expect(db.query).toHaveBeenCalledWith(expect.stringContaining('FROM audit_log_heads'), ['org']);
  });

  it('asks for the entries after one sequence number up to another, of the given actions, a batch at a time', async () => {
    const db = { query: jest.fn(async () => []) };
    await auditEntriesAfter(db, 'org', 3, 9, ['interrupt.created'], 200);
    expect(db.query).toHaveBeenCalledWith(
      expect.stringMatching(
        /seq > \$2 AND seq <= \$3 AND action = ANY\(\$4::text\[\]\)[\s\S]*ORDER BY seq LIMIT \$5/,
      ),
      ['org', 3, 9, ['interrupt.created'], 200],
    );
  });
});

describe('targetHistoryJson', () => {
  it("selects the target's latest entries through the target index, within the caller's statement", () => {
    const sql = targetHistoryJson('i.organisation_id', 'interrupt', 'i.id::text', 100);
    expect(sql).toContain(
      "a.organisation_id = i.organisation_id AND a.target_id = i.id::text AND a.target_type = 'interrupt'",
    );
    expect(sql).toContain('LIMIT 100');
  });

  it('refuses a limit that is not a positive integer (it is written into the SQL)', () => {
    expect(() => targetHistoryJson('o', 'interrupt', 't', 0)).toThrow('positive integer');
    expect(() => targetHistoryJson('o', 'interrupt', 't', 1.5)).toThrow('positive integer');
  });
});
