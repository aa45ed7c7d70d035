import { DomainError } from '@interlock/domain';
import { nameSearchOf } from './session-search.util';

describe('nameSearchOf', () => {
  it('folds the words as names are: case and accents ignored, split on anything not a letter or digit', () => {
    expect(nameSearchOf('  Déploi NIGHTLY-build ')).toEqual({
      words: ['deploi', 'nightly', 'build'],
      idRange: undefined,
    });
  });

  it('reads the beginning of an id, 8 characters or more, as the range of ids that start so', () => {
    expect(nameSearchOf('3F2A9C1E')).toEqual({
      words: ['3f2a9c1e'],
      idRange: ['3f2a9c1e-0000-0000-0000-000000000000', '3f2a9c1e-ffff-ffff-ffff-ffffffffffff'],
    });
    expect(nameSearchOf('3f2a9c1e-77')?.idRange).toEqual([
      '3f2a9c1e-7700-0000-0000-000000000000',
      '3f2a9c1e-77ff-ffff-ffff-ffffffffffff',
    ]);
    const id = '3f2a9c1e-7788-4abc-9def-0123456789ab';
    expect(nameSearchOf(` ${id} `)?.idRange).toEqual([id, id]);
  });

  it('reads no id from shorter text, non-hex digits, a dash out of place or a longer text', () => {
    for (const q of [
      '3f2a9c1',
      '3f2a9c1g',
      '3f2a9c1e7',
      '3f2a-9c1e',
      '3f2a9c1e-7788-4abc-9def-0123456789abc',
    ])
      expect(nameSearchOf(q)?.idRange).toBeUndefined();
  });

  it('is no search without a word or an id, and refuses more than 8 words', () => {
    expect(nameSearchOf(undefined)).toBeUndefined();
    expect(nameSearchOf(' -- ')).toBeUndefined();
    expect(nameSearchOf('a b c d e f g h')?.words).toHaveLength(8);
    expect(() => nameSearchOf('a b c d e f g h i')).toThrow(
      new DomainError('VALIDATION_FAILED', 'q: must have at most 8 words'),
    );
    // Repeated words count once (searchWords keeps each once).
    expect(nameSearchOf('a a a a a a a a a b')?.words).toEqual(['a', 'b']);
  });
});
