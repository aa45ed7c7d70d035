import { searchWords } from './search-words';

describe('searchWords', () => {
  it('splits the action into its words', () => {
    expect(searchWords('api_key.created')).toEqual(['api', 'key', 'created']);
  });

  it('folds case and accents the same way for entries and queries', () => {
    expect(searchWords('Zoë Çelik ÉCOLE Straße')).toEqual(['zoe', 'celik', 'ecole', 'strasse']);
    expect(searchWords('ZOE')).toEqual(searchWords('zoë'));
  });

  it('drops punctuation and operators, keeps letters and digits of any script', () => {
    expect(searchWords(`it's a & b | !c :* (d) \\ "e"`)).toEqual([
      'it',
      's',
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
    expect(searchWords('ключ v2 日本')).toEqual(['ключ', 'v2', '日本']);
  });

  it('de-duplicates across fields and skips empty ones', () => {
    expect(
      searchWords('Key ci-runner created', null, 'ci-runner', undefined, 'api_key.created'),
    ).toEqual(['key', 'ci', 'runner', 'created', 'api']);
  });

  it('caps word length', () => {
    expect(searchWords('x'.repeat(100))).toEqual(['x'.repeat(64)]);
  });
});
