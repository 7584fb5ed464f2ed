/**
 * The client's address behind a reverse proxy (`[security] REVERSE_PROXY_TRUSTED_PROXIES`, `REVERSE_PROXY_LIMIT`):
 * what the sign-in throttle counts per address, over the API, git over HTTP and the web sign-in form. The test
 * client connects from 127.0.0.1, a trusted proxy by default, and plays the proxy by sending the headers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SettingsOverrides } from '@repohost/core';
import { basic, createUser, startTestServer, type TestServer } from '@repohost/test-support';
import { loadSettings } from '@repohost/core';
import { parseForwardedAddress, proxyTrust, resolveClientAddress } from '../src/client-address';
import { uniq } from './helpers';

/** GET /api/v1/user with basic auth and the given headers: the status. */
async function signIn(s: TestServer, login: string, password: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await s.fetch('/api/v1/user', { headers: { ...headers, Authorization: basic(login, password) } });
  await res.arrayBuffer();
  return res.status;
}

/** A throttle that locks a client address after 3 failures, and no account. */
const THROTTLE: SettingsOverrides['security'] = {
  LOGIN_MAX_FAILURES_PER_ADDRESS: 3,
  LOGIN_MAX_FAILURES_PER_ACCOUNT: 1000,
  LOGIN_MAX_FAILURES_PER_ACCOUNT_FROM_UNKNOWN_ADDRESSES: 1000,
  LOGIN_FAILURE_WINDOW: 300,
};

describe('behind a trusted proxy (the default: loopback)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ security: THROTTLE });
  });
  afterAll(async () => s?.cleanup());

  test('two forwarded clients are throttled separately; the proxy itself is a third', async () => {
    const a = { 'X-Forwarded-For': '203.0.113.10' };
    const b = { 'X-Forwarded-For': '198.51.100.20' };
    for (let i = 0; i < 3; i++) expect(await signIn(s, uniq('ghost'), 'wrong', a)).toBe(401);
    // A's address is locked, even for a name it never tried…
    expect(await signIn(s, uniq('ghost'), 'wrong', a)).toBe(429);
    // …B's is not, nor is the proxy's own address (a request without forwarding headers).
    expect(await signIn(s, uniq('ghost'), 'wrong', b)).toBe(401);
    expect(await signIn(s, uniq('ghost'), 'wrong')).toBe(401);
    // The right password from B still works; from A it is refused.
    const user = await createUser(s.host, uniq('carol'));
    expect(await signIn(s, user.name, 'correct-horse-battery', b)).toBe(200);
    expect(await signIn(s, user.name, 'correct-horse-battery', a)).toBe(429);
  });

  test('what a client writes left of the last hop is not read: rotating it does not escape the limit', async () => {
    for (let i = 0; i < 3; i++) expect(await signIn(s, uniq('ghost'), 'wrong', { 'X-Forwarded-For': `10.9.9.${i}, 192.0.2.77` })).toBe(401);
    expect(await signIn(s, uniq('ghost'), 'wrong', { 'X-Forwarded-For': '10.9.9.200, 192.0.2.77' })).toBe(429);
    expect(await signIn(s, uniq('ghost'), 'wrong', { 'X-Forwarded-For': '192.0.2.77' })).toBe(429);
  });

  test('X-Real-IP counts when there is no X-Forwarded-For; a malformed header is ignored, never an error', async () => {
    for (let i = 0; i < 3; i++) expect(await signIn(s, uniq('ghost'), 'wrong', { 'X-Real-IP': '192.0.2.150' })).toBe(401);
    expect(await signIn(s, uniq('ghost'), 'wrong', { 'X-Real-IP': '192.0.2.150' })).toBe(429);
    // Garbage forwarding headers: the request is served, counted as the proxy's own address.
    for (const header of ['unknown', 'not an address, at all', 'a'.repeat(5000), '300.1.1.1', ',,,', '[::1', '1.2.3.4:99999']) {
      const res = await s.fetch('/api/v1/version', { headers: { 'X-Forwarded-For': header, 'X-Real-IP': header } });
      expect(res.status, header.slice(0, 40)).toBe(200);
      await res.arrayBuffer();
    }
  });

  test('git over HTTP counts the forwarded client too', async () => {
    const owner = await createUser(s.host, uniq('own'));
    const client = { 'X-Forwarded-For': '203.0.113.99' };
    const git = (password: string, headers: Record<string, string>) =>
      s.fetch(`/${owner.name}/nothing.git/info/refs?service=git-upload-pack`, { headers: { ...headers, Authorization: basic(owner.name, password) } });
    for (let i = 0; i < 3; i++) {
      const res = await git(`wrong-${i}`, client);
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    }
    const locked = await git('wrong', client);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await locked.arrayBuffer();
    // The API answers that address the same: one counter.
    expect(await signIn(s, owner.name, 'correct-horse-battery', client)).toBe(429);
    expect(await signIn(s, owner.name, 'correct-horse-battery', { 'X-Forwarded-For': '203.0.113.100' })).toBe(200);
  });

  test('the web sign-in form counts the forwarded client', async () => {
    const user = await createUser(s.host, uniq('web'));
    // The form's CSRF token is keyed by the session cookie the sign-in page sets.
    const page = await s.fetch('/user/settings/security/two_factor');
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    const post = (password: string, forwarded: string) =>
      s.fetch('/user/login', {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': forwarded },
        body: new URLSearchParams({ _csrf: csrf, authorize_query: '', return_to: 'user/settings/security/two_factor', user_name: user.name, password }).toString(),
      });
    for (let i = 0; i < 3; i++) {
      const res = await post('wrong', '198.51.100.200');
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    }
    const locked = await post('correct-horse-battery', '198.51.100.200');
    expect(locked.status).toBe(429);
    await locked.arrayBuffer();
    const other = await post('correct-horse-battery', '198.51.100.201');
    expect(other.status).toBe(303);
    await other.arrayBuffer();
  });
});

