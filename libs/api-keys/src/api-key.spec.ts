import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import {
  API_KEY_LETTERS,
  DEFAULT_API_KEY_PREFIX,
  apiKeyFormRefusal,
  apiKeyStart,
  assertValidApiKeyPrefix,
  generateApiKey,
  isValidApiKeyPrefix,
  parseApiKey,
} from './api-key';
import { KEY_ALPHABET } from './alphabet';

const P = DEFAULT_API_KEY_PREFIX;
const validPrefix = fc.stringMatching(/^[a-z][a-z0-9]{0,15}_$/);
const letter = fc.constantFrom(...KEY_ALPHABET);
const generatedKey = validPrefix.map((prefix) => ({ prefix, key: generateApiKey(prefix) }));

/** Known-answer keys, computed by an independent Python implementation of the scheme. */
const KNOWN_KEYS = [
  { prefix: 'ilk_', key: 'ilk_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzABCDEFpnPGcZ' },
  { prefix: 'acme2_', key: `acme2_${'z'.repeat(58)}GaoxRR` },
  { prefix: 'ilk_', key: `ilk_${'A'.repeat(58)}AssmGf` },
];

describe('constants', () => {
  it('match SPEC §2', () => {
    expect(API_KEY_LETTERS).toBe(64);
    expect(DEFAULT_API_KEY_PREFIX).toBe('ilk_');
  });
});

describe('prefix validation', () => {
  it.each(['ilk_', 'a_', 'acme2_', `a${'b9'.repeat(7)}c_`])('accepts %j', (prefix) => {
    expect(isValidApiKeyPrefix(prefix)).toBe(true);
    expect(() => generateApiKey(prefix)).not.toThrow();
  });

  const tooLong = `a${'b'.repeat(16)}_`;
  const invalidPrefixes = ['', '_', 'ilk', 'Ilk_', '1lk_', 'ilk-', 'il k_', 'ilk__', 'ılk_'];
  it.each([...invalidPrefixes, tooLong])('refuses %j with a clear error', (prefix) => {
    expect(isValidApiKeyPrefix(prefix)).toBe(false);
    expect(() => assertValidApiKeyPrefix(prefix)).toThrow(/Invalid API key prefix .* must match/);
    expect(() => generateApiKey(prefix)).toThrow(/Invalid API key prefix/);
    expect(() => parseApiKey(`${P}${'A'.repeat(64)}`, prefix)).toThrow(/Invalid API key prefix/);
  });

  it('refuses non-strings', () => {
    expect(isValidApiKeyPrefix(undefined)).toBe(false);
    expect(() => assertValidApiKeyPrefix(42)).toThrow(/Invalid API key prefix 42/);
  });
});

describe('generateApiKey', () => {
  it('writes the prefix then 64 ASCII letters', () => {
    fc.assert(
      fc.property(generatedKey, ({ prefix, key }) => {
        expect(key.startsWith(prefix)).toBe(true);
        expect(key.slice(prefix.length)).toMatch(/^[A-Za-z]{64}$/);
      }),
    );
  });

  it('never repeats itself', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey(P)));
    expect(keys.size).toBe(1000);
  });
});

