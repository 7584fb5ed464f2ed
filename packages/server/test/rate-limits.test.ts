/**
 * API rate limits (`[api.ratelimit]`, RepoHost's own; Forgejo has none): GitHub's `X-RateLimit-*` headers on API
 * answers, 429 with `Retry-After` once a caller's limit is spent; a signed-in account counted once whatever it signs
 * in with, anonymous calls per client address (the forwarded one behind a trusted proxy), searches and git over
 * HTTP each in a bucket of their own, site administrators exempt; counters kept in the database and shared by
 * every host on it, claimed in slices.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RateLimitService, RepoHost, SYSTEM, openStorage, rateLimitCaller, userActor, type RateLimitVerdict } from '@repohost/core';
import { createApp } from '@repohost/server';
import { basic, createToken, createUser, PASSWORD, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { account, expectApiError, uniq } from './helpers';

const LIMITS = {
  ENABLED: true,
  CORE_LIMIT: 6,
  CORE_ANONYMOUS_LIMIT: 3,
  SEARCH_LIMIT: 3,
  SEARCH_ANONYMOUS_LIMIT: 2,
  // Short, so the reset is awaited in the test: at most 2 s.
  SEARCH_WINDOW: 2,
  GIT_LIMIT: 50,
  GIT_ANONYMOUS_LIMIT: 4,
};

let s: TestServer;
let scratch: string;

beforeAll(async () => {
  // A database file (on PostgreSQL one schema), so further hosts can open the same one.
  s = await startTestServer({ database: { PATH: 'ratelimit.db' }, 'api.ratelimit': LIMITS });
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-ratelimit-'));
});
afterAll(async () => {
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

interface Limits {
  limit: number;
  remaining: number;
  used: number;
  reset: number;
  resource: string | null;
}

/** The five headers as numbers (and the resource); `limit` NaN when they are absent. */
function limitsOf(res: Response): Limits {
  const n = (name: string) => Number(res.headers.get(`x-ratelimit-${name}`) ?? NaN);
  return { limit: n('limit'), remaining: n('remaining'), used: n('used'), reset: n('reset'), resource: res.headers.get('x-ratelimit-resource') };
}

async function call(pathname: string, headers: Record<string, string> = {}): Promise<Response> {
  const res = await s.fetch(pathname, { headers });
  await res.clone().arrayBuffer();
  return res;
}