describe('from a peer that is not a trusted proxy', () => {
  let s: TestServer;
  beforeAll(async () => {
    // 127.0.0.1, where the test connects from, is not in the list.
    s = await startTestServer({ security: { ...THROTTLE, REVERSE_PROXY_TRUSTED_PROXIES: ['10.0.0.0/8'] } });
  });
  afterAll(async () => s?.cleanup());

  test('its X-Forwarded-For and X-Real-IP are ignored: every "client" is the peer', async () => {
    expect(await signIn(s, uniq('ghost'), 'wrong', { 'X-Forwarded-For': '203.0.113.1' })).toBe(401);
    expect(await signIn(s, uniq('ghost'), 'wrong', { 'X-Forwarded-For': '203.0.113.2' })).toBe(401);
    expect(await signIn(s, uniq('ghost'), 'wrong', { 'X-Real-IP': '203.0.113.3' })).toBe(401);
    expect(await signIn(s, uniq('ghost'), 'wrong', { 'X-Forwarded-For': '203.0.113.4' })).toBe(429);
    expect(await signIn(s, uniq('ghost'), 'wrong')).toBe(429);
  });
});

describe('REVERSE_PROXY_LIMIT = 0', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ security: { ...THROTTLE, REVERSE_PROXY_LIMIT: 0 } });
  });
  afterAll(async () => s?.cleanup());

  test('forwarding headers are ignored even from a trusted proxy', async () => {
    for (let i = 0; i < 3; i++) expect(await signIn(s, uniq('ghost'), 'wrong', { 'X-Forwarded-For': `203.0.113.${i + 1}` })).toBe(401);
    expect(await signIn(s, uniq('ghost'), 'wrong', { 'X-Forwarded-For': '203.0.113.50' })).toBe(429);
  });
});

