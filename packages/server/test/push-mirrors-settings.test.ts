/**
 * Push mirrors under other settings: `[mirror] ENABLED = false` and `DISABLE_NEW_PUSH`, a longer `MIN_INTERVAL`,
 * `[migrations] BLOCKED_DOMAINS` / `ALLOWED_DOMAINS` for names, `[security] IMPORT_LOCAL_PATHS` (never for push
 * mirrors), `[git.timeout] MIRROR` against a remote that never answers, and the in-memory git backend (which cannot
 * push to remotes: 501).
 */
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { PushMirrorSchema, matchesSchema, type SettingsOverrides } from '@repohost/core';
import { TEST_GIT, createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.cleanup();
  server = undefined;
});

/** A server with the settings, a user and a repository of theirs. */
async function setUp(overrides: SettingsOverrides, options: { admin?: boolean } = {}): Promise<{ s: TestServer; full: string; h: Record<string, string> }> {
  const s = (server = await startTestServer(overrides));
  const name = uniq('u');
  await createUser(s.host, name, options);
  const h = tokenHeader(await createToken(s.host, name));
  const repo = uniq('r');
  expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo }, h))).status).toBe(201);
  return { s, full: `${name}/${repo}`, h };
}

const add = (s: TestServer, full: string, h: Record<string, string>, body: Record<string, unknown>) =>
  s.fetch(`/api/v1/repos/${full}/push_mirrors`, jsonInit('POST', body, h));

describe('push mirror settings', () => {
  test('[mirror] ENABLED = false: every push mirror operation answers 400 "Mirror feature is disabled"', async () => {
    const { s, full, h } = await setUp({ mirror: { ENABLED: false } });
    for (const [path, init] of [
      ['/push_mirrors', { headers: h }],
      ['/push_mirrors/remote_mirror_x', { headers: h }],
      ['/push_mirrors/remote_mirror_x', { method: 'DELETE', headers: h }],
      ['/push_mirrors-sync', { method: 'POST', headers: h }],
      ['/push_mirrors', jsonInit('POST', { remote_address: 'https://example.com/x.git', interval: '8h' }, h)],
    ] as const) {
      expect(await expectApiError(await s.fetch(`/api/v1/repos/${full}${path}`, init), 400, s.url)).toBe('Mirror feature is disabled');
    }
  });

  test('[mirror] DISABLE_NEW_PUSH: adding is refused (400), listing still works', async () => {
    const { s, full, h } = await setUp({ mirror: { DISABLE_NEW_PUSH: true } });
    await expectApiError(await add(s, full, h, { remote_address: 'https://example.com/x.git', interval: '8h' }), 400, s.url);
    const listed = await s.fetch(`/api/v1/repos/${full}/push_mirrors`, { headers: h });
    expect(listed.status).toBe(200);
    expect(await json(listed)).toEqual([]);
  });

  test.skipIf(TEST_GIT === 'memory')('[mirror] MIN_INTERVAL bounds the interval; 0 is always allowed', async () => {
    const { s, full, h } = await setUp({ mirror: { MIN_INTERVAL: '1h' } });
    await expectApiError(await add(s, full, h, { remote_address: 'https://example.com/x.git', interval: '30m' }), 400, s.url);
    const ok = await add(s, full, h, { remote_address: 'https://example.com/x.git', interval: '1h30m' });
    expect(ok.status).toBe(200);
    expect((await json<{ interval: string }>(ok)).interval).toBe('1h30m0s');
    expect((await add(s, full, h, { remote_address: 'https://example.com/x.git', interval: '0' })).status).toBe(200);
  });

  test.skipIf(TEST_GIT === 'memory')('[migrations] BLOCKED_DOMAINS and ALLOWED_DOMAINS apply to names, resolvable or not', async () => {
    const { s, full, h } = await setUp({ migrations: { BLOCKED_DOMAINS: '*.blocked.example', ALLOWED_DOMAINS: '*.example,example.com' } });
    expect(await expectApiError(await add(s, full, h, { remote_address: 'https://git.blocked.example/x.git', interval: '8h' }), 403, s.url)).toBe('Permission denied');
    await expectApiError(await add(s, full, h, { remote_address: 'https://elsewhere.test/x.git', interval: '8h' }), 403, s.url);
    const ok = await add(s, full, h, { remote_address: 'https://git.allowed.example/x.git', interval: '8h' });
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(matchesSchema(PushMirrorSchema, await json(ok))).toBe(true);
  });

  test('the in-memory git backend cannot push to remotes: adding and syncing answer 501, reading works', async () => {
    const { s, full, h } = await setUp({ repository: { BACKEND: 'memory' } });
    await expectApiError(await add(s, full, h, { remote_address: 'https://example.com/x.git', interval: '8h' }), 501, s.url);
    const listed = await s.fetch(`/api/v1/repos/${full}/push_mirrors`, { headers: h });
    expect(listed.status).toBe(200);
    expect(await json(listed)).toEqual([]);
    // Nothing to push: nothing to refuse.
    expect((await s.fetch(`/api/v1/repos/${full}/push_mirrors-sync`, { method: 'POST', headers: h })).status).toBe(200);
  });

  test('a local folder is never a push mirror, even for a site administrator allowed to import local paths', async () => {
    const { s, full, h } = await setUp({ security: { IMPORT_LOCAL_PATHS: true } }, { admin: true });
    expect(await expectApiError(await add(s, full, h, { remote_address: s.workPath, interval: '8h' }), 403, s.url)).toBe('Permission denied');
    await expectApiError(await add(s, full, h, { remote_address: `file://${s.workPath}`, interval: '8h' }), 403, s.url);
  });

  test.skipIf(TEST_GIT === 'memory')('a remote that never answers: the push gives up after [git.timeout] MIRROR and says so in last_error', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const { s, full, h } = await setUp({ migrations: { ALLOW_LOCALNETWORKS: true }, 'git.timeout': { MIRROR: 1 } });
      const added = await add(s, full, h, { remote_address: `http://127.0.0.1:${port}/x.git`, remote_password: 'hang-secret', interval: '0' });
      expect(added.status).toBe(200);
      const name = (await json<{ remote_name: string }>(added)).remote_name;
      const started = Date.now();
      expect((await s.fetch(`/api/v1/repos/${full}/push_mirrors-sync`, { method: 'POST', headers: h })).status).toBe(200);
      let mirror: { last_update: string | null; last_error: string } | undefined;
      while (Date.now() - started < 20_000) {
        mirror = await json(await s.fetch(`/api/v1/repos/${full}/push_mirrors/${name}`, { headers: h }));
        if (mirror?.last_update) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(mirror?.last_update).toBeTruthy();
      expect(mirror!.last_error).toMatch(/timed out/);
      expect(mirror!.last_error).not.toContain('hang-secret');
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
