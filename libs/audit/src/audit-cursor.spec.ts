import { createHash } from 'node:crypto';
import { DIGESTS_KEPT, parametersDigest } from './audit-cursor';

/** The digest as the cursor format defines it, computed apart from the function under test. */
const sha = (pairs: [string, unknown][]) =>
  createHash('sha256').update(JSON.stringify(pairs)).digest('base64url').slice(0, 22);

describe('parametersDigest', () => {
  it('is the SHA-256 of the sorted parameters, whatever their order, null for undefined', () => {
    const expected = sha([
      ['category', 'interrupt'],
      ['limit', 50],
      ['to', null],
      ['words', ''],
    ]);
    expect(parametersDigest({ words: '', limit: 50, category: 'interrupt', to: undefined })).toBe(
      expected,
    );
    expect(parametersDigest({ to: undefined, category: 'interrupt', words: '', limit: 50 })).toBe(
      expected,
    );
    expect(parametersDigest({ words: '', limit: 51, category: 'interrupt' })).not.toBe(expected);
  });

  it('answers the same, remembered or not, past the texts it keeps', () => {
    const sets = Array.from({ length: DIGESTS_KEPT * 2 + 3 }, (_, i) => ({
      words: `w${i}`,
      limit: 50,
    }));
    for (let round = 0; round < 2; round++)
      for (const set of sets)
        expect(parametersDigest(set)).toBe(
          sha([
            ['limit', 50],
            ['words', set.words],
          ]),
        );
  });
});
