/**
 * Branches (`/repos/{owner}/{repo}/branches…`) over real git, sha1 and sha256 repositories: list, get, create,
 * delete, rename and move, checked against the refs the `git` binary reads afterwards.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BranchSchema, NativeGitBackend, RefConflictError, RepositorySchema, matchesSchema, type User } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

let s: TestServer;
let alice: User;
let h: Record<string, string>;
let bobH: Record<string, string>;

function git(repoName: string, args: string[], input?: string): Promise<string> {
  const dir = path.join(s.host.settings.repository.ROOT, alice.lower_name, `${repoName.toLowerCase()}.git`);
  return new Promise((resolve, reject) => {
    const child = execFile('git', ['--git-dir', dir, ...args], { env: { PATH: process.env.PATH, HOME: '/nonexistent', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' } }, (error, stdout, stderr) =>
      error ? reject(new Error(`git ${args.join(' ')}: ${stderr}`)) : resolve(String(stdout).trim()),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

async function createRepo(body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('br');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { auto_init: true, ...body, name }, h));
  expect(res.status).toBe(201);
  return name;
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s.host, uniq('alice'));
  const bob = await createUser(s.host, uniq('bob'));
  h = tokenHeader(await createToken(s.host, alice.name));
  bobH = tokenHeader(await createToken(s.host, bob.name));
});

afterAll(async () => {
  await s?.cleanup();
});

describe.each(['sha1', 'sha256'])('branches in a %s repository', (format) => {
  let repo: string;
  let base: string;
  let mainId: string;

  beforeAll(async () => {
    repo = await createRepo({ object_format_name: format });
    base = `/api/v1/repos/${alice.name}/${repo}`;
    mainId = await git(repo, ['rev-parse', 'refs/heads/main']);
    expect(mainId).toHaveLength(format === 'sha1' ? 40 : 64);
  });

  test('lists and reads the default branch with its commit', async () => {
    const res = await s.fetch(`${base}/branches`, { headers: h });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('1');
    const list = await json<any[]>(res);
    expect(list).toHaveLength(1);
    const [main] = list;
    expect(matchesSchema(BranchSchema, main)).toBe(true);
    expect(main).toMatchObject({
      name: 'main',
      protected: false,
      required_approvals: 0,
      enable_status_check: false,
      status_check_contexts: [],
      user_can_push: true,
      user_can_merge: true,
      effective_branch_protection_name: '',
    });
    expect(main.commit).toMatchObject({
      id: mainId,
      message: 'Initial commit\n',
      url: `${s.url}${alice.name}/${repo}/commit/${mainId}`,
      author: { name: alice.name, email: alice.email, username: alice.name },
      committer: { username: alice.name },
      verification: { verified: false, reason: 'gpg.error.not_signed_commit', signer: null },
      added: null,
      removed: null,
      modified: null,
    });
    expect(main.commit.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
    const one = await s.fetch(`${base}/branches/main`, { headers: h });
    expect(one.status).toBe(200);
    expect(await json(one)).toEqual(main);
    // Anonymous readers of a public repository see it too, without push rights.
    const anon = await json<any>(await s.fetch(`${base}/branches/main`));
    expect(anon).toMatchObject({ user_can_push: false, user_can_merge: false });
  });

  test('creates branches from the default branch, a commit, a tag or the deprecated old_branch_name', async () => {
    const created = await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: 'feature/one' }, h));
    expect(created.status).toBe(201);
    const body = await json<any>(created);
    expect(matchesSchema(BranchSchema, body)).toBe(true);
    expect(body).toMatchObject({ name: 'feature/one', commit: { id: mainId } });
    expect(await git(repo, ['rev-parse', 'refs/heads/feature/one'])).toBe(mainId);
    // A name with slashes is one path parameter.
    expect((await json<any>(await s.fetch(`${base}/branches/feature/one`, { headers: h }))).name).toBe('feature/one');

    const fromCommit = await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: 'from-commit', old_ref_name: mainId }, h));
    expect(fromCommit.status).toBe(201);
    const fromOld = await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: 'from-old', old_branch_name: 'feature/one' }, h));
    expect(fromOld.status).toBe(201);
    await git(repo, ['tag', 'v-lw', mainId]);
    const fromTag = await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: 'from-tag', old_ref_name: 'v-lw' }, h));
    expect(fromTag.status).toBe(201);
    expect((await json<any>(fromTag)).commit.id).toBe(mainId);

    const refs = (await git(repo, ['for-each-ref', '--format=%(refname)', 'refs/heads'])).split('\n');
    expect(refs.sort()).toEqual(['refs/heads/feature/one', 'refs/heads/from-commit', 'refs/heads/from-old', 'refs/heads/from-tag', 'refs/heads/main']);

    // Recorded as a push: the repository's push log names the new ref.
    const access = await s.host.repos.resolve({ kind: 'user', user: alice } as never, alice.name, repo);
    const pushes = await s.host.repos.latestPushes(access, 10);
    expect(pushes.map((p) => p.ref_name)).toContain('refs/heads/from-tag');
  });

  test('refuses duplicates (409), missing sources (404) and invalid names (422)', async () => {
    await expectApiError(await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: 'main' }, h)), 409, s.url);
    await expectApiError(await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: 'x1', old_ref_name: 'nope' }, h)), 404, s.url);
    await expectApiError(await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: 'x2', old_branch_name: 'nope' }, h)), 404, s.url);
    await expectApiError(await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: 'x3', old_ref_name: '--all' }, h)), 404, s.url);
    for (const bad of ['--foo', 'a..b', 'HEAD', 'x.lock', 'a b', 'a:b', '/lead', 'tail/', '', 'a@{1}', 'x~1']) {
      await expectApiError(await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: bad }, h)), 422, s.url);
    }
    await expectApiError(await s.fetch(`${base}/branches/does-not-exist`, { headers: h }), 404, s.url);
    await expectApiError(await s.fetch(`${base}/branches/--all`, { headers: h }), 404, s.url);
  });

  test('lists a page at a time, newest commit first then by name', async () => {
    const res = await s.fetch(`${base}/branches?limit=2&page=2`, { headers: h });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('5');
    expect(res.headers.get('link')).toContain('rel="next"');
    const names = (await json<any[]>(res)).map((b) => b.name);
    // Every branch is at the same commit: the order is by name (feature/one, from-commit | from-old, from-tag | main).
    expect(names).toEqual(['from-old', 'from-tag']);
  });

  test('deletes a branch (204), not the default one (403), 404 for unknown', async () => {
    await expectApiError(await s.fetch(`${base}/branches/main`, { method: 'DELETE', headers: h }), 403, s.url);
    await expectApiError(await s.fetch(`${base}/branches/nope`, { method: 'DELETE', headers: h }), 404, s.url);
    const res = await s.fetch(`${base}/branches/from-old`, { method: 'DELETE', headers: h });
    expect(res.status).toBe(204);
    await expectApiError(await s.fetch(`${base}/branches/from-old`, { headers: h }), 404, s.url);
    expect(await git(repo, ['for-each-ref', '--format=%(refname)', 'refs/heads/from-old'])).toBe('');
  });

  test('renames a branch; renaming the default branch makes the new name the default', async () => {
    const res = await s.fetch(`${base}/branches/from-commit`, jsonInit('PATCH', { name: 'renamed' }, h));
    expect(res.status).toBe(204);
    expect(await git(repo, ['for-each-ref', '--format=%(refname)', 'refs/heads/from-commit'])).toBe('');
    expect(await git(repo, ['rev-parse', 'refs/heads/renamed'])).toBe(mainId);
    await expectApiError(await s.fetch(`${base}/branches/renamed`, jsonInit('PATCH', { name: 'main' }, h)), 422, s.url);
    await expectApiError(await s.fetch(`${base}/branches/renamed`, jsonInit('PATCH', { name: 'renamed' }, h)), 422, s.url);
    await expectApiError(await s.fetch(`${base}/branches/renamed`, jsonInit('PATCH', { name: 'bad..name' }, h)), 422, s.url);
    await expectApiError(await s.fetch(`${base}/branches/nope`, jsonInit('PATCH', { name: 'other' }, h)), 404, s.url);

    expect((await s.fetch(`${base}/branches/main`, jsonInit('PATCH', { name: 'trunk' }, h))).status).toBe(204);
    const repoBody = await json<any>(await s.fetch(base, { headers: h }));
    expect(matchesSchema(RepositorySchema, repoBody)).toBe(true);
    expect(repoBody.default_branch).toBe('trunk');
    expect(await git(repo, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/trunk');
    await expectApiError(await s.fetch(`${base}/branches/trunk`, { method: 'DELETE', headers: h }), 403, s.url);
  });

  test('moves a branch forward, refuses a stale old id or a rewind without force (422)', async () => {
    const tree = await git(repo, ['rev-parse', `${mainId}^{tree}`]);
    const next = await git(repo, ['commit-tree', tree, '-p', mainId, '-m', 'next']);
    const put = (body: unknown) => s.fetch(`${base}/branches/renamed`, jsonInit('PUT', body, h));
    expect((await put({ new_commit_id: next, old_commit_id: mainId })).status).toBe(204);
    expect(await git(repo, ['rev-parse', 'refs/heads/renamed'])).toBe(next);
    await expectApiError(await put({ new_commit_id: next, old_commit_id: mainId }), 422, s.url);
    await expectApiError(await put({ new_commit_id: mainId }), 422, s.url);
    await expectApiError(await put({ new_commit_id: 'f'.repeat(mainId.length) }), 404, s.url);
    expect((await put({ new_commit_id: mainId, old_commit_id: next, force: true })).status).toBe(204);
    expect(await git(repo, ['rev-parse', 'refs/heads/renamed'])).toBe(mainId);
  });
});

describe('ref moves are checked against the old id', () => {
  test('a ref that moved since it was read makes the whole update fail, changing nothing', async () => {
    const repo = await createRepo();
    const key = { owner: alice.lower_name, name: repo.toLowerCase() };
    const backend = new NativeGitBackend({ root: s.host.settings.repository.ROOT });
    const mainId = await git(repo, ['rev-parse', 'refs/heads/main']);
    const tree = await git(repo, ['rev-parse', `${mainId}^{tree}`]);
    const next = await git(repo, ['commit-tree', tree, '-p', mainId, '-m', 'next']);
    const zero = '0'.repeat(mainId.length);
    // Someone moved main after we read it: the rename-like pair (create + delete) must not half-happen.
    await git(repo, ['update-ref', 'refs/heads/main', next, mainId]);
    await expect(
      backend.updateRefs(key, [
        { ref: 'refs/heads/copy', oldId: zero, newId: mainId },
        { ref: 'refs/heads/main', oldId: mainId, newId: zero },
      ]),
    ).rejects.toBeInstanceOf(RefConflictError);
    expect(await git(repo, ['for-each-ref', '--format=%(refname)', 'refs/heads'])).toBe('refs/heads/main');
    expect(await git(repo, ['rev-parse', 'refs/heads/main'])).toBe(next);
    // Creating a ref that exists is refused the same way.
    await expect(backend.updateRefs(key, [{ ref: 'refs/heads/main', oldId: zero, newId: mainId }])).rejects.toBeInstanceOf(RefConflictError);
    // Names that could reach git as options or patterns never do.
    await expect(backend.updateRefs(key, [{ ref: '--foo', oldId: zero, newId: mainId }])).rejects.toThrow(/invalid ref update/);
    expect((await backend.refDetails(key, 'branches', { names: ['*', 'ma?n', '--all'] })).refs).toEqual([]);
  });
});

describe('a branch delete and a default-branch change at once', () => {
  test('never leave the default branch deleted: each round, the default names a branch git has and HEAD points at it', async () => {
    const repo = await createRepo();
    const base = `/api/v1/repos/${alice.name}/${repo}`;
    for (let round = 0; round < 6; round++) {
      const branch = `race-${round}`;
      expect((await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: branch }, h))).status).toBe(201);
      const [edit, del] = await Promise.all([
        s.fetch(base, jsonInit('PATCH', { default_branch: branch }, h)),
        s.fetch(`${base}/branches/${branch}`, { method: 'DELETE', headers: h }),
      ]);
      expect(edit.status).toBe(200);
      // Deleted first (then the change finds no such branch and leaves the default), or refused as the default.
      expect([204, 403]).toContain(del.status);
      const now = await json<{ default_branch: string }>(await s.fetch(base, { headers: h }));
      const heads = (await git(repo, ['for-each-ref', '--format=%(refname:short)', 'refs/heads'])).split('\n');
      expect(heads).toContain(now.default_branch);
      expect(await git(repo, ['symbolic-ref', '--short', 'HEAD'])).toBe(now.default_branch);
      expect(now.default_branch).toBe(del.status === 204 ? 'main' : branch);
      // Back to main for the next round.
      if (now.default_branch !== 'main') expect((await s.fetch(base, jsonInit('PATCH', { default_branch: 'main' }, h))).status).toBe(200);
    }
  });
});

describe('renaming a branch keeps its pull requests', () => {
  test('open pull requests into it and from it follow the new name; a merged one keeps the old', async () => {
    const repo = await createRepo();
    const base = `/api/v1/repos/${alice.name}/${repo}`;
    const mainId = await git(repo, ['rev-parse', 'refs/heads/main']);
    const tree = await git(repo, ['rev-parse', `${mainId}^{tree}`]);
    // Two branches with a commit each over main: `topic` into `dev`, and `done` (merged into dev) from dev's start.
    const topicId = await git(repo, ['commit-tree', tree, '-p', mainId, '-m', 'topic work']);
    const doneId = await git(repo, ['commit-tree', tree, '-p', mainId, '-m', 'done work']);
    await git(repo, ['update-ref', 'refs/heads/topic', topicId]);
    await git(repo, ['update-ref', 'refs/heads/done', doneId]);
    await git(repo, ['update-ref', 'refs/heads/dev', mainId]);
    // Made through git directly: the pushes are recorded by a resync when the pulls read the tips.
    const open = async (head: string, baseBranch: string) => {
      const res = await s.fetch(`${base}/pulls`, jsonInit('POST', { head, base: baseBranch, title: `${head} into ${baseBranch}` }, h));
      expect(res.status, await res.clone().text()).toBe(201);
      return (await json<{ number: number }>(res)).number;
    };
    const topicPull = await open('topic', 'dev');
    const donePull = await open('done', 'dev');
    const merged = await s.fetch(`${base}/pulls/${donePull}/merge`, jsonInit('POST', { Do: 'merge' }, h));
    expect(merged.status, await merged.clone().text()).toBe(200);

    expect((await s.fetch(`${base}/branches/dev`, jsonInit('PATCH', { name: 'develop' }, h))).status).toBe(204);
    expect((await s.fetch(`${base}/branches/topic`, jsonInit('PATCH', { name: 'topic-2' }, h))).status).toBe(204);

    const pull = await json<{ base: { ref: string }; head: { ref: string; sha: string }; state: string }>(await s.fetch(`${base}/pulls/${topicPull}`, { headers: h }));
    expect(pull).toMatchObject({ state: 'open', base: { ref: 'develop' }, head: { ref: 'topic-2', sha: topicId } });
    const done = await json<{ base: { ref: string }; head: { ref: string }; merged: boolean }>(await s.fetch(`${base}/pulls/${donePull}`, { headers: h }));
    expect(done).toMatchObject({ merged: true, base: { ref: 'dev' }, head: { ref: 'done' } });
    // Listed by the new base name, and the pull request can still be merged from its renamed head.
    const listed = await json<{ number: number }[]>(await s.fetch(`${base}/pulls?state=open&base_branch=develop`, { headers: h }));
    expect(listed.map((p) => p.number)).toContain(topicPull);
    const mergedTopic = await s.fetch(`${base}/pulls/${topicPull}/merge`, jsonInit('POST', { Do: 'merge' }, h));
    expect(mergedTopic.status, await mergedTopic.clone().text()).toBe(200);
    expect(await git(repo, ['merge-base', '--is-ancestor', topicId, 'refs/heads/develop']).then(() => true)).toBe(true);
  });
});

describe('signed commits', () => {
  test("a branch's commit carries its signature and the verification outcome", async () => {
    const repo = await createRepo();
    const mainId = await git(repo, ['rev-parse', 'refs/heads/main']);
    const keyDir = await mkdtemp(path.join(tmpdir(), 'sshsig-'));
    const keyFile = path.join(keyDir, 'key');
    await new Promise<void>((resolve, reject) =>
      execFile('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile], (error) => (error ? reject(error) : resolve())),
    );
    const tree = await git(repo, ['rev-parse', `${mainId}^{tree}`]);
    const signed = await git(repo, ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${keyFile}`, 'commit-tree', '-S', tree, '-p', mainId, '-m', 'signed']);
    await rm(keyDir, { recursive: true, force: true });
    const base = `/api/v1/repos/${alice.name}/${repo}`;
    const res = await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: 'signed', old_ref_name: signed }, h));
    expect(res.status).toBe(201);
    const branch = await json<any>(res);
    expect(matchesSchema(BranchSchema, branch)).toBe(true);
    expect(branch.commit.id).toBe(signed);
    // No registered key can vouch for it: not verified, but the signature and what it signed are shown.
    expect(branch.commit.verification).toMatchObject({ verified: false, reason: 'gpg.error.no_gpg_keys_found', signer: null });
    expect(branch.commit.verification.signature).toMatch(/^-----BEGIN SSH SIGNATURE-----/);
    expect(branch.commit.verification.payload).toContain(`tree ${tree}\nparent ${mainId}\n`);
  });
});

describe('who may write branches', () => {
  test('anonymous 401, a reader 403, a private repository 404 to others, an archived one 423', async () => {
    const repo = await createRepo();
    const base = `/api/v1/repos/${alice.name}/${repo}`;
    await expectApiError(await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: 'x' })), 401, s.url);
    await expectApiError(await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: 'x' }, bobH)), 403, s.url);
    await expectApiError(await s.fetch(`${base}/branches/main`, { method: 'DELETE', headers: bobH }), 403, s.url);
    await expectApiError(await s.fetch(`${base}/branches/main`, jsonInit('PATCH', { name: 'y' }, bobH)), 403, s.url);
    expect((await s.fetch(`${base}/branches`, { headers: bobH })).status).toBe(200);

    const priv = await createRepo({ private: true });
    const privBase = `/api/v1/repos/${alice.name}/${priv}`;
    await expectApiError(await s.fetch(`${privBase}/branches`, { headers: bobH }), 404, s.url);
    await expectApiError(await s.fetch(`${privBase}/branches/main`), 404, s.url);
    await expectApiError(await s.fetch(`${privBase}/branches`, jsonInit('POST', { new_branch_name: 'x' }, bobH)), 404, s.url);

    expect((await s.fetch(base, jsonInit('PATCH', { archived: true }, h))).status).toBe(200);
    await expectApiError(await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: 'x' }, h)), 423, s.url);
    await expectApiError(await s.fetch(`${base}/branches/main`, { method: 'DELETE', headers: h }), 423, s.url);
    await expectApiError(await s.fetch(`${base}/branches/main`, jsonInit('PATCH', { name: 'y' }, h)), 423, s.url);
    expect((await s.fetch(`${base}/branches`, { headers: h })).status).toBe(200);
  });

  test('a listing says what holds now, however often it was listed before: viewer, rule, repository and account names', async () => {
    // The JSON of a listed branch is kept across requests (per commit); each change below must still show at once.
    const carolName = uniq('carol');
    const carol = await createUser(s.host, carolName);
    const carolH = tokenHeader(await createToken(s.host, carolName));
    const adminName = uniq('adm');
    await createUser(s.host, adminName, { admin: true });
    const adminH = tokenHeader(await createToken(s.host, adminName));
    const name = uniq('kept');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true }, carolH))).status).toBe(201);
    let owner = carolName;
    let repoName = name;
    const base = () => `/api/v1/repos/${owner}/${repoName}`;
    // Two branches at one commit.
    expect((await s.fetch(`${base()}/branches`, jsonInit('POST', { new_branch_name: 'same' }, carolH))).status).toBe(201);
    const list = async (headers?: Record<string, string>) => {
      const res = await s.fetch(`${base()}/branches`, headers ? { headers } : {});
      expect(res.status).toBe(200);
      const branches = await json<any[]>(res);
      return Object.fromEntries(branches.map((b) => [b.name, b]));
    };
    const first = await list(carolH);
    const id = first.main.commit.id as string;
    expect(first.same.commit.id).toBe(id);
    const commitOf = () => ({ id, url: `${s.url}${owner}/${repoName}/commit/${id}`, author: { email: carol.email, username: owner }, committer: { username: owner } });
    const unprotected = (push: boolean) => ({ protected: false, required_approvals: 0, enable_status_check: false, status_check_contexts: [], user_can_push: push, user_can_merge: push, effective_branch_protection_name: '' });
    for (let round = 0; round < 2; round++) {
      const mine = await list(carolH);
      expect(mine.main).toMatchObject({ name: 'main', commit: commitOf(), ...unprotected(true) });
      expect(mine.same).toMatchObject({ name: 'same', commit: commitOf(), ...unprotected(true) });
      // Another viewer of the same commits: a reader, then anonymous.
      for (const headers of [bobH, undefined]) {
        const theirs = await list(headers);
        expect(theirs.main).toMatchObject({ name: 'main', commit: commitOf(), ...unprotected(false) });
        expect(theirs.same).toMatchObject({ name: 'same', ...unprotected(false) });
      }
    }

    // A rule on main: protected for everyone, named only for the repository's administrator.
    const rule = await s.fetch(`${base()}/branch_protections`, jsonInit('POST', { rule_name: 'main', required_approvals: 2, enable_status_check: true, status_check_contexts: ['ci/a"b'] }, carolH));
    expect(rule.status).toBe(201);
    const ruled = { protected: true, required_approvals: 2, enable_status_check: true, status_check_contexts: ['ci/a"b'] };
    expect((await list(carolH)).main).toMatchObject({ ...ruled, user_can_push: false, effective_branch_protection_name: 'main' });
    expect((await list(carolH)).same).toMatchObject(unprotected(true));
    expect((await list(bobH)).main).toMatchObject({ ...ruled, user_can_push: false, user_can_merge: false, effective_branch_protection_name: '' });
    // The rule edited: pushes allowed for the owner, another number of approvals, no checks.
    const edited = await s.fetch(`${base()}/branch_protections/main`, jsonInit('PATCH', { required_approvals: 3, enable_status_check: false, status_check_contexts: [], enable_push: true }, carolH));
    expect(edited.status).toBe(200);
    expect((await list(carolH)).main).toMatchObject({ protected: true, required_approvals: 3, enable_status_check: false, status_check_contexts: [], user_can_push: true, effective_branch_protection_name: 'main' });
    // The rule gone.
    expect((await s.fetch(`${base()}/branch_protections/main`, { method: 'DELETE', headers: carolH })).status).toBe(204);
    expect((await list(carolH)).main).toMatchObject({ commit: commitOf(), ...unprotected(true) });

    // A commit by another account, renamed: its username follows (the commit's URL stays).
    const daveName = uniq('dave');
    const dave = await createUser(s.host, daveName);
    const byDave = await s.fetch(
      `${base()}/contents/dave.txt`,
      jsonInit('POST', { content: Buffer.from('d\n').toString('base64'), new_branch: 'by-dave', author: { name: 'Dave', email: dave.email }, committer: { name: 'Carol', email: carol.email } }, carolH),
    );
    expect(byDave.status).toBe(201);
    const committedByDave = await s.fetch(
      `${base()}/contents/dave2.txt`,
      jsonInit('POST', { content: Buffer.from('c\n').toString('base64'), new_branch: 'committed-by-dave', author: { name: 'Carol', email: carol.email }, committer: { name: 'Dave', email: dave.email } }, carolH),
    );
    expect(committedByDave.status).toBe(201);
    const before = await list(carolH);
    expect(before['by-dave'].commit).toMatchObject({ author: { email: dave.email, username: daveName }, committer: { username: owner } });
    expect(before['committed-by-dave'].commit).toMatchObject({ author: { username: owner }, committer: { email: dave.email, username: daveName } });
    const daveNext = uniq('dave2');
    expect((await s.fetch(`/api/v1/admin/users/${daveName}/rename`, jsonInit('POST', { new_username: daveNext }, adminH))).status).toBe(204);
    const renamedDave = await list(carolH);
    expect(renamedDave['by-dave'].commit).toEqual({ ...before['by-dave'].commit, author: { ...before['by-dave'].commit.author, username: daveNext } });
    expect(renamedDave['committed-by-dave'].commit).toEqual({ ...before['committed-by-dave'].commit, committer: { ...before['committed-by-dave'].commit.committer, username: daveNext } });

    // The repository renamed: the commit URLs follow.
    const renamed = uniq('kept2');
    expect((await s.fetch(base(), jsonInit('PATCH', { name: renamed }, carolH))).status).toBe(200);
    repoName = renamed;
    expect((await list(carolH)).main).toMatchObject({ commit: commitOf(), ...unprotected(true) });
    // The account renamed: its commits' username and the URLs follow.
    const next = uniq('carol2');
    expect((await s.fetch(`/api/v1/admin/users/${carolName}/rename`, jsonInit('POST', { new_username: next }, adminH))).status).toBe(204);
    owner = next;
    const after = await list(carolH);
    expect(after.main).toMatchObject({ commit: commitOf(), ...unprotected(true) });
    expect(after.same).toMatchObject({ commit: commitOf(), ...unprotected(true) });
    expect((await list(bobH)).main).toMatchObject({ commit: commitOf(), ...unprotected(false) });
  });

  test('an empty repository has no branches and nothing to branch from', async () => {
    const repo = await createRepo({ auto_init: false });
    const base = `/api/v1/repos/${alice.name}/${repo}`;
    const res = await s.fetch(`${base}/branches`, { headers: h });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual([]);
    await expectApiError(await s.fetch(`${base}/branches`, jsonInit('POST', { new_branch_name: 'x' }, h)), 404, s.url);
  });
});
