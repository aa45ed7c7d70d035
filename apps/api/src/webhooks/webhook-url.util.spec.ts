import {
  checkUrlShape,
  isForbiddenAddress,
  resolveTarget,
  URL_MESSAGES,
  URL_PATTERN,
} from './webhook-url.util';

describe('isForbiddenAddress', () => {
  it.each<[string, 'refused' | 'allowed']>([
    ['127.0.0.1', 'refused'],
    ['127.255.0.9', 'refused'],
    ['10.0.0.1', 'refused'],
    ['10.255.255.255', 'refused'],
    ['172.16.0.1', 'refused'],
    ['172.31.255.254', 'refused'],
    ['192.168.1.1', 'refused'],
    ['169.254.169.254', 'refused'],
    ['169.254.0.1', 'refused'],
    ['100.64.0.1', 'refused'],
    ['0.0.0.0', 'refused'],
    ['224.0.0.1', 'refused'],
    ['255.255.255.255', 'refused'],
    ['198.18.0.1', 'refused'],
    ['::1', 'refused'],
    ['::', 'refused'],
    ['fe80::1', 'refused'],
    ['fc00::1', 'refused'],
    ['fd00:ec2::254', 'refused'],
    ['ff02::1', 'refused'],
    ['::ffff:127.0.0.1', 'refused'],
    ['::ffff:10.1.2.3', 'refused'],
    ['::ffff:169.254.169.254', 'refused'],
    ['64:ff9b::a00:1', 'refused'],
    ['64:ff9b::7f00:1', 'refused'],
    ['2002:a00:1::1', 'refused'],
    ['2001:db8::1', 'refused'],
    // Issue 34, item 11: IPv4-compatible (::/96), IPv4-translated (::ffff:0:0/96) and local-use NAT64 (64:ff9b:1::/48).
    ['::127.0.0.1', 'refused'],
    ['::7f00:1', 'refused'],
    ['::10.0.0.1', 'refused'],
    ['::169.254.169.254', 'refused'],
    ['::8.8.8.8', 'refused'],
    ['::ffff:0:127.0.0.1', 'refused'],
    ['::ffff:0:7f00:1', 'refused'],
    ['::ffff:0:a9fe:a9fe', 'refused'],
    ['::ffff:0:8.8.8.8', 'refused'],
    ['64:ff9b:1::a00:1', 'refused'],
    ['64:ff9b:1::808:808', 'refused'],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'refused'],
    // The mapped form written in hex, not dotted.
    ['::ffff:7f00:1', 'refused'],
    ['::ffff:a9fe:a9fe', 'refused'],
    ['0:0:0:0:0:ffff:a00:1', 'refused'],
    ['not-an-address', 'refused'],
    // Public addresses, also IPv4-mapped and through NAT64's well-known prefix (64:ff9b::/96).
    ['93.184.216.34', 'allowed'],
    ['8.8.8.8', 'allowed'],
    ['172.32.0.1', 'allowed'],
    ['192.169.0.1', 'allowed'],
    ['2606:4700::6810:85e5', 'allowed'],
    ['::ffff:93.184.216.34', 'allowed'],
    ['::ffff:5db8:d822', 'allowed'],
    ['64:ff9b::808:808', 'allowed'],
    ['64:ff9b:2::1', 'allowed'],
  ])('%s is %s', (address, verdict) => {
    expect(isForbiddenAddress(address)).toBe(verdict === 'refused');
  });
});