describe('reading the headers', () => {
  const trustOf = (proxies: string[], limit: number) =>
    proxyTrust(loadSettings({ workPath: '/tmp', overrides: { security: { REVERSE_PROXY_TRUSTED_PROXIES: proxies, REVERSE_PROXY_LIMIT: limit } } }));
  const headers = (values: Record<string, string>) => (name: string) => values[name] ?? null;

  test('entries: addresses with or without ports and brackets, IPv4-mapped IPv6 as IPv4; anything else is nothing', () => {
    expect(parseForwardedAddress(' 203.0.113.5 ')).toBe('203.0.113.5');
    expect(parseForwardedAddress('203.0.113.5:4711')).toBe('203.0.113.5');
    expect(parseForwardedAddress('2001:DB8::1')).toBe('2001:db8::1');
    expect(parseForwardedAddress('[2001:db8::1]:443')).toBe('2001:db8::1');
    expect(parseForwardedAddress('[2001:db8::1]')).toBe('2001:db8::1');
    expect(parseForwardedAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(parseForwardedAddress('fe80::1%eth0')).toBe('fe80::1');
    for (const bad of ['', 'unknown', '_hidden', '1.2.3', '1.2.3.4:port', '1.2.3.4:123456', '[2001:db8::1', '[1.2.3.4]', 'a'.repeat(200), '1.2.3.4 5.6.7.8']) {
      expect(parseForwardedAddress(bad), bad).toBeUndefined();
    }
  });

  test('the rightmost untrusted hop, never more than LIMIT hops; the peer when untrusted or the header is unusable', () => {
    const proxies = ['127.0.0.0/8', '10.0.0.0/8', '::1/128'];
    const two = trustOf(proxies, 2);
    // The closest proxy (10.0.0.2) is skipped, the client is the next one.
    expect(resolveClientAddress(two, '127.0.0.1', headers({ 'x-forwarded-for': '6.6.6.6, 198.51.100.1, 10.0.0.2' }))).toBe('198.51.100.1');
    // A chain of trusted hops longer than LIMIT: the leftmost hop read; what lies beyond is not read.
    expect(resolveClientAddress(two, '127.0.0.1', headers({ 'x-forwarded-for': '6.6.6.6, 10.0.0.3, 10.0.0.2' }))).toBe('10.0.0.3');
    const one = trustOf(proxies, 1);
    expect(resolveClientAddress(one, '127.0.0.1', headers({ 'x-forwarded-for': '6.6.6.6, 10.0.0.2' }))).toBe('10.0.0.2');
    // IPv4-mapped peer addresses are the IPv4 ones.
    expect(resolveClientAddress(one, '::ffff:127.0.0.1', headers({ 'x-forwarded-for': '198.51.100.9' }))).toBe('198.51.100.9');
    // An untrusted peer is the client, whatever it says.
    expect(resolveClientAddress(one, '192.0.2.44', headers({ 'x-forwarded-for': '198.51.100.9', 'x-real-ip': '198.51.100.8' }))).toBe('192.0.2.44');
    // A malformed X-Forwarded-For falls back to X-Real-IP (the last one), then to the peer.
    expect(resolveClientAddress(one, '127.0.0.1', headers({ 'x-forwarded-for': 'garbage', 'x-real-ip': '198.51.100.3, 198.51.100.4' }))).toBe('198.51.100.4');
    expect(resolveClientAddress(one, '127.0.0.1', headers({ 'x-forwarded-for': '198.51.100.5,' }))).toBe('127.0.0.1');
    expect(resolveClientAddress(one, '127.0.0.1', headers({}))).toBe('127.0.0.1');
    // `*` trusts every peer.
    expect(resolveClientAddress(trustOf(['*'], 1), '192.0.2.44', headers({ 'x-forwarded-for': '198.51.100.9' }))).toBe('198.51.100.9');
    // A single address as a trusted proxy, and an IPv6 network.
    expect(resolveClientAddress(trustOf(['192.0.2.44'], 1), '192.0.2.44', headers({ 'x-forwarded-for': '198.51.100.9' }))).toBe('198.51.100.9');
    expect(resolveClientAddress(trustOf(['2001:db8::/32'], 1), '2001:db8::7', headers({ 'x-forwarded-for': '[2001:db9::1]:80' }))).toBe('2001:db9::1');
    // In-process requests have no peer.
    expect(resolveClientAddress(one, undefined, headers({ 'x-forwarded-for': '198.51.100.9' }))).toBeUndefined();
  });

  test('a long chain of trusted hops: at most 64 are read, whatever LIMIT says', () => {
    const trust = trustOf(['0.0.0.0/0'], 1000);
    const many = Array.from({ length: 20_000 }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`).join(', ');
    // Entry 19,936 of 0…19,999: the 64th from the right.
    expect(resolveClientAddress(trust, '127.0.0.1', headers({ 'x-forwarded-for': many }))).toBe('10.0.77.224');
  });
});
