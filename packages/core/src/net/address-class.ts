/**
 * What kind of network an IP address reaches, for every address RepoHost contacts on a user's behalf (migrations,
 * mirrors, webhooks; `[migrations] ALLOW_LOCALNETWORKS` and `[webhook] ALLOWED_HOST_LIST` both ask here).
 * Forgejo's classes (Go's `IsLoopback`, `IsPrivate`, `IsGlobalUnicast`) plus what they miss: IPv6 forms that carry
 * an IPv4 address to a translator or tunnel (IPv4-compatible, IPv4-translated, NAT64, 6to4, Teredo) are classed
 * as the IPv4 address they reach, and carrier-grade NAT (100.64.0.0/10) and site-local (fec0::/10) count as private.
 * Parsing is by hand (no pattern), linear in the input.
 */
import { isIP } from 'node:net';

/**
 * `loopback`: this machine. `private`: a local network (RFC 1918, unique-local, link-local, carrier-grade NAT).
 * `other`: nothing to connect to on the Internet (unspecified, multicast beyond the link, broadcast, reserved).
 * `external`: a global unicast address.
 */
export type AddressClass = 'loopback' | 'private' | 'other' | 'external';

/** [first address as a number, prefix length] of IPv4 networks. */
type V4Net = readonly [number, number];

const v4 = (a: number, b: number, c: number, d: number): number => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

const V4_LOOPBACK: readonly V4Net[] = [[v4(127, 0, 0, 0), 8]];
const V4_PRIVATE: readonly V4Net[] = [
  [v4(10, 0, 0, 0), 8],
  [v4(172, 16, 0, 0), 12],
  [v4(192, 168, 0, 0), 16],
  // Link-local (cloud metadata services live here) and link-local multicast.
  [v4(169, 254, 0, 0), 16],
  [v4(224, 0, 0, 0), 24],
  // Carrier-grade NAT (RFC 6598): inside a provider's network, never on the Internet.
  [v4(100, 64, 0, 0), 10],
];
/** Not global unicast: "this network", multicast, reserved and broadcast (224.0.0.0/3 covers the last three). */
const V4_NOT_GLOBAL: readonly V4Net[] = [
  [v4(0, 0, 0, 0), 8],
  [v4(224, 0, 0, 0), 3],
];

function inV4(address: number, nets: readonly V4Net[]): boolean {
  return nets.some(([net, bits]) => bits === 0 || address >>> (32 - bits) === net >>> (32 - bits));
}

/** An IPv4 address in dotted-quad form as a number, or undefined. */
function parseV4(text: string): number | undefined {
  if (isIP(text) !== 4) return undefined;
  const [a, b, c, d] = text.split('.').map(Number) as [number, number, number, number];
  return v4(a, b, c, d);
}

function formatV4(address: number): string {
  return [address >>> 24, (address >>> 16) & 255, (address >>> 8) & 255, address & 255].join('.');
}

/** The eight 16-bit words of an IPv6 address (a zone `%…` ignored), or undefined. */
function parseV6(raw: string): number[] | undefined {
  const zone = raw.indexOf('%');
  let text = zone < 0 ? raw : raw.slice(0, zone);
  if (isIP(text) !== 6) return undefined;
  // A trailing dotted quad is the last two words.
  let quad: number | undefined;
  const lastColon = text.lastIndexOf(':');
  if (text.indexOf('.', lastColon) >= 0) {
    quad = parseV4(text.slice(lastColon + 1));
    if (quad === undefined) return undefined;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const gap = text.indexOf('::');
  const words = (part: string): number[] => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  let all: number[];
  if (gap < 0) all = words(text);
  else {
    const left = words(text.slice(0, gap));
    const right = words(text.slice(gap + 2));
    all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  }
  if (all.length !== 8 || all.some((w) => !(w >= 0 && w <= 0xffff))) return undefined;
  if (quad !== undefined) {
    all[6] = quad >>> 16;
    all[7] = quad & 0xffff;
  }
  return all;
}

const joinWords = (high: number, low: number): number => ((high << 16) | low) >>> 0;

/**
 * The IPv4 address an IPv6 address delivers to, when it has one: IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated
 * `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d` (not `::` or `::1`), NAT64 `64:ff9b::a.b.c.d`, 6to4
 * `2002:AABB:CCDD::`, and Teredo `2001:0::` (whose client address is stored inverted).
 */
function embeddedV4(w: readonly number[]): number | undefined {
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  const last = joinWords(w[6]!, w[7]!);
  if (zeros(0, 5) && w[5] === 0xffff) return last;
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return last;
  if (zeros(0, 6) && last > 1) return last;
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return last;
  if (w[0] === 0x2002) return joinWords(w[1]!, w[2]!);
  if (w[0] === 0x2001 && w[1] === 0) return ~last >>> 0;
  return undefined;
}

/** The IPv4 address (dotted quad) an address reaches: itself for IPv4, the embedded one for IPv6 that has one. */
export function embeddedIPv4(address: string): string | undefined {
  if (isIP(address) === 4) return address;
  const words = parseV6(address);
  const inner = words && embeddedV4(words);
  return inner === undefined ? undefined : formatV4(inner);
}

function classifyV4(address: number): AddressClass {
  if (inV4(address, V4_LOOPBACK)) return 'loopback';
  if (inV4(address, V4_PRIVATE)) return 'private';
  if (inV4(address, V4_NOT_GLOBAL)) return 'other';
  return 'external';
}

/** The class of an IP address; anything that is not an IP address is `other`. */
export function classifyAddress(address: string): AddressClass {
  const four = parseV4(address);
  if (four !== undefined) return classifyV4(four);
  const w = parseV6(address);
  if (!w) return 'other';
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zeros(0, 7) && w[7] === 1) return 'loopback';
  if (zeros(0, 8)) return 'other';
  const inner = embeddedV4(w);
  if (inner !== undefined) return classifyV4(inner);
  // NAT64 for local use (RFC 8215): a translator on this network, whatever IPv4 address it carries.
  if (w[0] === 0x64 && w[1] === 0xff9b && w[2] === 1) return 'private';
  // Unique-local fc00::/7, link-local fe80::/10, site-local fec0::/10 (deprecated, still routed inside some
  // networks), link-local multicast ff02::/16.
  if ((w[0]! & 0xfe00) === 0xfc00 || (w[0]! & 0xffc0) === 0xfe80 || (w[0]! & 0xffc0) === 0xfec0 || w[0] === 0xff02) return 'private';
  // Other multicast ff00::/8.
  if ((w[0]! & 0xff00) === 0xff00) return 'other';
  return 'external';
}
