import { filtersFromParams, isoToLocal, localToIso } from './audit-filters';
import { exportUrl } from './audit-log.queries';

describe('audit filters', () => {
  it('reads the filters of the address and drops unknown enum values', () => {
    const params = new URLSearchParams(
      'targetType=interrupt&targetId=abc&category=nope&q=%20deploy%20&actorType=member',
    );
    expect(filtersFromParams(params)).toEqual({
      targetType: 'interrupt',
      targetId: 'abc',
      q: 'deploy',
      actorType: 'member',
    });
  });

  it('builds the export link of the same filter', () => {
    expect(exportUrl({ q: 'refund order', targetType: 'interrupt' })).toBe(
      '/api/audit-log/export?q=refund+order&targetType=interrupt',
    );
    expect(exportUrl({})).toBe('/api/audit-log/export');
  });

  it('round-trips a local time through ISO 8601', () => {
    expect(isoToLocal(localToIso('2026-11-22T14:05'))).toBe('2026-11-22T14:05');
    expect(localToIso('')).toBe('');
  });
});
