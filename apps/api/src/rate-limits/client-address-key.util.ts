import { isIPv4, isIPv6 } from 'node:net';

/**
 * What the throttles of SPEC §8b count a client address as: an IPv4 address as itself (also when
 * written IPv4-mapped, `::ffff:a.b.c.d`), an IPv6 address as its /64 — one subscriber's network,
 * which hands out as many addresses as its owner likes, so counting single IPv6 addresses would
 * count nothing. Anything else is kept as given.
 */
export function clientAddressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, each as 1–4 lower-case hex digits without leading zeros. */
function expandIPv6(address: string): string[] {
  const withoutZone = address.split('%')[0].toLowerCase();
  const [head, tail] = withoutZone.split('::');
  const groupsOf = (part: string | undefined): string[] => {
    if (part === undefined || part === '') return [];
    return part.split(':').flatMap((group) => {
      if (!group.includes('.')) return [group];
      // An embedded IPv4 tail (::ffff:… handled above; e.g. 64:ff9b::1.2.3.4) is two groups.
      const [a, b, c, d] = group.split('.').map(Number);
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  };
  const left = groupsOf(head);
  const right = groupsOf(tail);
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16).toString(16));
}
