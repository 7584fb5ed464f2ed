/**
 * `GET`/`POST /repos/{owner}/{repo}/sync_fork[/{branch}]` (Forgejo's fork sync): what syncing a fork's branch with
 * its base repository's would do, and the fast-forward itself, made as a push (with its webhook), over real SQLite
 * and git. Repositories are made, forked and changed through the API only.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SyncForkInfoSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, expectApiError, json, uniq, type Account } from './helpers';
import { startReceiver, type Receiver } from './webhook-receiver';

let s: TestServer;
let receiver: Receiver;
let alice: Account;
let bob: Account;
let carol: Account;

interface Pair {
  base: string;
  fork: string;
  start: string;
}

/** Alice's repository (`main` and `feat/x`) and bob's fork of it; carol is a stranger to both. */
async function forked(isPrivate = false): Promise<Pair> {
  const name = uniq('sync');
  expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true, private: isPrivate, default_branch: 'main' }, alice.h))).status).toBe(201);
  const base = `${alice.name}/${name}`;
  expect((await s.fetch(`/api/v1/repos/${base}/branches`, jsonInit('POST', { new_branch_name: 'feat/x' }, alice.h))).status).toBe(201);
  if (isPrivate) expect((await s.fetch(`/api/v1/repos/${base}/collaborators/${bob.name}`, jsonInit('PUT', { permission: 'read' }, alice.h))).status).toBe(204);
  const fork = await s.fetch(`/api/v1/repos/${base}/forks`, jsonInit('POST', {}, bob.h));
  expect(fork.status).toBe(202);
  return { base, fork: `${bob.name}/${name}`, start: await head(base, 'main') };
}

async function head(full: string, branch: string): Promise<string> {
  const res = await s.fetch(`/api/v1/repos/${full}/branches/${branch}`, { headers: alice.h });
  expect(res.status).toBe(200);
  return (await json(res)).commit.id;
}

/** A commit on `branch` of `full` by `who`, through the contents API; its id. */
async function commit(full: string, who: Account, branch = 'main'): Promise<string> {
  const res = await s.fetch(`/api/v1/repos/${full}/contents/${uniq('f')}.txt`, jsonInit('POST', { content: Buffer.from('x\n').toString('base64'), branch }, who.h));
  expect(res.status).toBe(201);
  return (await json(res)).commit.sha;
}

async function info(full: string, who: Account | undefined, branch?: string) {
  const res = await s.fetch(`/api/v1/repos/${full}/sync_fork${branch ? `/${branch}` : ''}`, { headers: who?.h ?? {} });
  return res;
}

const sync = (full: string, who: Account | undefined, branch?: string) => s.fetch(`/api/v1/repos/${full}/sync_fork${branch ? `/${branch}` : ''}`, jsonInit('POST', undefined, who?.h ?? {}));

beforeAll(async () => {
  s = await startTestServer({ webhook: { ALLOWED_HOST_LIST: 'loopback' } });
  receiver = await startReceiver();
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
  carol = await account(s, 'carol');
});
afterAll(async () => {
  await s?.cleanup();
  await receiver?.close();
});