describe('API answers', () => {
  test('two tokens and the password of one account share its count; another account has its own', async () => {
    const user = await account(s, 'rl');
    const second = tokenHeader(await createToken(s.host, user.name));
    const password = { Authorization: basic(user.name, PASSWORD) };
    const ways = [user.h, second, password];
    const seen: Limits[] = [];
    for (let i = 0; i < LIMITS.CORE_LIMIT; i++) {
      const res = await call('/api/v1/user', ways[i % 3]);
      expect(res.status).toBe(200);
      seen.push(limitsOf(res));
    }
    expect(seen.map((l) => l.remaining)).toEqual([5, 4, 3, 2, 1, 0]);
    expect(seen.map((l) => l.used)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(new Set(seen.map((l) => `${l.limit} ${l.resource} ${l.reset}`))).toEqual(new Set([`${LIMITS.CORE_LIMIT} core ${seen[0]!.reset}`]));
    // GitHub's reset: the window's end in epoch seconds, within the hour ahead.
    const now = Date.now() / 1000;
    expect(seen[0]!.reset).toBeGreaterThan(now);
    expect(seen[0]!.reset).toBeLessThanOrEqual(now + 3600 + 1);

    for (const way of ways) {
      const res = await call(`/api/v1/repos/${user.name}/none`, way);
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(limitsOf(res)).toMatchObject({ limit: LIMITS.CORE_LIMIT, remaining: 0, used: LIMITS.CORE_LIMIT, resource: 'core' });
      const message = await expectApiError(res, 429, s.url);
      expect(message).toMatch(/^API rate limit exceeded for user ID \d+\.$/);
    }
    const other = await account(s, 'rl');
    const res = await call('/api/v1/user', other.h);
    expect(res.status).toBe(200);
    expect(limitsOf(res).remaining).toBe(LIMITS.CORE_LIMIT - 1);
  });

  test('anonymous calls count per client address: the one a trusted proxy forwards; a wrong token counts for the address', async () => {
    const a = { 'X-Forwarded-For': '203.0.113.41' };
    const b = { 'X-Forwarded-For': '203.0.113.42' };
    for (let i = 0; i < LIMITS.CORE_ANONYMOUS_LIMIT; i++) {
      const res = await call('/api/v1/version', a);
      expect(res.status).toBe(200);
      expect(limitsOf(res)).toMatchObject({ limit: LIMITS.CORE_ANONYMOUS_LIMIT, remaining: LIMITS.CORE_ANONYMOUS_LIMIT - 1 - i, resource: 'core' });
    }
    const refused = await call('/api/v1/version', a);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await expectApiError(refused, 429, s.url)).toBe('API rate limit exceeded for 203.0.113.41.');
    // What a client writes left of the proxy's entry is not read.
    expect((await call('/api/v1/version', { 'X-Forwarded-For': '10.1.1.1, 203.0.113.41' })).status).toBe(429);
    expect((await call('/api/v1/version', b)).status).toBe(200);
    // A refused token: the address pays (2 left of 3), then the 429 comes before the 401.
    expect((await call('/api/v1/user', { ...b, Authorization: 'token 0000000000000000000000000000000000000000' })).status).toBe(401);
    expect((await call('/api/v1/user', { ...b, Authorization: 'token 0000000000000000000000000000000000000000' })).status).toBe(401);
    expect((await call('/api/v1/user', { ...b, Authorization: 'token 0000000000000000000000000000000000000000' })).status).toBe(429);
  });

  test('searches count apart, in a window of their own, and start afresh when it ends', async () => {
    const user = await account(s, 'rls');
    // The account's core calls spent…
    for (let i = 0; i < LIMITS.CORE_LIMIT; i++) expect((await call('/api/v1/user', user.h)).status).toBe(200);
    expect((await call('/api/v1/user', user.h)).status).toBe(429);
    // …its searches are not.
    const searches = ['/api/v1/repos/search?q=x', '/api/v1/users/search?q=x', '/api/v1/topics/search?q=x'];
    let last: Limits | undefined;
    for (const [i, pathname] of searches.entries()) {
      const res = await call(pathname, user.h);
      expect(res.status, pathname).toBe(200);
      last = limitsOf(res);
      expect(last).toMatchObject({ limit: LIMITS.SEARCH_LIMIT, remaining: LIMITS.SEARCH_LIMIT - 1 - i, resource: 'search' });
    }
    const refused = await call('/api/v1/repos/issues/search?q=x', user.h);
    expect(refused.status).toBe(429);
    expect(limitsOf(refused)).toMatchObject({ remaining: 0, resource: 'search' });
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(LIMITS.SEARCH_WINDOW);
    // The window's end, awaited: searches answer again, core calls stay refused.
    const wait = last!.reset * 1000 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + 20));
    const again = await call('/api/v1/repos/search?q=x', user.h);
    expect(again.status).toBe(200);
    expect(limitsOf(again)).toMatchObject({ remaining: LIMITS.SEARCH_LIMIT - 1, resource: 'search' });
    expect((await call('/api/v1/user', user.h)).status).toBe(429);
  });

  test('site administrators are not counted, nor given the headers', async () => {
    const admin = await account(s, 'rla', { admin: true });
    for (let i = 0; i < LIMITS.CORE_LIMIT + 2; i++) {
      const res = await call('/api/v1/user', admin.h);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  test('answers a handler builds itself (a raw file) carry the headers too', async () => {
    const user = await account(s, 'rlr');
    const created = await s.fetch('/api/v1/user/repos', { method: 'POST', headers: { ...user.h, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'raw', auto_init: true }) });
    expect(created.status).toBe(201);
    const res = await call(`/api/v1/repos/${user.name}/raw/raw/README.md`, user.h);
    expect(res.status).toBe(200);
    expect(limitsOf(res)).toMatchObject({ limit: LIMITS.CORE_LIMIT, remaining: LIMITS.CORE_LIMIT - 2, resource: 'core' });
  });
});

describe('git over HTTP', () => {
  function git(args: string[], headers: string[] = []): Promise<{ code: number; stderr: string }> {
    const config = headers.flatMap((h) => ['-c', `http.extraHeader=${h}`]);
    const env = { ...process.env, HOME: scratch, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
    return new Promise((resolve, reject) => {
      execFile('git', [...config, ...args], { cwd: scratch, env, timeout: 60_000 }, (error, _stdout, stderr) => {
        if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr: String(stderr) });
      });
    });
  }

  test('clones count in the git bucket, apart from the API; a spent one is refused with 429', async () => {
    const owner = await createUser(s.host, uniq('rlg'));
    await s.host.repos.create(userActor(owner), { name: 'code', auto_init: true });
    const url = `${s.url}${owner.name}/code.git`;
    const from = 'X-Forwarded-For: 198.51.100.77';
    const first = await git(['clone', '-q', url, path.join(scratch, 'c1')], [from]);
    expect(first.code, first.stderr).toBe(0);
    // Every clone makes two or three requests (info/refs, then one or two of upload-pack): four allow one clone.
    let refused: { code: number; stderr: string } | undefined;
    for (let i = 2; i <= 4 && !refused; i++) {
      const next = await git(['clone', '-q', url, path.join(scratch, `c${i}`)], [from]);
      if (next.code !== 0) refused = next;
    }
    expect(refused?.stderr).toMatch(/429/);
    const counters = await s.host.service(RateLimitService).counters();
    expect(counters.find((c) => c.key === 'git:ip:198.51.100.77')?.claimed).toBe(LIMITS.GIT_ANONYMOUS_LIMIT);
    expect(counters.some((c) => c.key === 'core:ip:198.51.100.77')).toBe(false);
    // Another address clones.
    const other = await git(['clone', '-q', url, path.join(scratch, 'c9')], ['X-Forwarded-For: 198.51.100.78']);
    expect(other.code, other.stderr).toBe(0);
  });
});

