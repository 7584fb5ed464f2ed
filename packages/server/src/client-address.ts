import { BlockList, isIP } from 'node:net';
import type { H3Event } from 'h3';
import type { RepoHost } from '@repohost/core';

/**
 * The client's address of a request, as Forgejo reads it behind a reverse proxy (`[security]
 * REVERSE_PROXY_TRUSTED_PROXIES` and `REVERSE_PROXY_LIMIT`): the socket's peer, unless that peer is a trusted proxy,
 * in which case the address the proxies forwarded:
 *
 * - `X-Forwarded-For`, read from the right (each proxy appends the address it saw), at most LIMIT entries: the first
 *   entry that is not a trusted proxy is the client; when every entry read is trusted, the leftmost one read. What a
 *   client wrote further left is never read, so it cannot choose its own address;
 * - else `X-Real-IP` (the last one, when several proxies set it);
 * - a header that does not parse (an entry that is no address) is ignored, as if absent: never an error.
 *
 * Unlike Forgejo, which prefers `X-Real-IP`, `X-Forwarded-For` comes first: a proxy that appends to it (all common
 * ones do) makes its rightmost entry trustworthy, while a proxy that does not set `X-Real-IP` passes the client's
 * own through. The peer's own address, a trusted proxy's, is the answer only for a request with neither header
 * (the proxy's own health checks). `LIMIT = 0` ignores the headers altogether, as Forgejo does.
 *
 * Reading is linear in the header's length and looks at no more than LIMIT entries of at most MAX_ENTRY characters.
 */

/** Longest entry read: an IPv6 address with a zone, brackets and a port fits in it. */
const MAX_ENTRY = 80;
/** Most entries ever read from the right, whatever LIMIT says. */
const MAX_LIMIT = 64;

/** Which addresses are trusted proxies, and how many forwarded entries to read. */
export interface ProxyTrust {
  /** Entries of `X-Forwarded-For` read at most; 0: forwarding headers are ignored. */
  readonly limit: number;
  /** Whether a (normalized) address is a trusted proxy. */
  trusts(address: string): boolean;
}

/** The parsed `[security]` lists, kept while the settings' values stay the same objects. */
const parsed = new WeakMap<object, { proxies: readonly string[]; limit: number; trust: ProxyTrust }>();

/** The proxy trust `settings` describe, parsed once (again only when the setting is replaced). */
export function proxyTrust(settings: RepoHost['settings']): ProxyTrust {
  const security = settings.security;
  const cached = parsed.get(security);
  if (cached && cached.proxies === security.REVERSE_PROXY_TRUSTED_PROXIES && cached.limit === security.REVERSE_PROXY_LIMIT) return cached.trust;
  const trust = buildTrust(security.REVERSE_PROXY_TRUSTED_PROXIES, security.REVERSE_PROXY_LIMIT);
  parsed.set(security, { proxies: security.REVERSE_PROXY_TRUSTED_PROXIES, limit: security.REVERSE_PROXY_LIMIT, trust });
  return trust;
}

function buildTrust(entries: readonly string[], limit: number): ProxyTrust {
  const list = new BlockList();
  let all = false;
  for (const raw of entries) {
    const entry = raw.trim();
    // Forgejo's documented wildcard: every peer is a trusted proxy.
    if (entry === '*') {
      all = true;
      continue;
    }
    const slash = entry.indexOf('/');
    const net = normalizeAddress(slash < 0 ? entry : entry.slice(0, slash));
    if (net === undefined) continue;
    const family = isIP(net) === 6 ? 'ipv6' : 'ipv4';
    if (slash < 0) {
      list.addAddress(net, family);
      continue;
    }
    const bits = Number(entry.slice(slash + 1));
    const max = family === 'ipv6' ? 128 : 32;
    // A network written as IPv4-mapped IPv6 (`::ffff:10.0.0.0/104`) holds IPv4 peers.
    const mapped = family === 'ipv4' && isIP(entry.slice(0, slash)) === 6 ? bits - 96 : bits;
    if (!Number.isInteger(mapped) || mapped < 0 || mapped > max) continue;
    list.addSubnet(net, mapped, family);
  }
  return {
    limit: Math.max(0, Math.min(MAX_LIMIT, Math.trunc(limit))),
    trusts: (address) => all || list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4'),
  };
}

/**
 * An address in one spelling: no zone, an IPv4-mapped IPv6 address as IPv4, lower case; undefined when `text` is
 * not an IP address.
 */
export function normalizeAddress(text: string): string | undefined {
  if (text.length === 0 || text.length > MAX_ENTRY) return undefined;
  const zone = text.indexOf('%');
  const bare = (zone < 0 ? text : text.slice(0, zone)).toLowerCase();
  const family = isIP(bare);
  if (family === 0) return undefined;
  if (family === 6 && bare.startsWith('::ffff:') && isIP(bare.slice(7)) === 4) return bare.slice(7);
  return bare;
}