describe('checkUrlShape', () => {
  it('accepts https anywhere, and http only to loopback outside production', () => {
    expect(checkUrlShape('https://hooks.example.com/x?y=1', true)).toBeInstanceOf(URL);
    expect(checkUrlShape('https://hooks.example.com/x', false)).toBeInstanceOf(URL);
    for (const url of [
      'http://localhost:3000/x',
      'http://127.0.0.1/x',
      'http://[::1]:80/',
      'http://api.localhost/x',
      'http://0x7f.1/',
    ]) {
      expect(checkUrlShape(url, false)).toBeInstanceOf(URL);
      expect(checkUrlShape(url, true)).toBe(URL_MESSAGES.httpsInProduction);
    }
    expect(checkUrlShape('http://example.com/', false)).toBe(URL_MESSAGES.httpOnlyLoopback);
    expect(checkUrlShape('http://10.0.0.1/', false)).toBe(URL_MESSAGES.httpOnlyLoopback);
  });

  it('refuses other schemes, relative URLs and credentials', () => {
    expect(checkUrlShape('ftp://example.com/', false)).toBe(URL_MESSAGES.invalid);
    expect(checkUrlShape('/hooks', false)).toBe(URL_MESSAGES.invalid);
    expect(checkUrlShape('javascript:alert(1)', false)).toBe(URL_MESSAGES.invalid);
    expect(checkUrlShape('https://a:b@example.com/', false)).toBe(URL_MESSAGES.credentials);
    expect(checkUrlShape('https://a@example.com/', false)).toBe(URL_MESSAGES.credentials);
  });
});

describe('resolveTarget', () => {
  const resolver = (answers: Record<string, string[]>) => async (host: string) => {
    const found = answers[host];
    if (found === undefined) throw new Error('ENOTFOUND');
    return found.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));
  };

  it('in production refuses a host with any private address, and IP literals without resolving', async () => {
    const resolve = resolver({
      'public.test': ['93.184.216.34'],
      'mixed.test': ['93.184.216.34', '10.0.0.1'],
      'meta.test': ['169.254.169.254'],
    });
    expect(await resolveTarget(new URL('https://public.test/'), true, resolve)).toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
    expect(await resolveTarget(new URL('https://mixed.test/'), true, resolve)).toBe(
      URL_MESSAGES.forbidden,
    );
    expect(await resolveTarget(new URL('https://meta.test/'), true, resolve)).toBe(
      URL_MESSAGES.forbidden,
    );
    expect(await resolveTarget(new URL('https://missing.test/'), true, resolve)).toBe(
      URL_MESSAGES.unresolvable,
    );
    const never = async () => {
      throw new Error('an IP literal is not resolved');
    };
    expect(await resolveTarget(new URL('https://[::1]/'), true, never)).toBe(
      URL_MESSAGES.forbidden,
    );
    expect(await resolveTarget(new URL('https://127.0.0.1:8443/'), true, never)).toBe(
      URL_MESSAGES.forbidden,
    );
    expect(await resolveTarget(new URL('https://2130706433/'), true, never)).toBe(
      URL_MESSAGES.forbidden,
    );
    expect(await resolveTarget(new URL('https://[::1]/'), false, never)).toEqual([
      { address: '::1', family: 6 },
    ]);
  });

  it('outside production returns every address unchecked', async () => {
    const resolve = resolver({ 'intranet.test': ['10.0.0.1', 'fd00::1'] });
    expect(await resolveTarget(new URL('https://intranet.test/'), false, resolve)).toEqual([
      { address: '10.0.0.1', family: 4 },
      { address: 'fd00::1', family: 6 },
    ]);
  });
});

describe('URL_PATTERN (the contract)', () => {
  const pattern = new RegExp(URL_PATTERN);
  it('admits only URLs the shape check accepts outside production', () => {
    for (const url of [
      'https://hooks.example.com/x?y=1',
      'https://a',
      'https://a-b.c:8443',
      'http://127.0.0.1:9/x',
      'http://localhost',
      'http://[::1]:80/',
    ]) {
      expect({ url, matches: pattern.test(url) }).toEqual({ url, matches: true });
      expect(checkUrlShape(url, false)).toBeInstanceOf(URL);
    }
  });
  it('refuses numbers as hosts, credentials, other schemes and NUL', () => {
    for (const url of [
      'https://0000',
      'https://1.2.3.4.5',
      'https://a:b@example.com/',
      'http://example.com/',
      'ftp://a',
      'https://a/\u0000',
      '00000',
    ]) {
      expect({ url, matches: pattern.test(url) }).toEqual({ url, matches: false });
    }
  });
});