describe('parseApiKey', () => {
  it('accepts every generated key and reports its start', () => {
    fc.assert(
      fc.property(generatedKey, ({ prefix, key }) => {
        const start = key.slice(0, prefix.length + 4);
        expect(parseApiKey(key, prefix)).toEqual({ ok: true, start });
      }),
      { numRuns: 500 },
    );
  });

  it.each(KNOWN_KEYS)('accepts the known-answer key $key', ({ prefix, key }) => {
    expect(parseApiKey(key, prefix)).toEqual({ ok: true, start: key.slice(0, prefix.length + 4) });
  });

  it('refuses every single-letter change, at every position, to every other letter', () => {
    // Exhaustive per key: 64 positions × 51 other letters. Guaranteed, not probabilistic.
    fc.assert(
      fc.property(generatedKey, ({ prefix, key }) => {
        const accepted: string[] = [];
        let refused = 0;
        for (let position = prefix.length; position < key.length; position++) {
          for (const replacement of KEY_ALPHABET) {
            if (replacement === key[position]) continue;
            const changed = key.slice(0, position) + replacement + key.slice(position + 1);
            const result = parseApiKey(changed, prefix);
            if (!result.ok && result.reason === 'checksum') refused++;
            else accepted.push(changed);
          }
        }
        expect(accepted).toEqual([]);
        expect(refused).toBe(64 * 51);
      }),
      { numRuns: 30 },
    );
  });

  it('refuses a key truncated by any number of characters', () => {
    fc.assert(
      fc.property(generatedKey, ({ prefix, key }) => {
        for (let cut = 1; cut <= key.length; cut++) {
          expect(parseApiKey(key.slice(0, key.length - cut), prefix)).toEqual({
            ok: false,
            reason: 'malformed',
          });
        }
      }),
      { numRuns: 50 },
    );
  });

  it('refuses a key with letters added', () => {
    fc.assert(
      fc.property(generatedKey, fc.string({ unit: letter, minLength: 1 }), (generated, extra) => {
        const { prefix, key } = generated;
        expect(parseApiKey(key + extra, prefix).ok).toBe(false);
        expect(parseApiKey(extra + key, prefix).ok).toBe(false);
      }),
    );
  });

  it('refuses a key under another prefix', () => {
    fc.assert(
      fc.property(validPrefix, validPrefix, (a, b) => {
        fc.pre(a !== b);
        expect(parseApiKey(generateApiKey(a), b)).toEqual({ ok: false, reason: 'malformed' });
      }),
    );
    // Same length, one character different: refused on the prefix, not the length.
    expect(parseApiKey(generateApiKey('ilk_'), 'ilj_')).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses a key whose prefix was replaced by another valid prefix of the same length', () => {
    // The digest letters bind the prefix, so the body cannot be moved under another prefix.
    const key = generateApiKey('ilk_');
    expect(parseApiKey(`abc_${key.slice(4)}`, 'abc_')).toEqual({ ok: false, reason: 'checksum' });
  });

  it('refuses a non-letter at any position as malformed', () => {
    const notLetters = fc.constantFrom(
      '0',
      '9',
      '_',
      '-',
      ' ',
      '\n',
      '\0',
      'é',
      'ß',
      'ｚ',
      '\uD800',
    );
    fc.assert(
      fc.property(generatedKey, fc.nat(63), notLetters, ({ prefix, key }, offset, bad) => {
        const position = prefix.length + offset;
        const changed = key.slice(0, position) + bad + key.slice(position + 1);
        expect(parseApiKey(changed, prefix)).toEqual({ ok: false, reason: 'malformed' });
      }),
    );
  });

  it('classifies right-shaped strings with a bad checksum as checksum', () => {
    // A random 64-letter string passes with probability 52^-6 ≈ 5e-11.
    fc.assert(
      fc.property(fc.stringMatching(/^ilk_[A-Za-z]{64}$/), (value) => {
        expect(parseApiKey(value, P)).toEqual({ ok: false, reason: 'checksum' });
      }),
    );
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (value) => {
        expect(parseApiKey(value, P).ok).toBe(false);
      }),
      { numRuns: 1000 },
    );
    for (const value of [undefined, null, 42, ['ilk_'], {}, Symbol('k')]) {
      const result = parseApiKey(value as unknown as string, P);
      expect(result).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('refuses a huge string by its length alone', () => {
    const huge = P + 'A'.repeat(10_000_000);
    expect(parseApiKey(huge, P)).toEqual({ ok: false, reason: 'malformed' });
    // 1,000 refusals in well under what 1,000 scans of 10 million characters take (seconds: even
    // a trim or one regex pass costs several ms each). The bound leaves a loaded machine room to
    // stall this process once, and it has up to three attempts; a scan misses it by seconds on each.
    const attempts: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < 1000; i++) parseApiKey(huge, P);
      attempts.push(Number(process.hrtime.bigint() - started) / 1e6);
      // Met, or missed by far more than any stall (a scan: ~40 s here): no need to try again.
      if (attempts[attempt] < 250 || attempts[attempt] > 5_000) break;
    }
    expect(Math.min(...attempts)).toBeLessThan(250);
  });
});

