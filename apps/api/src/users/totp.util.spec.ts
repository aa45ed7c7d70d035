import { authenticator, hotp, totp } from 'otplib';
import { HashAlgorithms, KeyEncodings } from 'otplib/core';
import { matchTotp, newTotpSecret, otpauthUri, totpCode, totpStep } from './totp.util';

/** RFC 4226 Appendix D and RFC 6238 Appendix B's key for HMAC-SHA-1, and its base32. */
const RFC_KEY = '12345678901234567890';
const RFC_KEY_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

/** RFC 6238 Appendix B: Unix seconds, then the 8-digit codes for SHA-1, SHA-256, SHA-512. */
const RFC_6238_TABLE: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP through otplib (RFC 6238 / RFC 4226)', () => {
  it('otplib makes RFC 4226 Appendix D HOTP values', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    const ascii = hotp.clone({ encoding: KeyEncodings.ASCII });
    expect(expected.map((_, counter) => ascii.generate(RFC_KEY, counter))).toEqual(expected);
  });

  it('otplib makes RFC 6238 Appendix B TOTP values (8 digits, SHA-1/256/512)', () => {
    const keys = {
      [HashAlgorithms.SHA1]: RFC_KEY,
      [HashAlgorithms.SHA256]: '12345678901234567890123456789012',
      [HashAlgorithms.SHA512]: '1234567890123456789012345678901234567890123456789012345678901234',
    };
    const code = (algorithm: HashAlgorithms, seconds: number) =>
      totp
        .clone({ algorithm, digits: 8, encoding: KeyEncodings.ASCII, epoch: seconds * 1000 })
        .generate(keys[algorithm]);
    for (const [seconds, sha1, sha256, sha512] of RFC_6238_TABLE) {
      expect([
        code(HashAlgorithms.SHA1, seconds),
        code(HashAlgorithms.SHA256, seconds),
        code(HashAlgorithms.SHA512, seconds),
      ]).toEqual([sha1, sha256, sha512]);
    }
  });

  it("the service's codes from a base32 key are RFC 6238's SHA-1 values at 6 digits", () => {
    for (const [seconds, sha1] of RFC_6238_TABLE) {
      expect(totpCode(RFC_KEY_BASE32, seconds * 1000)).toBe(sha1.slice(2));
      expect(totpCode(RFC_KEY_BASE32.toLowerCase(), seconds * 1000)).toBe(sha1.slice(2));
    }
  });

  it('reads every bit of a base32 key (bytes above 0x7f too)', () => {
    // 20 bytes of 0xff are 160 one-bits: 32 base32 '7's.
    const hex = totp.clone({ encoding: KeyEncodings.HEX, epoch: 1111111111_000 });
    expect(totpCode('7'.repeat(32), 1111111111_000)).toBe(hex.generate('ff'.repeat(20)));
    expect(totpCode('7'.repeat(32), 1111111111_000)).not.toBe(hex.generate('7f'.repeat(20)));
  });

  it('takes a code one step either side of now, not two, and says which step it was', () => {
    const now = 1111111111_000;
    const step = Math.floor(1111111111 / 30);
    expect(totpStep(now)).toBe(step);
    expect(matchTotp(RFC_KEY_BASE32, totpCode(RFC_KEY_BASE32, now), now)).toBe(step);
    expect(matchTotp(RFC_KEY_BASE32, totpCode(RFC_KEY_BASE32, now - 30_000), now)).toBe(step - 1);
    expect(matchTotp(RFC_KEY_BASE32, totpCode(RFC_KEY_BASE32, now + 30_000), now)).toBe(step + 1);
    expect(matchTotp(RFC_KEY_BASE32, totpCode(RFC_KEY_BASE32, now - 60_000), now)).toBeUndefined();
    expect(matchTotp(RFC_KEY_BASE32, totpCode(RFC_KEY_BASE32, now + 60_000), now)).toBeUndefined();
    expect(matchTotp(RFC_KEY_BASE32, '12345', now)).toBeUndefined();
    expect(matchTotp(RFC_KEY_BASE32, '1234567', now)).toBeUndefined();
    expect(matchTotp(RFC_KEY_BASE32, 'abcdef', now)).toBeUndefined();
  });

  it('makes keys of 160 random bits: 32 base32 characters, high bits set as often as not', () => {
    const keys = Array.from({ length: 50 }, newTotpSecret);
    for (const key of keys) expect(key).toMatch(/^[A-Z2-7]{32}$/);
    expect(new Set(keys).size).toBe(50);
    // In 50 keys (1,000 bytes) about half the bytes are above 0x7f — none would be if the key
    // were drawn over 7-bit bytes, as otplib 12's generateSecret draws it.
    const bytes = Buffer.from(keys.map((key) => authenticator.decode(key)).join(''), 'hex');
    expect(bytes.length).toBe(1000);
    expect(bytes.filter((byte) => byte > 0x7f).length).toBeGreaterThan(300);
  });

  it('writes the otpauth:// URI authenticator apps read', () => {
    expect(otpauthUri('Interlock', 'ada@example.com', 'JBSWY3DPEHPK3PXP')).toBe(
      'otpauth://totp/Interlock:ada%40example.com?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&algorithm=SHA1&issuer=Interlock',
    );
  });
});
