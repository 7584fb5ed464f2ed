/**
 * `POST /repos/{owner}/{repo}/diffpatch` (Forgejo's ApplyDiffPatch): a unified diff applied as one commit on a branch
 * or on a new one, over real SQLite and git, through the contents writes' checks (write access, archive, branch
 * rules) and with the push's webhook. Repositories are made and filled through the API only.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FileResponseSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, expectApiError, json, uniq, type Account } from './helpers';
import { startReceiver, type Receiver } from './webhook-receiver';

let s: TestServer;
let receiver: Receiver;
let alice: Account;
let bob: Account;
let carol: Account;

const FIX_B = ['diff --git a/f.txt b/f.txt', '--- a/f.txt', '+++ b/f.txt', '@@ -1,3 +1,3 @@', ' a', '-b', '+B', ' c', ''].join('\n');
const ADD_FILE = ['diff --git a/docs/new.md b/docs/new.md', 'new file mode 100644', '--- /dev/null', '+++ b/docs/new.md', '@@ -0,0 +1 @@', '+hello', ''].join('\n');
const STALE = ['--- a/f.txt', '+++ b/f.txt', '@@ -1,3 +1,3 @@', ' a', '-nothing like this', '+B', ' c', ''].join('\n');

interface Repo {
  full: string;
  head: string;
}

/** Alice's repository holding `f.txt` ("a\nb\nc\n") on `main`; bob reads it, carol sees nothing of a private one. */
async function repository(isPrivate = true): Promise<Repo> {
  const name = uniq('patch');
  expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true, private: isPrivate, default_branch: 'main' }, alice.h))).status).toBe(201);
  const full = `${alice.name}/${name}`;
  const added = await s.fetch(`/api/v1/repos/${full}/contents/f.txt`, jsonInit('POST', { content: Buffer.from('a\nb\nc\n').toString('base64') }, alice.h));
  expect(added.status).toBe(201);
  expect((await s.fetch(`/api/v1/repos/${full}/collaborators/${bob.name}`, jsonInit('PUT', { permission: 'read' }, alice.h))).status).toBe(204);
  return { full, head: (await json(added)).commit.sha };
}

async function fileText(full: string, path: string, ref: string): Promise<string | undefined> {
  const res = await s.fetch(`/api/v1/repos/${full}/contents/${path}?ref=${encodeURIComponent(ref)}`, { headers: alice.h });
  if (res.status === 404) return undefined;
  return Buffer.from((await json(res)).content, 'base64').toString('utf8');
}

async function branchHead(full: string, branch: string): Promise<string | undefined> {
  const res = await s.fetch(`/api/v1/repos/${full}/branches/${branch}`, { headers: alice.h });
  return res.status === 200 ? (await json(res)).commit.id : undefined;
}

const patch = (full: string, body: unknown, headers: Record<string, string>) => s.fetch(`/api/v1/repos/${full}/diffpatch`, jsonInit('POST', body, headers));

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

