import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, totpCode } from './totp';

describe('TOTP (RFC 6238 / RFC 4226)', () => {
  it('encodes and decodes base32 as RFC 4648 §10 does (without padding)', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded)?.toString()).toBe(plain);
    }
    expect(base32Decode('mzxw 6ytb oi======')?.toString()).toBe('foobar');
    expect(base32Decode('MZXW1')).toBeUndefined();
  });

  it('makes RFC 4226 Appendix D HOTP values', () => {
    const key = Buffer.from('12345678901234567890');
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
    expect(expected.map((_, counter) => hotp(key, counter))).toEqual(expected);
  });

  it('makes RFC 6238 Appendix B TOTP values (8 digits, SHA-1/256/512)', () => {
    const keys = {
      sha1: Buffer.from('12345678901234567890'),
      sha256: Buffer.from('12345678901234567890123456789012'),
      sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
    };
    const table: [number, string, string, string][] = [
      [59, '94287082', '46119246', '90693936'],
      [1111111109, '07081804', '68084774', '25091201'],
      [1111111111, '14050471', '67062674', '99943326'],
      [1234567890, '89005924', '91819424', '93441116'],
      [2000000000, '69279037', '90698825', '38618901'],
      [20000000000, '65353130', '77737706', '47863826'],
    ];
    for (const [seconds, sha1, sha256, sha512] of table) {
      const step = Math.floor(seconds / 30);
      expect([
        hotp(keys.sha1, step, 8, 'sha1'),
        hotp(keys.sha256, step, 8, 'sha256'),
        hotp(keys.sha512, step, 8, 'sha512'),
      ]).toEqual([sha1, sha256, sha512]);
    }
  });

  it('takes a code one step either side of now, not two, and says which step it was', () => {
    const key = Buffer.from('12345678901234567890');
    const now = 1111111111_000;
    expect(matchTotp(key, totpCode(key, now), now)).toBe(Math.floor(1111111111 / 30));
    expect(matchTotp(key, totpCode(key, now - 30_000), now)).toBe(Math.floor(1111111111 / 30) - 1);
    expect(matchTotp(key, totpCode(key, now + 30_000), now)).toBe(Math.floor(1111111111 / 30) + 1);
    expect(matchTotp(key, totpCode(key, now - 60_000), now)).toBeUndefined();
    expect(matchTotp(key, totpCode(key, now + 60_000), now)).toBeUndefined();
    expect(matchTotp(key, '12345', now)).toBeUndefined();
    expect(matchTotp(key, 'abcdef', now)).toBeUndefined();
  });

  it('writes the otpauth:// URI authenticator apps read', () => {
    expect(otpauthUri('Interlock', 'ada@example.com', 'JBSWY3DPEHPK3PXP')).toBe(
      'otpauth://totp/Interlock:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Interlock&algorithm=SHA1&digits=6&period=30',
    );
  });
});
