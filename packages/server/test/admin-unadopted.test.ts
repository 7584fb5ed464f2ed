/**
 * Storage the database does not know (left by a crash before intents existed, copied in by hand, restored from a
 * backup) is listed, adopted or deleted by site administrators through Forgejo's `/admin/unadopted`; a row whose
 * storage is missing answers 404 to git, never 500.
 */
import { rm } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RepositorySchema, matchesSchema, type NativeGitBackend } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const run = promisify(execFile);

describe('/admin/unadopted', () => {
  let s: TestServer;
  let adminName: string;
  let admin: Record<string, string>;
  let owner: string;
  let ownerH: Record<string, string>;

  const stray = (name: string) => s.host.git.create({ owner, name }, { objectFormat: 'sha1', defaultBranch: 'main' });

  beforeAll(async () => {
    s = await startTestServer();
    adminName = uniq('adm');
    await createUser(s.host, adminName, { admin: true });
    admin = tokenHeader(await createToken(s.host, adminName));
    owner = uniq('own');
    await createUser(s.host, owner);
    ownerH = tokenHeader(await createToken(s.host, owner));
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('lists storage no row claims, with X-Total-Count, paging and a pattern; only for site administrators', async () => {
    await stray('one');
    await stray('two');
    await stray('three');
    await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'claimed' }, ownerH));

    const res = await s.fetch('/api/v1/admin/unadopted?limit=2', { headers: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(await json(res)).toEqual([`${owner}/one`, `${owner}/three`]);
    expect(await json(await s.fetch('/api/v1/admin/unadopted?limit=2&page=2', { headers: admin }))).toEqual([`${owner}/two`]);
    expect(await json(await s.fetch(`/api/v1/admin/unadopted?pattern=${owner}/t*`, { headers: admin }))).toEqual([`${owner}/three`, `${owner}/two`]);
    expect(await json(await s.fetch('/api/v1/admin/unadopted?query=hre', { headers: admin }))).toEqual([`${owner}/three`]);

    await expectApiError(await s.fetch('/api/v1/admin/unadopted', { headers: ownerH }), 403, s.url);
    await expectApiError(await s.fetch('/api/v1/admin/unadopted'), 401, s.url);
    // A site administrator's token still needs the admin scope.
    const readUserOnly = tokenHeader(await createToken(s.host, adminName, ['read:user']));
    await expectApiError(await s.fetch('/api/v1/admin/unadopted', { headers: readUserOnly }), 403, s.url);
  });

  test('a name blocked by files can be freed by deleting them, then created', async () => {
    await stray('blocked');
    await expectApiError(await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'blocked' }, ownerH)), 409, s.url);
    await expectApiError(await s.fetch(`/api/v1/admin/unadopted/${owner}/blocked`, { method: 'DELETE', headers: ownerH }), 403, s.url);
    const del = await s.fetch(`/api/v1/admin/unadopted/${owner}/blocked`, { method: 'DELETE', headers: admin });
    expect(del.status).toBe(204);
    expect(await s.host.git.exists({ owner, name: 'blocked' })).toBe(false);
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'blocked' }, ownerH))).status).toBe(201);
    // Files that a row claims are not unadopted: 404, and they stay.
    await expectApiError(await s.fetch(`/api/v1/admin/unadopted/${owner}/blocked`, { method: 'DELETE', headers: admin }), 404, s.url);
    expect(await s.host.git.exists({ owner, name: 'blocked' })).toBe(true);
  });

  test('adopting makes the files a private repository of their owner, with its branch and history', async () => {
    await stray('found');
    await s.host.git.commitFiles({ owner, name: 'found' }, { branch: 'main', message: 'old work', author: { name: 'a', email: 'a@b.c' }, files: [{ path: 'README.md', content: '# found' }] });
    const res = await s.fetch(`/api/v1/admin/unadopted/${owner}/found`, { method: 'POST', headers: admin });
    expect(res.status).toBe(204);
    const repo = await json(await s.fetch(`/api/v1/repos/${owner}/found`, { headers: ownerH }));
    expect(matchesSchema(RepositorySchema, repo)).toBe(true);
    expect(repo).toMatchObject({ name: 'found', private: true, empty: false, default_branch: 'main' });
    // A second adoption, unknown owners, missing files: 404.
    await expectApiError(await s.fetch(`/api/v1/admin/unadopted/${owner}/found`, { method: 'POST', headers: admin }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/admin/unadopted/nobody-here/found`, { method: 'POST', headers: admin }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/admin/unadopted/${owner}/absent`, { method: 'POST', headers: admin }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/admin/unadopted/${owner}/..`, { method: 'POST', headers: admin }), 404, s.url);
  });

  test('a repository whose storage is missing answers 404 to git and to the API, never 500', async () => {
    const created = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'vanished', auto_init: true }, ownerH));
    expect(created.status).toBe(201);
    await rm((s.host.git as NativeGitBackend).pathOf({ owner, name: 'vanished' }), { recursive: true });
    const refs = await s.fetch(`/${owner}/vanished.git/info/refs?service=git-upload-pack`, { headers: ownerH });
    expect(refs.status).toBe(404);
    const clone = await run('git', ['ls-remote', `${s.url.replace('http://', `http://${owner}:${ownerH.Authorization!.slice(6)}@`)}${owner}/vanished.git`]).then(
      () => 'ok',
      (error: { stderr: string }) => error.stderr,
    );
    expect(clone).toMatch(/not found|returned error: 404\b/i);
    const report = await s.host.repoStorage.check();
    expect(report.missing).toContainEqual({ owner, name: 'vanished' });
    // The API still shows the row (its delete cleans up), and deleting it works.
    expect((await s.fetch(`/api/v1/repos/${owner}/vanished`, { headers: ownerH })).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${owner}/vanished`, { method: 'DELETE', headers: ownerH })).status).toBe(204);
  });
});
