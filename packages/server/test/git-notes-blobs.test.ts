/**
 * `GET /git/blobs?shas=…` (several blobs at once) and `POST`/`DELETE /git/notes/{sha}` (writing git notes), over
 * real SQLite and git. Repositories are made and filled through the API only, so nothing here needs a git client.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GitBlobResponseSchema, NoteSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, expectApiError, json, uniq, type Account } from './helpers';

let s: TestServer;
let alice: Account;
let bob: Account;
let carol: Account;

interface Repo {
  full: string;
  base: string;
  head: string;
  readme: string;
  other: string;
}

/** A repository of alice's with a README (auto-init) and one more file; bob may read it, carol sees nothing of it. */
async function repository(isPrivate: boolean): Promise<Repo> {
  const name = uniq('notes');
  const created = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true, private: isPrivate }, alice.h));
  expect(created.status).toBe(201);
  const full = `${alice.name}/${name}`;
  const added = await s.fetch(`/api/v1/repos/${full}/contents/docs/other.txt`, jsonInit('POST', { content: Buffer.from('other\n').toString('base64'), message: 'add other' }, alice.h));
  expect(added.status).toBe(201);
  const file = await json(added);
  const collab = await s.fetch(`/api/v1/repos/${full}/collaborators/${bob.name}`, jsonInit('PUT', { permission: 'read' }, alice.h));
  expect(collab.status).toBe(204);
  const readme = await json(await s.fetch(`/api/v1/repos/${full}/contents/README.md`, { headers: alice.h }));
  return { full, base: `${s.url}api/v1/repos/${full}`, head: file.commit.sha, readme: readme.sha, other: file.content.sha };
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
  carol = await account(s, 'carol');
});
afterAll(async () => {
  await s?.cleanup();
});

describe('GET /repos/{owner}/{repo}/git/blobs', () => {
  let r: Repo;
  beforeAll(async () => {
    r = await repository(true);
  });

  test('several blobs in the order asked, each as /git/blobs/{sha} answers it', async () => {
    const res = await s.fetch(`/api/v1/repos/${r.full}/git/blobs?shas=${r.other},${r.readme}`, { headers: bob.h });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await json(res);
    expect(body).toHaveLength(2);
    for (const blob of body) expect(matchesSchema(GitBlobResponseSchema, blob), schemaErrors(GitBlobResponseSchema, blob).join('\n')).toBe(true);
    expect(body[0]).toEqual({ sha: r.other, url: `${r.base}/git/blobs/${r.other}`, size: 6, encoding: 'base64', content: Buffer.from('other\n').toString('base64') });
    const single = await json(await s.fetch(`/api/v1/repos/${r.full}/git/blobs/${r.readme}`, { headers: bob.h }));
    expect(body[1]).toEqual(single);
  });

  test('at most [api] MAX_RESPONSE_ITEMS (50) blobs are answered', async () => {
    const shas = Array.from({ length: 51 }, () => r.readme).join(',');
    const body = await json(await s.fetch(`/api/v1/repos/${r.full}/git/blobs?shas=${shas}`, { headers: alice.h }));
    expect(body).toHaveLength(50);
  });

  test('no shas is a 400; the first id that is not a blob is the 400, as Forgejo stops at it', async () => {
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/blobs`, { headers: alice.h }), 400, s.url)).toBe('shas not provided');
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/blobs?shas=`, { headers: alice.h }), 400, s.url)).toBe('shas not provided');
    const missing = 'e'.repeat(40);
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/blobs?shas=${r.readme},${missing},abc`, { headers: alice.h }), 400, s.url)).toBe(
      `object does not exist [id: ${missing}, rel_path: ]`,
    );
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/blobs?shas=abc,${missing}`, { headers: alice.h }), 400, s.url)).toBe(
      'length 3 has no matched object format: abc',
    );
    // A commit is not a blob.
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/blobs?shas=${r.head}`, { headers: alice.h }), 400, s.url)).toBe(
      `object does not exist [id: ${r.head}, rel_path: ]`,
    );
    // A trailing comma names an empty id.
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/blobs?shas=${r.readme},`, { headers: alice.h }), 400, s.url);
  });

  test('a private repository is a 404 to who may not see it', async () => {
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/blobs?shas=${r.readme}`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/blobs?shas=${r.readme}`, { headers: carol.h }), 404, s.url);
  });
});