/** True when every character of `text` is a decimal digit (and there is at least one, at most five). */
function isPort(text: string): boolean {
  if (text.length === 0 || text.length > 5) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/**
 * One entry of a forwarding header: `a.b.c.d`, `a.b.c.d:port`, an IPv6 address, `[v6]` or `[v6]:port`, with spaces
 * or tabs around; undefined for anything else (`unknown`, an obfuscated `_hidden` name, garbage).
 */
export function parseForwardedAddress(entry: string): string | undefined {
  let start = 0;
  let end = entry.length;
  while (start < end && (entry.charCodeAt(start) === 0x20 || entry.charCodeAt(start) === 0x09)) start++;
  while (end > start && (entry.charCodeAt(end - 1) === 0x20 || entry.charCodeAt(end - 1) === 0x09)) end--;
  if (end - start === 0 || end - start > MAX_ENTRY) return undefined;
  const text = entry.slice(start, end);
  if (text.charCodeAt(0) === 0x5b /* [ */) {
    const close = text.indexOf(']');
    if (close < 0) return undefined;
    const rest = text.slice(close + 1);
    if (rest !== '' && !(rest.charCodeAt(0) === 0x3a && isPort(rest.slice(1)))) return undefined;
    const inner = text.slice(1, close);
    return isIP(inner.split('%')[0]!) === 6 ? normalizeAddress(inner) : undefined;
  }
  const colon = text.indexOf(':');
  // One colon: IPv4 and a port. More: an IPv6 address without brackets (a port cannot be told from it then).
  if (colon >= 0 && colon === text.lastIndexOf(':')) {
    if (!isPort(text.slice(colon + 1))) return undefined;
    const host = text.slice(0, colon);
    return isIP(host) === 4 ? host : undefined;
  }
  return normalizeAddress(text);
}

/** The client behind `X-Forwarded-For` (see the module's comment); undefined when the header does not parse. */
function fromForwardedFor(header: string, trust: ProxyTrust): string | undefined {
  let end = header.length;
  let candidate: string | undefined;
  for (let hop = 0; hop < trust.limit; hop++) {
    const comma = end > 0 ? header.lastIndexOf(',', end - 1) : -1;
    // Not sliced when longer than any address: a long entry costs one scan, never a copy.
    if (end - (comma + 1) > MAX_ENTRY + 16) return undefined;
    const address = parseForwardedAddress(header.slice(comma + 1, end));
    if (address === undefined) return undefined;
    candidate = address;
    if (!trust.trusts(address)) return address;
    if (comma < 0) break;
    end = comma;
  }
  return candidate;
}

/**
 * The client's address from the socket's peer address and the request's headers (`header(name)`, lower-case
 * names, repeated headers joined by commas as Node joins them). undefined only when the peer is unknown (a request
 * made in-process).
 */
export function resolveClientAddress(trust: ProxyTrust, peer: string | undefined, header: (name: string) => string | null | undefined): string | undefined {
  if (peer === undefined) return undefined;
  const from = normalizeAddress(peer) ?? peer;
  if (trust.limit === 0 || !trust.trusts(from)) return from;
  const forwarded = header('x-forwarded-for');
  if (forwarded) {
    const client = fromForwardedFor(forwarded, trust);
    if (client !== undefined) return client;
  }
  const real = header('x-real-ip');
  if (real) {
    // Several values (one per proxy that set it): the last was written by the closest one.
    const comma = real.lastIndexOf(',');
    const client = parseForwardedAddress(real.slice(comma + 1));
    if (client !== undefined) return client;
  }
  return from;
}

/** The settings each app resolves client addresses with (`bindClientAddresses`), by the app. */
const settingsOfApp = new WeakMap<object, RepoHost['settings']>();
/** Each request's answer, worked out once. */
const answers = new WeakMap<H3Event, string | undefined>();

/** Makes `requestClientAddress` read the proxy settings of `host` for the requests of `app`. */
export function bindClientAddresses(app: object, host: RepoHost): void {
  settingsOfApp.set(app, host.settings);
}

/** The socket's peer address of a request (undefined in-process). */
export function peerAddress(event: H3Event): string | undefined {
  return (event.req as { ip?: string }).ip;
}

/**
 * The client's address of a request: what sign-in throttling, the access log and address checks use. Requests of
 * an app not bound by `bindClientAddresses` trust no proxy and get the peer's address.
 */
export function requestClientAddress(event: H3Event): string | undefined {
  if (answers.has(event)) return answers.get(event);
  const peer = peerAddress(event);
  const settings = settingsOfApp.get(event.app as object);
  const headers = event.req.headers;
  const address = settings ? resolveClientAddress(proxyTrust(settings), peer, (name) => headers.get(name)) : peer === undefined ? undefined : (normalizeAddress(peer) ?? peer);
  answers.set(event, address);
  return address;
}