describe('apiKeyFormRefusal', () => {
  it('leaves every generated key to the digest check', () => {
    fc.assert(
      fc.property(generatedKey, ({ prefix, key }) => {
        expect(apiKeyFormRefusal(key, prefix)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a changed body or Luhn letter by form alone, as parseApiKey does; a changed digest letter only parseApiKey refuses', () => {
    fc.assert(
      fc.property(generatedKey, letter, ({ prefix, key }, replacement) => {
        for (let position = prefix.length; position < key.length; position++) {
          if (replacement === key[position]) continue;
          const changed = key.slice(0, position) + replacement + key.slice(position + 1);
          const byForm = apiKeyFormRefusal(changed, prefix);
          const parsed = parseApiKey(changed, prefix);
          expect(parsed).toEqual({ ok: false, reason: 'checksum' });
          // 58 body letters, then the Luhn letter: the form decides; the 5 digest letters: it does not.
          if (position <= prefix.length + 58) expect(byForm).toEqual(parsed);
          else expect(byForm).toBeUndefined();
        }
      }),
      { numRuns: 50 },
    );
  });

  it.each([
    ['a wrong length', (key: string) => key.slice(1)],
    ['another prefix', (key: string) => `xlk_${key.slice(4)}`],
    ['a character outside the alphabet', (key: string) => `${key.slice(0, 10)}0${key.slice(11)}`],
    ['a digest letter outside the alphabet', (key: string) => `${key.slice(0, -1)}-`],
  ])('answers malformed for %s, as parseApiKey does', (_case, change) => {
    const changed = change(generateApiKey(P));
    expect(apiKeyFormRefusal(changed, P)).toEqual({ ok: false, reason: 'malformed' });
    expect(parseApiKey(changed, P)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('apiKeyStart', () => {
  it('is the prefix plus the first 4 letters', () => {
    expect(apiKeyStart(KNOWN_KEYS[0].key, 'ilk_')).toBe('ilk_ABCD');
    expect(apiKeyStart(KNOWN_KEYS[1].key, 'acme2_')).toBe('acme2_zzzz');
  });

  it('refuses a value that does not parse', () => {
    expect(() => apiKeyStart('ilk_short', P)).toThrow(/does not parse \(malformed\)/);
    expect(() => apiKeyStart(`ilk_${'A'.repeat(64)}`, P)).toThrow(/does not parse \(checksum\)/);
  });
});

describe('letter distribution', () => {
  const KEYS = 2000;
  const RANDOM_LETTERS = 58;
  /**
   * The 1 − 10⁻⁶ quantile of χ² with 51 degrees of freedom (52 buckets − 1), computed by
   * bisection on the regularized incomplete gamma function below. A uniform generator fails
   * this once in a million runs (CI must not flicker); the biased generator below scores ≈ 391.
   */
  const CHI_SQUARE_51_CRITICAL = 114.076;

  function chiSquare(counts: readonly number[]): number {
    const total = counts.reduce((a, b) => a + b, 0);
    const expected = total / counts.length;
    return counts.reduce((sum, observed) => sum + (observed - expected) ** 2 / expected, 0);
  }

  /** P(χ²_k ≤ x): the regularized lower incomplete gamma P(k/2, x/2), by its power series. */
  function chiSquareCdf(x: number, k: number): number {
    const a = k / 2;
    const z = x / 2;
    let term = 1 / a;
    let sum = term;
    for (let n = 1; term > sum * 1e-16; n++) {
      term *= z / (a + n);
      sum += term;
    }
    let logGammaA = 0; // ln Γ(25.5) via Γ(a) = (a − 1)·Γ(a − 1) down to Γ(1/2) = √π
    for (let v = a - 1; v > 0; v--) logGammaA += Math.log(v);
    logGammaA += Math.log(Math.sqrt(Math.PI));
    return sum * Math.exp(-z + a * Math.log(z) - logGammaA);
  }

  /** Counts of 58 × KEYS letters drawn by `draw`, over the 52 letters. */
  function letterCounts(draw: () => string): number[] {
    const counts = new Array<number>(52).fill(0);
    for (let k = 0; k < KEYS; k++) {
      const letters = draw();
      for (let i = 0; i < RANDOM_LETTERS; i++) counts[KEY_ALPHABET.indexOf(letters[i])]++;
    }
    return counts;
  }

  it('uses the right critical value', () => {
    expect(chiSquareCdf(CHI_SQUARE_51_CRITICAL, 51)).toBeCloseTo(1 - 1e-6, 8);
  });

  it('is uniform over the 52 letters in the 58 random positions', () => {
    const counts = letterCounts(() => generateApiKey(P).slice(P.length));
    expect(chiSquare(counts)).toBeLessThan(CHI_SQUARE_51_CRITICAL);
  });

  it('would catch the modulo bias of `byte % 52` without rejection', () => {
    // 256 = 4·52 + 48, so letters 0–47 get probability 5/256 and 48–51 get 4/256. Over
    // 116,000 letters that adds ≈ 340 to the expected statistic (≈ 391 in all, sd ≈ 38),
    // so this holds with overwhelming probability — the test above is able to fail.
    const biased = (): string => {
      const bytes = randomBytes(RANDOM_LETTERS);
      let letters = '';
      for (const byte of bytes) letters += KEY_ALPHABET[byte % 52];
      return letters;
    };
    expect(chiSquare(letterCounts(biased))).toBeGreaterThan(CHI_SQUARE_51_CRITICAL);
  });
});