describe('/repos/{owner}/{repo}/sync_fork', () => {
  test('a fork level with its base: nothing to sync', async () => {
    const p = await forked();
    const res = await info(p.fork, bob);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await json(res);
    expect(matchesSchema(SyncForkInfoSchema, body), schemaErrors(SyncForkInfoSchema, body).join('\n')).toBe(true);
    expect(body).toEqual({ allowed: false, fork_commit: p.start, base_commit: p.start, commits_behind: 0 });
    expect(await expectApiError(await sync(p.fork, bob), 400, s.url)).toBe("You can't sync this branch");
  });

  test('a fork behind its base: info counts the commits, the sync fast-forwards the default branch (204)', async () => {
    const p = await forked();
    await commit(p.base, alice);
    const newest = await commit(p.base, alice);
    const expected = { allowed: true, fork_commit: p.start, base_commit: newest, commits_behind: 2 };
    expect(await json(await info(p.fork, bob))).toEqual(expected);
    expect(await json(await info(p.fork, bob, 'main'))).toEqual(expected);
    // Anyone who reads the fork may ask.
    expect(await json(await info(p.fork, carol))).toEqual(expected);
    expect(await json(await info(p.fork, undefined))).toEqual(expected);

    const res = await sync(p.fork, bob);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await head(p.fork, 'main')).toBe(newest);
    expect(await json(await info(p.fork, bob))).toEqual({ allowed: false, fork_commit: newest, base_commit: newest, commits_behind: 0 });
    // The commits came with it: the fork reads them.
    expect((await s.fetch(`/api/v1/repos/${p.fork}/git/commits/${newest}`, { headers: bob.h })).status).toBe(200);
  });

  test('a named branch, slashes and all; the sync is a push the fork\'s push webhook hears', async () => {
    const p = await forked();
    const hook = await s.fetch(
      `/api/v1/repos/${p.fork}/hooks`,
      jsonInit('POST', { type: 'gitea', active: true, events: ['push'], config: { url: `${receiver.url}/sync-push`, content_type: 'json' } }, bob.h),
    );
    expect(hook.status).toBe(201);
    const newest = await commit(p.base, alice, 'feat/x');
    expect(await json(await info(p.fork, bob, 'feat/x'))).toEqual({ allowed: true, fork_commit: p.start, base_commit: newest, commits_behind: 1 });
    expect((await info(p.fork, bob)).status).toBe(200);
    expect((await sync(p.fork, bob, 'feat/x')).status).toBe(204);
    expect(await head(p.fork, 'feat/x')).toBe(newest);
    expect(await head(p.fork, 'main')).toBe(p.start);
    const delivered = await receiver.waitFor((q) => q.url === '/sync-push');
    expect(delivered.headers['x-gitea-event']).toBe('push');
    const payload = JSON.parse(delivered.body);
    expect(payload).toMatchObject({ ref: 'refs/heads/feat/x', before: p.start, after: newest });
    expect(payload.sender.login).toBe(bob.name);
  });

  test('a fork with commits of its own is never synced over them', async () => {
    const p = await forked();
    const own = await commit(p.fork, bob);
    const theirs = await commit(p.base, alice);
    expect(await json(await info(p.fork, bob))).toEqual({ allowed: false, fork_commit: own, base_commit: theirs, commits_behind: 0 });
    expect(await expectApiError(await sync(p.fork, bob), 400, s.url)).toBe("You can't sync this branch");
    expect(await head(p.fork, 'main')).toBe(own);
  });

  test('a branch the base lacks: info without a base commit; a branch the fork lacks: 404', async () => {
    const p = await forked();
    expect((await s.fetch(`/api/v1/repos/${p.fork}/branches`, jsonInit('POST', { new_branch_name: 'mine' }, bob.h))).status).toBe(201);
    expect(await json(await info(p.fork, bob, 'mine'))).toEqual({ allowed: false, fork_commit: p.start, base_commit: '', commits_behind: 0 });
    expect((await sync(p.fork, bob, 'mine')).status).toBe(400);
    expect((await info(p.fork, bob, 'nope')).status).toBe(404);
    expect((await sync(p.fork, bob, 'nope')).status).toBe(404);
  });

  test('a repository that is no fork: 400', async () => {
    const p = await forked();
    expect(await expectApiError(await info(p.base, alice), 400, s.url)).toBe('The Repo must be a fork');
    expect(await expectApiError(await sync(p.base, alice), 400, s.url)).toBe('The Repo must be a fork');
  });

  test('syncing needs write on the fork\'s code (403, signed in or not); a private fork is a 404 to strangers', async () => {
    const p = await forked();
    await commit(p.base, alice);
    expect((await sync(p.fork, carol)).status).toBe(403);
    expect((await sync(p.fork, undefined)).status).toBe(403);
    expect(await head(p.fork, 'main')).toBe(p.start);

    const hidden = await forked(true);
    await commit(hidden.base, alice);
    expect((await info(hidden.fork, carol)).status).toBe(404);
    expect((await sync(hidden.fork, carol)).status).toBe(404);
    expect((await info(hidden.fork, bob)).status).toBe(200);
    expect((await sync(hidden.fork, bob)).status).toBe(204);
  });

  test('an archived fork: info allows nothing, the sync is a 423', async () => {
    const p = await forked();
    await commit(p.base, alice);
    expect((await s.fetch(`/api/v1/repos/${p.fork}`, jsonInit('PATCH', { archived: true }, bob.h))).status).toBe(200);
    expect(await json(await info(p.fork, bob))).toEqual({ allowed: false, fork_commit: '', base_commit: '', commits_behind: 0 });
    expect(await expectApiError(await sync(p.fork, bob), 423, s.url)).toBe('repo is archived');
    expect(await head(p.fork, 'main')).toBe(p.start);
  });

  test('the fork\'s branch rules apply as to a push: 403 when its owner may not push there', async () => {
    const p = await forked();
    await commit(p.base, alice);
    expect((await s.fetch(`/api/v1/repos/${p.fork}/branch_protections`, jsonInit('POST', { rule_name: 'main', enable_push: false }, bob.h))).status).toBe(201);
    expect(await expectApiError(await sync(p.fork, bob), 403, s.url)).toBe('Not allowed to push to protected branch main');
    expect(await head(p.fork, 'main')).toBe(p.start);
  });
});