describe('POST and DELETE /repos/{owner}/{repo}/git/notes/{sha}', () => {
  let r: Repo;
  beforeAll(async () => {
    r = await repository(false);
  });

  test('set: the note as GET reads it, written by the doer as a commit of refs/notes/commits', async () => {
    const res = await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.head}`, jsonInit('POST', { message: '  first note  \n\n\n second line\n\n' }, alice.h));
    expect(res.status).toBe(200);
    const note = await json(res);
    expect(matchesSchema(NoteSchema, note), schemaErrors(NoteSchema, note).join('\n')).toBe(true);
    // git's message cleanup: trailing spaces and extra blank lines go, one newline ends it.
    expect(note.message).toBe('  first note\n\n second line\n');
    expect(note.commit.commit.author.name).toBe(alice.name);
    expect(note.commit.commit.message).toBe("Notes added by 'git notes add'\n");
    expect(note.commit.files).toEqual([{ filename: r.head, status: 'added' }]);

    const read = await json(await s.fetch(`/api/v1/repos/${r.full}/git/notes/main`));
    expect(read.message).toBe('  first note\n\n second line\n');
    expect(read.commit.sha).toBe(note.commit.sha);
    const ref = await json(await s.fetch(`/api/v1/repos/${r.full}/git/refs/notes/commits`));
    expect(ref.object.sha).toBe(note.commit.sha);
  });

  test('set again replaces the note in a new notes commit on top of the last one', async () => {
    const first = await json(await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.head}`));
    const res = await s.fetch(`/api/v1/repos/${r.full}/git/notes/main`, jsonInit('POST', { message: 'replaced' }, alice.h));
    expect(res.status).toBe(200);
    const note = await json(res);
    expect(note.message).toBe('replaced\n');
    expect(note.commit.sha).not.toBe(first.commit.sha);
    expect(note.commit.parents.map((p: { sha: string }) => p.sha)).toEqual([first.commit.sha]);
    expect(note.commit.files).toEqual([{ filename: r.head, status: 'modified' }]);
  });

  test('delete: 204, then GET and DELETE are 404', async () => {
    const res = await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.head}`, { method: 'DELETE', headers: alice.h });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.head}`), 404, s.url)).toBe(`note does not exist: ${r.head}`);
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.head}`, { method: 'DELETE', headers: alice.h }), 404, s.url)).toBe(
      `note does not exist: ${r.head}`,
    );
    const log = await json(await s.fetch(`/api/v1/repos/${r.full}/commits?sha=refs/notes/commits&stat=false&files=false&verification=false`));
    expect(log.map((c: { commit: { message: string } }) => c.commit.message)).toEqual([
      "Notes removed by 'git notes remove'\n",
      "Notes added by 'git notes add'\n",
      "Notes added by 'git notes add'\n",
    ]);
  });

  test('an empty message removes the note, as git notes add does (then 404)', async () => {
    expect((await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.head}`, jsonInit('POST', { message: 'again' }, alice.h))).status).toBe(200);
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.head}`, jsonInit('POST', { message: ' \n ' }, alice.h)), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.head}`), 404, s.url);
  });

  test('anonymous 401, a reader 403, who may not see a private repository 404; nothing is written', async () => {
    const before = await json(await s.fetch(`/api/v1/repos/${r.full}/git/refs/notes/commits`));
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.head}`, jsonInit('POST', { message: 'x' })), 401, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.head}`, { method: 'DELETE' }), 401, s.url);
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.head}`, jsonInit('POST', { message: 'x' }, bob.h)), 403, s.url)).toBe(
      'user should have a permission to write to a repository',
    );
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.head}`, { method: 'DELETE', headers: bob.h }), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.head}`, jsonInit('POST', { message: 'x' }, carol.h)), 403, s.url);
    const after = await json(await s.fetch(`/api/v1/repos/${r.full}/git/refs/notes/commits`));
    expect(after.object.sha).toBe(before.object.sha);

    const hidden = await repository(true);
    await expectApiError(await s.fetch(`/api/v1/repos/${hidden.full}/git/notes/${hidden.head}`, jsonInit('POST', { message: 'x' }, carol.h)), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${hidden.full}/git/notes/${hidden.head}`, { method: 'DELETE', headers: carol.h }), 404, s.url);
  });

  test('a bad ref is a 422; an object that does not exist, or is not a commit, a 404', async () => {
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/a..b`, jsonInit('POST', { message: 'x' }, alice.h)), 422, s.url)).toBe('no valid ref or sha: a..b');
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/a..b`, { method: 'DELETE', headers: alice.h }), 422, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/${'e'.repeat(40)}`, jsonInit('POST', { message: 'x' }, alice.h)), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/nope`, jsonInit('POST', { message: 'x' }, alice.h)), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/${r.readme}`, jsonInit('POST', { message: 'x' }, alice.h)), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${r.full}/git/notes/nope`, { method: 'DELETE', headers: alice.h }), 404, s.url);
  });
});
