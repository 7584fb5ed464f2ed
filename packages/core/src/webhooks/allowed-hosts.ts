/**
 * `[webhook] ALLOWED_HOST_LIST` with Forgejo's hostmatcher semantics: `external` (global unicast, not private),
 * `loopback`, `private` (RFC 1918/4193, link-local), `*`, CIDRs, and host name globs. Addresses are checked after
 * DNS resolution, and the request then connects to the checked address, so a name cannot resolve elsewhere later.
 */
import { BlockList, isIP } from 'node:net';
import { compileGlob } from './hook-events.js';

export interface HostMatcher {
  /** Does the host name itself match a glob entry (then any address is allowed)? */
  allowsName(host: string): boolean;
  allowsAddress(address: string): boolean;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');
PRIVATE.addSubnet('ff02::', 16, 'ipv6');
PRIVATE.addSubnet('224.0.0.0', 24, 'ipv4');

/** Not a global unicast address at all: unspecified, loopback, multicast, broadcast, link-local. */
const NOT_GLOBAL = new BlockList();
NOT_GLOBAL.addSubnet('0.0.0.0', 8, 'ipv4');
NOT_GLOBAL.addSubnet('127.0.0.0', 8, 'ipv4');
NOT_GLOBAL.addSubnet('224.0.0.0', 3, 'ipv4');
NOT_GLOBAL.addSubnet('169.254.0.0', 16, 'ipv4');
NOT_GLOBAL.addAddress('::', 'ipv6');
NOT_GLOBAL.addAddress('::1', 'ipv6');
NOT_GLOBAL.addSubnet('ff00::', 8, 'ipv6');
NOT_GLOBAL.addSubnet('fe80::', 10, 'ipv6');

function family(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

/** `::ffff:a.b.c.d` is checked as the IPv4 address it maps. */
function normalize(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

export function hostMatcher(list: string): HostMatcher {
  const entries = list
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
  let any = false;
  let external = false;
  let loopback = false;
  let privateNets = false;
  const cidrs = new BlockList();
  const globs: RegExp[] = [];
  for (const entry of entries) {
    if (entry === '*') any = true;
    else if (entry === 'external') external = true;
    else if (entry === 'loopback') loopback = true;
    else if (entry === 'private') privateNets = true;
    else if (/^[0-9a-f:.]+\/\d{1,3}$/.test(entry) && isIP(entry.split('/')[0]!)) {
      const [net, bits] = entry.split('/') as [string, string];
      try {
        cidrs.addSubnet(net, Number(bits), family(net));
      } catch {
        // An impossible prefix length matches nothing, as Forgejo ignores a CIDR it cannot parse.
      }
    } else {
      const glob = compileGlob(entry);
      if (glob) globs.push(glob);
    }
  }
  return {
    allowsName: (host) => any || globs.some((g) => g.test(host.toLowerCase())),
    allowsAddress: (raw) => {
      if (any) return true;
      const address = normalize(raw);
      const fam = family(address);
      if (globs.some((g) => g.test(address))) return true;
      if (cidrs.check(address, fam)) return true;
      if (loopback && LOOPBACK.check(address, fam)) return true;
      const isPrivate = PRIVATE.check(address, fam);
      if (privateNets && isPrivate) return true;
      if (external && !isPrivate && !NOT_GLOBAL.check(address, fam)) return true;
      return false;
    },
  };
}
