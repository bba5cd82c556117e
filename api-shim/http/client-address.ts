// Who an anonymous caller is, for quotas: the client address, with IPv4-mapped IPv6 read as IPv4 and IPv6
// grouped by /64 (one subscriber usually holds a whole /64, so per-address counting would be trivial to dodge).
import { isIPv4, isIPv6 } from "node:net";

/** The quota key of a client address: "1.2.3.4", "2001:db8:0:1::/64", or "unknown". */
export function addressKey(address: string | undefined): string {
  if (!address) return "unknown";
  const zoneless = address.replace(/%.*$/, "");
  if (isIPv4(zoneless)) return zoneless;
  if (!isIPv6(zoneless)) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(zoneless);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  const groups = expandIPv6(zoneless);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    // ::ffff:a.b.c.d written with hex groups (::ffff:102:304)
    const [hi = 0, lo = 0] = groups.slice(6);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (which may end in dotted IPv4). */
function expandIPv6(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : new Array(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((g) => Number.parseInt(g, 16));
}

/**
 * Fastify's trustProxy for `hops` trusted reverse proxies: the client is the address `hops` entries back
 * from the socket through X-Forwarded-For. A plain number is not used because Fastify 5.12 treats numeric
 * trustProxy as "trust nothing" (it cannot validate the peer); with 0 hops the socket address is the client.
 */
export function trustProxyHops(hops: number): false | ((address: string, hop: number) => boolean) {
  return hops > 0 ? (_address, hop) => hop < hops : false;
}
