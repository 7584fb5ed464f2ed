/**
 * Reading and editing repositories over HTTP: every Repository field as each kind of caller sees it,
 * `/repositories/{id}`, `PATCH /repos/{owner}/{repo}` (rename with the git storage, visibility, default branch
 * with git HEAD, archiving, units and their settings, validation, permissions), assignees and reviewers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { RepositorySchema, UserSchema, matchesSchema, schemaErrors, type AnyDomainEvent } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const UserListSchema = Type.Array(UserSchema);

function expectRepository(body: unknown): void {
  expect(matchesSchema(RepositorySchema, body), schemaErrors(RepositorySchema, body).join('\n')).toBe(true);
}

interface Account {
  name: string;
  h: Record<string, string>;
}

async function account(s: TestServer, prefix = 'e', options: { admin?: boolean; scopes?: string[] } = {}): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name, { admin: options.admin });
  return { name, h: tokenHeader(await createToken(s.host, name, options.scopes)) };
}

async function createRepo(s: TestServer, who: Account, body: Record<string, unknown>): Promise<any> {
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', body, who.h));
  expect(res.status).toBe(201);
  return json(res);
}

function patch(s: TestServer, who: Account | undefined, path: string, body: unknown): Promise<Response> {
  return s.fetch(`/api/v1/repos/${path}`, jsonInit('PATCH', body, who?.h));
}

const storageKey = (owner: string, name: string) => ({ owner: owner.toLowerCase(), name: name.toLowerCase() });

describe('reading repositories', () => {
  let s: TestServer;
  let owner: Account;
  let other: Account;
  let admin: Account;
  beforeAll(async () => {
    s = await startTestServer();
    owner = await account(s, 'own');
    other = await account(s, 'oth');
    admin = await account(s, 'adm', { admin: true });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('GET: every field computed from the row and the caller', async () => {
    const created = await createRepo(s, owner, { name: 'full', description: 'd', auto_init: true });
    const res = await s.fetch(`/api/v1/repos/${owner.name}/full`, { headers: owner.h });
    expect(res.status).toBe(200);
    const repo = await json(res);
    expectRepository(repo);
    expect(repo).toMatchObject({
      id: created.id,
      name: 'full',
      full_name: `${owner.name}/full`,
      empty: false,
      fork: false,
      mirror: false,
      template: false,
      archived: false,
      archived_at: '0001-01-01T00:00:00Z',
      parent: null,
      repo_transfer: null,
      default_branch: 'main',
      object_format_name: 'sha1',
      html_url: `${s.url}${owner.name}/full`,
      clone_url: `${s.url}${owner.name}/full.git`,
      url: `${s.url}api/v1/repos/${owner.name}/full`,
      languages_url: `${s.url}api/v1/repos/${owner.name}/full/languages`,
      permissions: { admin: true, push: true, pull: true },
      has_issues: true,
      has_wiki: true,
      has_pull_requests: true,
      external_tracker: null,
      external_wiki: null,
    });
    expect(repo.size).toBeGreaterThan(0);
    expect(Date.parse(repo.created_at)).toBeGreaterThan(0);
    expect(repo.ssh_url).toContain(`${owner.name}/full.git`);

    const asOther = await json(await s.fetch(`/api/v1/repos/${owner.name}/full`, { headers: other.h }));
    expect(asOther.permissions).toEqual({ admin: false, push: false, pull: true });
    const asAdmin = await json(await s.fetch(`/api/v1/repos/${owner.name}/full`, { headers: admin.h }));
    expect(asAdmin.permissions).toEqual({ admin: true, push: true, pull: true });
    const anonymous = await json(await s.fetch(`/api/v1/repos/${owner.name}/full`));
    expect(anonymous.permissions).toEqual({ admin: false, push: false, pull: true });
  });

  test('GET /repositories/{id}: by id for whoever may see it; 401 anonymously; 404 otherwise', async () => {
    const pub = await createRepo(s, owner, { name: uniq('byid') });
    const priv = await createRepo(s, owner, { name: uniq('byidp'), private: true });
    const got = await s.fetch(`/api/v1/repositories/${pub.id}`, { headers: other.h });
    expect(got.status).toBe(200);
    const body = await json(got);
    expectRepository(body);
    expect(body).toMatchObject({ id: pub.id, name: pub.name, permissions: { admin: false, push: false, pull: true } });
    expect((await json(await s.fetch(`/api/v1/repositories/${priv.id}`, { headers: owner.h }))).name).toBe(priv.name);
    await expectApiError(await s.fetch(`/api/v1/repositories/${priv.id}`, { headers: other.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repositories/${pub.id}`), 401, s.url);
    for (const id of ['0', '-1', 'abc', '99999999', '9'.repeat(30), '1e3']) {
      await expectApiError(await s.fetch(`/api/v1/repositories/${id}`, { headers: owner.h }), 404, s.url);
    }
    // A token without read:repository may not.
    const narrow = tokenHeader(await createToken(s.host, owner.name, ['read:user']));
    await expectApiError(await s.fetch(`/api/v1/repositories/${pub.id}`, { headers: narrow }), 403, s.url);
  });

  test('assignees: the owner; reviewers of a private repository: the owner; 401 anonymously, 404 unseen', async () => {
    const priv = await createRepo(s, owner, { name: uniq('people'), private: true });
    for (const list of ['assignees', 'reviewers']) {
      const res = await s.fetch(`/api/v1/repos/${owner.name}/${priv.name}/${list}`, { headers: owner.h });
      expect(res.status, list).toBe(200);
      const users = await json(res);
      expect(matchesSchema(UserListSchema, users), schemaErrors(UserListSchema, users).join('\n')).toBe(true);
      expect(users.map((u: { login: string }) => u.login)).toEqual([owner.name]);
      await expectApiError(await s.fetch(`/api/v1/repos/${owner.name}/${priv.name}/${list}`), 401, s.url);
      await expectApiError(await s.fetch(`/api/v1/repos/${owner.name}/${priv.name}/${list}`, { headers: other.h }), 404, s.url);
    }
    const pub = await createRepo(s, owner, { name: uniq('people') });
    const assignees = await json(await s.fetch(`/api/v1/repos/${owner.name}/${pub.name}/assignees`, { headers: other.h }));
    expect(assignees.map((u: { login: string }) => u.login)).toEqual([owner.name]);
    // Public repository: its watchers (the owner once creation makes them watch it).
    const reviewers = await json(await s.fetch(`/api/v1/repos/${owner.name}/${pub.name}/reviewers`, { headers: other.h }));
    expect(matchesSchema(UserListSchema, reviewers)).toBe(true);
    for (const u of reviewers as { login: string }[]) expect([owner.name]).toContain(u.login);
  });
});

describe('PATCH /api/v1/repos/{owner}/{repo}', () => {
  let s: TestServer;
  let owner: Account;
  let other: Account;
  let admin: Account;
  const events: AnyDomainEvent[] = [];
  beforeAll(async () => {
    s = await startTestServer();
    owner = await account(s, 'own');
    other = await account(s, 'oth');
    admin = await account(s, 'adm', { admin: true });
    s.host.events.on('*', (e) => {
      events.push(e);
    });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('basic properties: only the fields sent change, and GET shows them', async () => {
    const created = await createRepo(s, owner, { name: 'basic', description: 'before' });
    const res = await patch(s, owner, `${owner.name}/basic`, { website: 'https://example.com/x', private: true, template: true });
    expect(res.status).toBe(200);
    const edited = await json(res);
    expectRepository(edited);
    expect(edited).toMatchObject({ id: created.id, description: 'before', website: 'https://example.com/x', private: true, template: true, permissions: { admin: true, push: true, pull: true } });
    const got = await json(await s.fetch(`/api/v1/repos/${owner.name}/basic`, { headers: owner.h }));
    expect(got).toMatchObject({ description: 'before', website: 'https://example.com/x', private: true, template: true });
    // Now private: another user may not see it at all.
    expect((await s.fetch(`/api/v1/repos/${owner.name}/basic`, { headers: other.h })).status).toBe(404);
    const back = await json(await patch(s, owner, `${owner.name}/basic`, { private: false, description: '' }));
    expect(back).toMatchObject({ private: false, description: '', template: true });
    await s.host.events.idle();
    expect(events.some((e) => e.type === 'repo.edited' && e.payload.repo.id === created.id)).toBe(true);
  });

  test('rename: the git storage moves; the old name redirects; a case-only change keeps the storage', async () => {
    const created = await createRepo(s, owner, { name: 'oldname', auto_init: true });
    const res = await patch(s, owner, `${owner.name}/oldname`, { name: 'NewName' });
    expect(res.status).toBe(200);
    const renamed = await json(res);
    expectRepository(renamed);
    expect(renamed).toMatchObject({ id: created.id, name: 'NewName', full_name: `${owner.name}/NewName`, clone_url: `${s.url}${owner.name}/NewName.git`, empty: false });
    expect(await s.host.git.exists(storageKey(owner.name, 'oldname'))).toBe(false);
    expect(await s.host.git.exists(storageKey(owner.name, 'newname'))).toBe(true);
    expect((await s.host.git.readRefs(storageKey(owner.name, 'newname'), ['refs/heads/main'])).has('refs/heads/main')).toBe(true);
    // The old name redirects to the new one (Forgejo's repo_redirect).
    const old = await s.fetch(`/api/v1/repos/${owner.name}/oldname`, { headers: owner.h, redirect: 'manual' });
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe(`/api/v1/repos/${owner.name}/NewName`);
    expect((await s.fetch(`/api/v1/repos/${owner.name}/newname`, { headers: owner.h })).status).toBe(200);

    const cased = await json(await patch(s, owner, `${owner.name}/newname`, { name: 'newNAME' }));
    expect(cased.name).toBe('newNAME');
    expect(await s.host.git.exists(storageKey(owner.name, 'newname'))).toBe(true);
    expect(await s.host.repoStorage.pending()).toEqual([]);
    await s.host.events.idle();
    const renames = events.filter((e) => e.type === 'repo.renamed' && e.payload.repo.id === created.id);
    expect(renames.map((e) => (e.type === 'repo.renamed' ? [e.payload.oldName, e.payload.repo.name] : []))).toEqual([
      ['oldname', 'NewName'],
      ['NewName', 'newNAME'],
    ]);
  });

  test('concurrent renames of one repository: one wins, the others are 409, and row and storage agree', async () => {
    await createRepo(s, owner, { name: 'racing', auto_init: true });
    const names = Array.from({ length: 8 }, (_, i) => `raced${i}`);
    // Not following redirects: a late request meets the old name's redirect to the winner.
    const answers = await Promise.all(names.map((name) => s.fetch(`/api/v1/repos/${owner.name}/racing`, { ...jsonInit('PATCH', { name }, owner.h), redirect: 'manual' })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((st) => st === 200)).toHaveLength(1);
    // The others lost: the repository they loaded was renamed under them (or was already renamed from that name).
    expect(statuses.every((st) => st === 200 || st === 409 || st === 301)).toBe(true);
    const winner = names[statuses.indexOf(200)]!;
    expect((await s.fetch(`/api/v1/repos/${owner.name}/${winner}`, { headers: owner.h })).status).toBe(200);
    for (const name of ['racing', ...names]) expect(await s.host.git.exists(storageKey(owner.name, name))).toBe(name === winner);
    expect(await s.host.repoStorage.pending()).toEqual([]);
  });

  test('rename onto a taken name (row or stray storage, any case) is 422 and changes nothing', async () => {
    await createRepo(s, owner, { name: 'taken' });
    await createRepo(s, owner, { name: 'mover', description: 'm' });
    for (const name of ['taken', 'TAKEN']) {
      const message = await expectApiError(await patch(s, owner, `${owner.name}/mover`, { name, description: 'changed' }), 422, s.url);
      expect(message).toContain('already exists');
    }
    await s.host.git.create(storageKey(owner.name, 'stray'), { objectFormat: 'sha1', defaultBranch: 'main' });
    await expectApiError(await patch(s, owner, `${owner.name}/mover`, { name: 'stray' }), 422, s.url);
    const got = await json(await s.fetch(`/api/v1/repos/${owner.name}/mover`, { headers: owner.h }));
    expect(got).toMatchObject({ name: 'mover', description: 'm' });
    expect(await s.host.git.exists(storageKey(owner.name, 'mover'))).toBe(true);
  });

  test('invalid new names are 422 and nothing changes', async () => {
    await createRepo(s, owner, { name: 'keepname' });
    const names = ['', '..', '.', '-', 'a/b', '../x', 'x.git', 'X.GIT', 'y.wiki', 'a b', 'tab\tname', 'nul\u0000', 'ctl\u0001', 'ä', 'x'.repeat(101)];
    for (const name of names) {
      await expectApiError(await patch(s, owner, `${owner.name}/keepname`, { name }), 422, s.url);
    }
    await expectApiError(await patch(s, owner, `${owner.name}/keepname`, { name: 42 }), 422, s.url);
    expect((await json(await s.fetch(`/api/v1/repos/${owner.name}/keepname`, { headers: owner.h }))).name).toBe('keepname');
    expect(await s.host.git.exists(storageKey(owner.name, 'keepname'))).toBe(true);
  });

  test('default branch: an existing branch moves git HEAD; a missing one is ignored; an empty repository takes any valid name', async () => {
    await createRepo(s, owner, { name: 'branches', auto_init: true });
    const key = storageKey(owner.name, 'branches');
    await s.host.git.commitFiles(key, { branch: 'dev', message: 'm', author: { name: 'a', email: 'a@b.c' }, files: [{ path: 'f', content: 'x' }] });
    const moved = await json(await patch(s, owner, `${owner.name}/branches`, { default_branch: 'dev' }));
    expect(moved.default_branch).toBe('dev');
    expect((await s.host.git.describe(key)).headBranch).toBe('dev');
    const ignored = await patch(s, owner, `${owner.name}/branches`, { default_branch: 'nope' });
    expect(ignored.status).toBe(200);
    expect((await json(ignored)).default_branch).toBe('dev');
    expect((await s.host.git.describe(key)).headBranch).toBe('dev');

    await createRepo(s, owner, { name: 'blankbr' });
    const blankKey = storageKey(owner.name, 'blankbr');
    expect((await json(await patch(s, owner, `${owner.name}/blankbr`, { default_branch: 'trunk' }))).default_branch).toBe('trunk');
    expect((await s.host.git.describe(blankKey)).headBranch).toBe('trunk');
    for (const bad of ['a..b', '-x', 'has space', 'x.lock']) {
      await expectApiError(await patch(s, owner, `${owner.name}/blankbr`, { default_branch: bad }), 422, s.url);
    }
    expect((await s.host.git.describe(blankKey)).headBranch).toBe('trunk');
  });

  test('rename and default branch together: HEAD is set in the storage at its new place', async () => {
    await createRepo(s, owner, { name: 'both', auto_init: true });
    await s.host.git.commitFiles(storageKey(owner.name, 'both'), { branch: 'next', message: 'm', author: { name: 'a', email: 'a@b.c' }, files: [{ path: 'f', content: 'x' }] });
    const res = await json(await patch(s, owner, `${owner.name}/both`, { name: 'both2', default_branch: 'next' }));
    expect(res).toMatchObject({ name: 'both2', default_branch: 'next' });
    expect((await s.host.git.describe(storageKey(owner.name, 'both2'))).headBranch).toBe('next');
  });

  test('archive and unarchive: archived_at is set and cleared; an archived repository refuses pushes', async () => {
    await createRepo(s, owner, { name: 'shelf' });
    const archived = await json(await patch(s, owner, `${owner.name}/shelf`, { archived: true }));
    expect(archived.archived).toBe(true);
    expect(Date.parse(archived.archived_at)).toBeGreaterThan(Date.parse('2020-01-01'));
    const push = await s.fetch(`/${owner.name}/shelf.git/info/refs?service=git-receive-pack`, { headers: { Authorization: `Basic ${Buffer.from(`${owner.name}:correct-horse-battery`).toString('base64')}` } });
    expect(push.status).toBe(403);
    const restored = await json(await patch(s, owner, `${owner.name}/shelf`, { archived: false }));
    expect(restored).toMatchObject({ archived: false, archived_at: '0001-01-01T00:00:00Z' });
  });

  test('units: trackers and wikis internal or external, units on and off, merge settings', async () => {
    await createRepo(s, owner, { name: 'units' });
    const path = `${owner.name}/units`;
    const ext = await json(await patch(s, owner, path, {
      has_issues: true,
      external_tracker: { external_tracker_url: 'https://tracker.example.com/', external_tracker_format: 'https://tracker.example.com/{user}/{repo}/issues/{index}', external_tracker_style: 'numeric' },
      external_wiki: { external_wiki_url: 'https://wiki.example.com/' },
      has_wiki: true,
    }));
    expectRepository(ext);
    expect(ext).toMatchObject({
      has_issues: true,
      internal_tracker: null,
      external_tracker: { external_tracker_url: 'https://tracker.example.com/', external_tracker_style: 'numeric', external_tracker_regexp_pattern: '' },
      has_wiki: true,
      external_wiki: { external_wiki_url: 'https://wiki.example.com/' },
    });
    // Editing something else keeps the external tracker.
    expect((await json(await patch(s, owner, path, { description: 'x' }))).external_tracker).not.toBeNull();

    const internal = await json(await patch(s, owner, path, { has_issues: true, internal_tracker: { enable_time_tracker: false, enable_issue_dependencies: true }, has_wiki: true, globally_editable_wiki: true }));
    expect(internal).toMatchObject({
      external_tracker: null,
      internal_tracker: { enable_time_tracker: false, allow_only_contributors_to_track_time: false, enable_issue_dependencies: true },
      external_wiki: null,
      has_wiki: true,
      globally_editable_wiki: true,
    });

    const off = await json(await patch(s, owner, path, { has_issues: false, has_wiki: false, has_pull_requests: false, has_projects: false, has_releases: false, has_packages: false, has_actions: false }));
    expect(off).toMatchObject({ has_issues: false, internal_tracker: null, has_wiki: false, has_pull_requests: false, has_projects: false, has_releases: false, has_packages: false, has_actions: false });
    // Merge settings wait for pull requests to be on.
    expect((await json(await patch(s, owner, path, { allow_rebase: false }))).allow_rebase).toBe(true);

    const pulls = await json(await patch(s, owner, path, { has_pull_requests: true, has_projects: true, allow_rebase: false, allow_squash_merge: false, default_merge_style: 'squash', default_update_style: 'rebase', default_delete_branch_after_merge: true, default_allow_maintainer_edit: true, ignore_whitespace_conflicts: true }));
    expect(pulls).toMatchObject({ has_pull_requests: true, has_projects: true, allow_rebase: false, allow_squash_merge: false, allow_merge_commits: true, default_merge_style: 'squash', default_update_style: 'rebase', default_delete_branch_after_merge: true, default_allow_maintainer_edit: true, ignore_whitespace_conflicts: true });
    expect((await json(await patch(s, owner, path, { default_merge_style: 'rebase-update-only' }))).default_merge_style).toBe('rebase-update-only');
  });

  test('invalid tracker and wiki URLs, and unknown merge styles, are 422 and change nothing', async () => {
    await createRepo(s, owner, { name: 'badunits' });
    const path = `${owner.name}/badunits`;
    const badUrls = ['', 'not a url', 'ftp://example.com/', 'http://localhost/x', 'http://127.0.0.1:3000/', 'http://[::1]/', `${s.url}api/v1/repos`, 'https://exa mple.com/', 'https://example.com:99999999999/'];
    for (const url of badUrls) {
      await expectApiError(await patch(s, owner, path, { has_issues: true, external_tracker: { external_tracker_url: url } }), 422, s.url);
      await expectApiError(await patch(s, owner, path, { has_wiki: true, external_wiki: { external_wiki_url: url } }), 422, s.url);
    }
    for (const format of ['https://t.example.com/{index', 'https://t.example.com/user}/{repo}', 'mailto:x@example.com']) {
      await expectApiError(await patch(s, owner, path, { has_issues: true, external_tracker: { external_tracker_url: 'https://t.example.com/', external_tracker_format: format } }), 422, s.url);
    }
    await expectApiError(await patch(s, owner, path, { default_merge_style: 'octopus' }), 422, s.url);
    await expectApiError(await patch(s, owner, path, { default_update_style: 'squash' }), 422, s.url);
    await expectApiError(await patch(s, owner, path, { website: 'x'.repeat(1025) }), 422, s.url);
    await expectApiError(await patch(s, owner, path, { description: 'x'.repeat(2049) }), 422, s.url);
    await expectApiError(await patch(s, owner, path, { private: 'yes' }), 422, s.url);
    await expectApiError(await patch(s, owner, path, '{"name": '), 422, s.url);
    const got = await json(await s.fetch(`/api/v1/repos/${path}`, { headers: owner.h }));
    expect(got).toMatchObject({ external_tracker: null, external_wiki: null, has_issues: true, default_merge_style: 'merge', website: '', description: '' });
  });

  test('mirror settings on a repository that is not a mirror are ignored', async () => {
    await createRepo(s, owner, { name: 'notmirror' });
    for (const body of [{ enable_prune: false }, { mirror_interval: '8h0m0s', enable_prune: true }, { mirror_interval: 'garbage' }]) {
      const res = await patch(s, owner, `${owner.name}/notmirror`, body);
      expect(res.status).toBe(200);
      expect(await json(res)).toMatchObject({ mirror: false, mirror_interval: '' });
    }
  });

  test('who may edit: 401 anonymously, 403 for a reader, 404 for a private repository they cannot see, 200 for a site admin; write:repository needed', async () => {
    await createRepo(s, owner, { name: 'guarded', description: 'orig' });
    await createRepo(s, owner, { name: 'hidden', private: true });
    await expectApiError(await patch(s, undefined, `${owner.name}/guarded`, { description: 'x' }), 401, s.url);
    await expectApiError(await patch(s, other, `${owner.name}/guarded`, { description: 'x' }), 403, s.url);
    // Refused before the body is read, as Forgejo's reqAdmin does.
    await expectApiError(await patch(s, other, `${owner.name}/guarded`, { name: '../x', private: 'no' }), 403, s.url);
    await expectApiError(await patch(s, other, `${owner.name}/hidden`, { description: 'x' }), 404, s.url);
    await expectApiError(await patch(s, other, `${owner.name}/nothere`, { description: 'x' }), 404, s.url);
    const readOnly = { name: owner.name, h: tokenHeader(await createToken(s.host, owner.name, ['read:repository'])) };
    await expectApiError(await patch(s, readOnly, `${owner.name}/guarded`, { description: 'x' }), 403, s.url);
    expect((await json(await s.fetch(`/api/v1/repos/${owner.name}/guarded`))).description).toBe('orig');
    const byAdmin = await json(await patch(s, admin, `${owner.name}/guarded`, { description: 'by admin' }));
    expect(byAdmin).toMatchObject({ description: 'by admin', permissions: { admin: true, push: true, pull: true } });
  });
});
