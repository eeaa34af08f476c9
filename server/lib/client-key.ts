import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key rate limits count a client by. IPv4: the address. IPv6: its /64, because one customer (a
 * home, a phone, a server) is usually given a whole /64 and can pick any of its 2^64 addresses (see
 * docs/decisions/008-security-review-fixes.md). An IPv4 address mapped into IPv6
 * (`::ffff:203.0.113.5`) is that IPv4 address.
 */
export function clientKey(ip: string): string {
  const bare = ip.split('%')[0]!; // a zone id (fe80::1%eth0) names the interface, not the client
  if (!isIPv6(bare)) return ip;
  const groups = expandIPv6(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` and a dotted IPv4 tail expanded). */
function expandIPv6(ip: string): number[] {
  let text = ip.toLowerCase();
  const tail = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail && isIPv4(tail[1]!)) {
    const [a, b, c, d] = tail[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -tail[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const fill = rest === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16));
}