describe('POST /repos/{owner}/{repo}/diffpatch', () => {
  test('applies the diff as one commit on the default branch: 201 and a FileResponse without content', async () => {
    const r = await repository();
    const res = await patch(r.full, { sha: 'unused', content: FIX_B + ADD_FILE, message: '  fix b  ' }, alice.h);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await json(res);
    expect(matchesSchema(FileResponseSchema, body), schemaErrors(FileResponseSchema, body).join('\n')).toBe(true);
    expect(body.content).toBeNull();
    expect(body.commit.message).toBe('fix b\n');
    expect(body.commit.parents.map((p: { sha: string }) => p.sha)).toEqual([r.head]);
    expect(body.commit.url).toBe(`${s.url}api/v1/repos/${r.full}/git/commits/${body.commit.sha}`);
    expect(body.commit.author).toMatchObject({ name: alice.name });
    expect(body.verification).toMatchObject({ verified: false, reason: 'gpg.error.not_signed_commit' });
    // The branch moved there, with both files changed and the tree the answer names.
    expect(await branchHead(r.full, 'main')).toBe(body.commit.sha);
    expect(await fileText(r.full, 'f.txt', 'main')).toBe('a\nB\nc\n');
    expect(await fileText(r.full, 'docs/new.md', 'main')).toBe('hello\n');
    const commit = await json(await s.fetch(`/api/v1/repos/${r.full}/git/commits/${body.commit.sha}`, { headers: alice.h }));
    expect(commit.commit.message).toBe('fix b\n');
    expect(commit.files).toEqual([{ filename: 'docs/new.md', status: 'added' }, { filename: 'f.txt', status: 'modified' }]);
    const tree = await json(await s.fetch(`/api/v1/repos/${r.full}/git/trees/${body.commit.tree.sha}`, { headers: alice.h }));
    expect(tree.tree.map((e: { path: string }) => e.path).sort()).toEqual(['README.md', 'docs', 'f.txt']);
  });

  test('without a message it is "apply-patch"; signoff adds the committer\'s trailer', async () => {
    const r = await repository();
    const body = await json(await patch(r.full, { sha: 'x', content: FIX_B, signoff: true, committer: { name: 'Pat', email: 'pat@example.com' } }, alice.h));
    expect(body.commit.message).toBe('apply-patch\n\nSigned-off-by: Pat <pat@example.com>\n');
    expect(body.commit.author).toMatchObject({ name: 'Pat', email: 'pat@example.com' });
  });

  test('on new_branch made from branch, leaving branch as it was; an existing new_branch is a 422', async () => {
    const r = await repository();
    const res = await patch(r.full, { sha: 'x', content: FIX_B, branch: 'main', new_branch: 'fix/b' }, alice.h);
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(await branchHead(r.full, 'fix/b')).toBe(body.commit.sha);
    expect(await branchHead(r.full, 'main')).toBe(r.head);
    expect(await fileText(r.full, 'f.txt', 'main')).toBe('a\nb\nc\n');
    const again = await patch(r.full, { sha: 'x', content: FIX_B, new_branch: 'fix/b' }, alice.h);
    expect(await expectApiError(again, 422, s.url)).toBe('[new_branch]: branch already exists [name: fix/b]');
    expect(await branchHead(r.full, 'fix/b')).toBe(body.commit.sha);
  });

  test('a diff that does not apply is a 409, text that is no diff a 422; nothing moves', async () => {
    const r = await repository();
    expect(await expectApiError(await patch(r.full, { sha: 'x', content: STALE }, alice.h), 409, s.url)).toMatch(/patch does not apply/);
    expect(await expectApiError(await patch(r.full, { sha: 'x', content: 'just some words\n' }, alice.h), 422, s.url)).toMatch(/No valid patches in input/);
    expect(await branchHead(r.full, 'main')).toBe(r.head);
    // The same diff twice: the second finds `b` gone.
    expect((await patch(r.full, { sha: 'x', content: FIX_B }, alice.h)).status).toBe(201);
    expect((await patch(r.full, { sha: 'x', content: FIX_B }, alice.h)).status).toBe(409);
  });

  test('a missing branch is a 404; sha and content are required (422, naming the field)', async () => {
    const r = await repository();
    expect(await expectApiError(await patch(r.full, { sha: 'x', content: FIX_B, branch: 'nope' }, alice.h), 404, s.url)).toBe('branch does not exist [name: nope]');
    const noSha = await patch(r.full, { content: FIX_B }, alice.h);
    expect(noSha.status).toBe(422);
    expect(JSON.stringify(await json(noSha))).toMatch(/sha/i);
    const noContent = await patch(r.full, { sha: 'x' }, alice.h);
    expect(noContent.status).toBe(422);
    expect(JSON.stringify(await json(noContent))).toMatch(/content/i);
    expect(await branchHead(r.full, 'main')).toBe(r.head);
  });

  test('anonymous 401, a reader 403, who may not see the repository 404; an archived repository 423', async () => {
    const r = await repository();
    expect(await expectApiError(await patch(r.full, { sha: 'x', content: FIX_B }, {}), 401, s.url)).toBe('token is required');
    expect((await patch(r.full, { sha: 'x', content: FIX_B }, bob.h)).status).toBe(403);
    expect((await patch(r.full, { sha: 'x', content: FIX_B }, carol.h)).status).toBe(404);
    expect(await branchHead(r.full, 'main')).toBe(r.head);
    expect((await s.fetch(`/api/v1/repos/${r.full}`, jsonInit('PATCH', { archived: true }, alice.h))).status).toBe(200);
    expect(await expectApiError(await patch(r.full, { sha: 'x', content: FIX_B }, alice.h), 423, s.url)).toBe('repo is archived');
  });

  test('the branch rules apply as to any contents write: 403 on a branch nobody may push to', async () => {
    const r = await repository();
    const rule = await s.fetch(`/api/v1/repos/${r.full}/branch_protections`, jsonInit('POST', { rule_name: 'main', enable_push: false }, alice.h));
    expect(rule.status).toBe(201);
    expect(await expectApiError(await patch(r.full, { sha: 'x', content: FIX_B }, alice.h), 403, s.url)).toBe(`user cannot commit to repo [user: ${alice.name.toLowerCase()}]`);
    expect(await branchHead(r.full, 'main')).toBe(r.head);
    // A protected file is refused on a branch the user may push to.
    const edited = await s.fetch(`/api/v1/repos/${r.full}/branch_protections/main`, jsonInit('PATCH', { enable_push: true, protected_file_patterns: 'docs/*.md' }, alice.h));
    expect(edited.status, JSON.stringify(await json(edited))).toBe(200);
    expect(await expectApiError(await patch(r.full, { sha: 'x', content: ADD_FILE }, alice.h), 403, s.url)).toBe('path is protected and can not be changed [path: docs/new.md]');
    expect((await patch(r.full, { sha: 'x', content: FIX_B }, alice.h)).status).toBe(201);
  });

  test('the commit is announced as a push: the push webhook hears it', async () => {
    const r = await repository(false);
    const hook = await s.fetch(
      `/api/v1/repos/${r.full}/hooks`,
      jsonInit('POST', { type: 'gitea', active: true, events: ['push'], config: { url: `${receiver.url}/diffpatch-push`, content_type: 'json' } }, alice.h),
    );
    expect(hook.status).toBe(201);
    const body = await json(await patch(r.full, { sha: 'x', content: FIX_B, message: 'hooked' }, alice.h));
    const delivered = await receiver.waitFor((q) => q.url === '/diffpatch-push');
    expect(delivered.headers['x-gitea-event']).toBe('push');
    const payload = JSON.parse(delivered.body);
    expect(payload).toMatchObject({ ref: 'refs/heads/main', before: r.head, after: body.commit.sha });
    expect(payload.commits.map((c: { id: string }) => c.id)).toEqual([body.commit.sha]);
  });
});