describe('two hosts on one database', () => {
  let b: RepoHost;
  let c: RepoHost;
  const SHARED = { ...LIMITS, ENABLED: false, CORE_LIMIT: 100, CLAIM_SIZE: 10 };

  beforeAll(async () => {
    // Two more processes' worth of hosts on the server's database, claiming 10 calls at a time; limits off in their
    // settings (the service counts all the same when asked), which makes `b`'s app one without limits.
    const settings = structuredClone(s.host.settings);
    settings['api.ratelimit'] = { ...settings['api.ratelimit'], ...SHARED };
    b = await RepoHost.open({ settings: structuredClone(settings), reconcile: false });
    c = await RepoHost.open({ settings: structuredClone(settings), reconcile: false });
  });
  afterAll(async () => {
    await b?.close();
    await c?.close();
  });

  test('calls made through both at once stay within the limit (less one slice per host), one row write per slice', async () => {
    const caller = rateLimitCaller(`user:shared-${uniq()}`, true, 'shared');
    const hosts = [b, c];
    const before = hosts.map((h) => h.service(RateLimitService).claimCount);
    const verdicts = await Promise.all(
      Array.from({ length: 160 }, async (_, i) => (await hosts[i % 2]!.service(RateLimitService).take('core', caller)) as RateLimitVerdict),
    );
    const allowed = verdicts.filter((v) => v.allowed).length;
    expect(allowed).toBeLessThanOrEqual(SHARED.CORE_LIMIT);
    expect(allowed).toBeGreaterThanOrEqual(SHARED.CORE_LIMIT - 2 * SHARED.CLAIM_SIZE);
    // 100 calls in slices of 10: ten claims that got calls, and at most one more per host that found none left.
    const claims = hosts.reduce((sum, h, i) => sum + h.service(RateLimitService).claimCount - before[i]!, 0);
    expect(claims).toBeLessThanOrEqual(SHARED.CORE_LIMIT / SHARED.CLAIM_SIZE + 2);
    const row = (await b.service(RateLimitService).counters()).find((r) => r.key === `core:${caller.key}`);
    expect(row?.claimed).toBe(SHARED.CORE_LIMIT);
    // A refused call does not ask the database again.
    const after = hosts.map((h) => h.service(RateLimitService).claimCount);
    expect(((await b.service(RateLimitService).take('core', caller)) as RateLimitVerdict).allowed).toBe(false);
    expect(b.service(RateLimitService).claimCount).toBe(after[0]);
  });

  test('with limits off, API answers carry no headers', async () => {
    const { app } = createApp(b);
    for (const pathname of ['/api/v1/version', '/api/v1/repos/search?q=x']) {
      const res = await app.fetch(new Request(`http://localhost${pathname}`));
      expect(res.status).toBe(200);
      expect([...res.headers.keys()].filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
      await res.arrayBuffer();
    }
  });

  test('cleanup_rate_limits, listed while limits are on, deletes counters whose window ended', async () => {
    const listed = await s.host.cron.list(SYSTEM, { limit: 50 });
    expect(listed.items.map((task) => task.name)).toContain('cleanup_rate_limits');
    const disabled = await b.cron.list(SYSTEM, { limit: 50 });
    expect(disabled.items.map((task) => task.name)).not.toContain('cleanup_rate_limits');
    // Counters of windows that ended (a search window of 2 s, 10 s ago) go; a core one of the same age is current.
    const raw = await openStorage(s.host.settings.database);
    try {
      const old = Math.floor(Date.now() / 1000) - 10;
      await raw.db.insertInto('rate_limit').values([
        { key: 'search:ip:192.0.2.200', window_start_unix: old, claimed: 1, granted: 1 },
        { key: 'core:ip:192.0.2.200', window_start_unix: old, claimed: 1, granted: 1 },
      ]).execute();
      expect(await s.host.service(RateLimitService).cleanup()).toMatch(/^removed [1-9]\d* ended rate limit counters$/);
      const keys = (await s.host.service(RateLimitService).counters()).map((row) => row.key);
      expect(keys).toContain('core:ip:192.0.2.200');
      expect(keys).not.toContain('search:ip:192.0.2.200');
    } finally {
      await raw.close();
    }
  });
});
