import { BlockList, isIP } from 'node:net';

export const MAX_URL_LENGTH = 2048;

/**
 * The contract's statement of a webhook URL's shape (a JSON Schema `pattern`, read alike by
 * JavaScript and Python): https to a host name, or http to loopback, with an optional port and
 * path; no credentials. Host names start each label with a letter, so none reads as an IPv4
 * number. What a pattern cannot say — production refusing http and private addresses, names
 * that do not resolve — the service checks when the webhook is saved and on every delivery.
 */
export const URL_PATTERN =
  '^(https://[A-Za-z][A-Za-z0-9-]*([.][A-Za-z][A-Za-z0-9-]*)*|http://(localhost|127[.]0[.]0[.]1|\\[::1\\]))(:[0-9]{1,4})?(/[^\\u0000]*)?$';

/** One address a host name resolved to (the shape of dns.lookup's `all` answer). */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (dns.promises.lookup with `all`, or a stand-in). */
export type AddressResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * Addresses a webhook may not reach in production (server-side request forgery): this network's
 * own, private, loopback, link-local (and so the cloud metadata services at 169.254.169.254 and
 * fd00:ec2::254), shared, documentation, benchmarking, multicast and reserved ranges.
 * IPv4-mapped IPv6 addresses (::ffff:a.b.c.d, dotted or in hex) are checked against the IPv4
 * ranges by BlockList; the well-known NAT64 prefix (64:ff9b::/96) and 6to4 by `embeddedIpv4`.
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 one carries by translation (NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIpv4(address: string): string | undefined {
  const groups = expandIpv6(address);
  if (groups === undefined) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0))
    return v4(groups[6], groups[7]);
  if (groups[0] === 0x2002) return v4(groups[1], groups[2]);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included). */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) =>
    part === undefined || part === '' ? [] : part.split(':').map((g) => parseInt(g, 16));
  const h = parse(head);
  const t = parse(tail);
  const groups =
    tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : undefined;
}

/**
 * IPv6 ranges that carry an IPv4 address and are never reachable on the Internet, so refused
 * whole: IPv4-compatible `::a.b.c.d` (::/96, deprecated by RFC 4291), IPv4-translated
 * `::ffff:0:a.b.c.d` (::ffff:0:0/96, RFC 2765) and local-use NAT64 (64:ff9b:1::/48, RFC 8215).
 * Checked on the groups rather than with BlockList, which compares IPv4 rules and these
 * prefixes in one space and would refuse every IPv4 address (issue 34, item 11).
 */
function isUnroutableIpv4Carrier(groups: readonly number[]): boolean {
  if (groups.slice(0, 6).every((g) => g === 0)) return true;
  if (groups.slice(0, 4).every((g) => g === 0) && groups[4] === 0xffff && groups[5] === 0)
    return true;
  return groups[0] === 0x64 && groups[1] === 0xff9b && groups[2] === 1;
}

/** True for an address a production webhook must not reach. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return FORBIDDEN.check(address, 'ipv4');
  if (family !== 6) return true;
  if (FORBIDDEN.check(address, 'ipv6')) return true;
  const groups = expandIpv6(address);
  if (groups === undefined || isUnroutableIpv4Carrier(groups)) return true;
  const inner = embeddedIpv4(address);
  return inner !== undefined && FORBIDDEN.check(inner, 'ipv4');
}

/** The host of a URL as a resolver or `isIP` wants it: IPv6 literals without their brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const family = isIP(host);
  if (family === 4) return host.startsWith('127.');
  return family === 6 && (expandIpv6(host)?.every((g, i) => g === (i === 7 ? 1 : 0)) ?? false);
}

export const URL_MESSAGES = {
  invalid: 'url must be an absolute http or https URL.',
  credentials: 'url must not contain a username or password.',
  httpsInProduction: 'url must use https.',
  httpOnlyLoopback:
    'url must use https (http is allowed only for loopback addresses, outside production).',
  forbidden: 'url must not reach a private, loopback, link-local or metadata address.',
  unresolvable: 'url: its host name could not be resolved.',
} as const;

/**
 * The shape rules of a webhook URL (SPEC §8a): absolute http(s) without credentials; https only in
 * production; outside production, http only to loopback. Returns the parsed URL, or the 400 text.
 */
export function checkUrlShape(raw: string, production: boolean): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return URL_MESSAGES.invalid;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return URL_MESSAGES.invalid;
  if (url.username !== '' || url.password !== '') return URL_MESSAGES.credentials;
  if (url.protocol === 'http:') {
    if (production) return URL_MESSAGES.httpsInProduction;
    if (!isLoopbackHost(hostOf(url))) return URL_MESSAGES.httpOnlyLoopback;
  }
  return url;
}

/**
 * Where a delivery may connect: every address the host resolves to, each checked in production.
 * The sender connects only to these (no second lookup), so a host cannot resolve to a public
 * address for the check and to a private one for the connection (DNS rebinding). Returns the
 * addresses, or the refusal's text.
 */
export async function resolveTarget(
  url: URL,
  production: boolean,
  resolve: AddressResolver,
): Promise<ResolvedAddress[] | string> {
  const host = hostOf(url);
  const family = isIP(host);
  let addresses: ResolvedAddress[];
  if (family !== 0) {
    addresses = [{ address: host, family: family as 4 | 6 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      return URL_MESSAGES.unresolvable;
    }
    if (addresses.length === 0) return URL_MESSAGES.unresolvable;
  }
  if (production && addresses.some((a) => isForbiddenAddress(a.address)))
    return URL_MESSAGES.forbidden;
  return addresses;
}

/**
 * An endpoint's URL as it is stored (normalised) — a webhook's, the external classifier's — or
 * the 400's text: the shape rules always; in production also the addresses its host resolves to.
 */
export async function checkEndpointUrl(
  raw: string,
  production: boolean,
  resolve: AddressResolver,
): Promise<{ url: string } | { refusal: string }> {
  const url = checkUrlShape(raw.trim(), production);
  if (typeof url === 'string') return { refusal: url };
  if (production) {
    const target = await resolveTarget(url, true, resolve);
    if (typeof target === 'string') return { refusal: target };
  }
  return { url: url.toString() };
}

/**
 * Before each attempt (webhooks, resumeUrls): the rules of creation again (a URL stored outside
 * production, say), then the addresses, the resolution bounded by the attempt's time (a hanging
 * resolver must not outlive a claim's lease). The URL and where to connect, or why not to.
 */
export async function checkForAttempt(
  raw: string,
  production: boolean,
  resolve: AddressResolver,
  timeoutMs: number,
): Promise<{ url: URL; target: ResolvedAddress[] } | string> {
  const url = checkUrlShape(raw, production);
  if (typeof url === 'string') return url;
  let timer: NodeJS.Timeout | undefined;
  const target = await Promise.race([
    resolveTarget(url, production, resolve),
    new Promise<string>(
      (done) =>
        (timer = setTimeout(() => done('its host name could not be resolved in time.'), timeoutMs)),
    ),
  ]).finally(() => clearTimeout(timer));
  return typeof target === 'string' ? target : { url, target };
}
