import { isIP } from "node:net";

/**
 * One key per client: an IPv4 address as it is, an IPv6 address by its /64 (a single subscriber
 * is routinely given a whole /64, so counting single addresses would let one person rotate through
 * billions). Ports and brackets some proxies add are dropped; an IPv4-mapped IPv6 address counts as its IPv4.
 */
export function addressKey(value: string): string | null {
  let address = value.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  // A zone index (fe80::1%eth0) names our interface, not the client. (Cut at "%", not by /%.*$/,
  // which backtracks quadratically on a run of "%" before a line break.)
  const zone = address.indexOf("%");
  if (zone !== -1) address = address.slice(0, zone);
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return null;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address ("::" expanded). */
function ipv6Groups(address: string): number[] {
  const [head = "", tail] = address.split("::");
  const part = (text: string) => (text ? text.split(":") : []);
  const headGroups = part(head);
  const tailGroups = part(tail ?? "");
  // An embedded IPv4 tail (::1.2.3.4) is two groups.
  const last = tailGroups.length ? tailGroups : headGroups;
  const dotted = last[last.length - 1];
  if (dotted?.includes(".")) {
    const [a, b, c, d] = dotted.split(".").map(Number) as [number, number, number, number];
    last.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill("0");
  return [...headGroups, ...zeros, ...tailGroups].map((group) => parseInt(group, 16));
}
