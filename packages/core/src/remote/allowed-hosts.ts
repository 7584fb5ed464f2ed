/**
 * `[webhook] ALLOWED_HOST_LIST` with Forgejo's hostmatcher semantics: `external` (global unicast, not private),
 * `loopback`, `private` (RFC 1918/4193, link-local, carrier-grade NAT), `*`, CIDRs, and host name globs. Addresses are
 * checked after DNS resolution, and the request then connects to the checked address, so a name cannot resolve
 * elsewhere later. The classes come from `net/address-class.ts`, shared with the migration checks; an IPv6 address
 * that carries an IPv4 one (NAT64, 6to4, IPv4-mapped, …) is judged as that IPv4 address.
 */
import { BlockList, isIP } from 'node:net';
import { classifyAddress, embeddedIPv4 } from '../net/index.js';
import { compileGlob, type Glob } from '../glob.js';

export interface HostMatcher {
  /** Does the host name itself match a glob entry (then any address is allowed)? */
  allowsName(host: string): boolean;
  allowsAddress(address: string): boolean;
}

function family(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
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
  const globs: Glob[] = [];
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
    allowsName: (host) => any || globs.some((g) => g.match(host.toLowerCase())),
    allowsAddress: (raw) => {
      if (any) return true;
      // Globs and CIDRs see the address as given and the IPv4 address it reaches.
      const inner = embeddedIPv4(raw);
      const forms = inner && inner !== raw ? [raw, inner] : [raw];
      if (forms.some((a) => globs.some((g) => g.match(a)) || cidrs.check(a, family(a)))) return true;
      const kind = classifyAddress(raw);
      return (loopback && kind === 'loopback') || (privateNets && kind === 'private') || (external && kind === 'external');
    },
  };
}
