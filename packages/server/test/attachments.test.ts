/**
 * Attachments of issues and comments over HTTP (`…/issues/{index}/assets`, `…/issues/comments/{id}/assets`) and
 * their downloads (`/attachments/{uuid}`): multipart uploads streamed to blob storage, `[attachment]` type and size
 * limits, who may upload, rename and delete, what private repositories hide, and the blobs following the rows.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { AttachmentSchema, attachmentBlobKey, matchesSchema, schemaErrors, type ApiAttachment } from '@repohost/core';
import { AttachmentsStore } from '@repohost/core/internal';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  h: Record<string, string>;
}

let s: TestServer;
let alice: Account;
let bob: Account;
let pub: string;
let priv: string;

async function account(prefix: string, options: { admin?: boolean } = {}): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name, options);
  return { name, h: tokenHeader(await createToken(s.host, name)) };
}

async function repoOf(who: Account, body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('repo');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, ...body }, who.h));
  expect(res.status).toBe(201);
  return `${who.name}/${name}`;
}

async function issueIn(full: string, who: Account): Promise<number> {
  const res = await s.fetch(`/api/v1/repos/${full}/issues`, jsonInit('POST', { title: uniq('issue') }, who.h));
  expect(res.status).toBe(201);
  return (await json(res)).number;
}

async function commentOn(full: string, index: number, who: Account): Promise<number> {
  const res = await s.fetch(`/api/v1/repos/${full}/issues/${index}/comments`, jsonInit('POST', { body: 'a comment' }, who.h));
  expect(res.status).toBe(201);
  return (await json(res)).id;
}

function form(name: string, content: string | Uint8Array, field = 'attachment'): FormData {
  const data = new FormData();
  data.append('note', 'a field before the file');
  data.append(field, new Blob([content]), name);
  return data;
}

function upload(where: string, who: Account | undefined, body: FormData | string, query = ''): Promise<Response> {
  return s.fetch(`/api/v1/repos/${where}/assets${query}`, { method: 'POST', headers: who?.h ?? {}, body });
}

async function expectAttachment(res: Response, status = 201): Promise<ApiAttachment> {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(matchesSchema(AttachmentSchema, body), schemaErrors(AttachmentSchema, body).join('\n')).toBe(true);
  return body as ApiAttachment;
}

function blobPath(uuid: string): string {
  return path.join(s.host.settings.server.APP_DATA_PATH, 'attachments', ...attachmentBlobKey(uuid).split('/'));
}

async function blobExists(uuid: string): Promise<boolean> {
  return stat(blobPath(uuid)).then(
    () => true,
    () => false,
  );
}

beforeAll(async () => {
  s = await startTestServer({ attachment: { MAX_SIZE: 1 } });
  alice = await account('alice');
  bob = await account('bob');
  pub = await repoOf(alice);
  priv = await repoOf(alice, { private: true });
});
afterAll(async () => {
  await s?.cleanup();
});

describe('issue attachments', () => {
  test('upload, list, get and download, with the download counted', async () => {
    const index = await issueIn(pub, alice);
    const created = await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('notes.txt', 'hello attachment\n')));
    expect(created).toMatchObject({ name: 'notes.txt', size: 17, download_count: 0, type: 'attachment' });
    expect(created.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.browser_download_url).toBe(`${s.url}attachments/${created.uuid}`);
    expect(await blobExists(created.uuid)).toBe(true);

    const list = await s.fetch(`/api/v1/repos/${pub}/issues/${index}/assets`);
    expect(list.status).toBe(200);
    const items = await json<ApiAttachment[]>(list);
    expect(items.map((a) => a.id)).toEqual([created.id]);
    expect(items.every((a) => matchesSchema(AttachmentSchema, a))).toBe(true);
    await expectAttachment(await s.fetch(`/api/v1/repos/${pub}/issues/${index}/assets/${created.id}`), 200);

    const download = await fetch(created.browser_download_url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(download.headers.get('content-length')).toBe('17');
    expect(download.headers.get('content-disposition')).toBe(`inline; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    expect(download.headers.get('etag')).toBe(`"${created.uuid}"`);
    expect(await download.text()).toBe('hello attachment\n');
    const again = await fetch(created.browser_download_url, { headers: { 'if-none-match': `"${created.uuid}"` } });
    expect(again.status).toBe(304);
    // A HEAD answers as GET does, without the bytes; only a response carrying the file counts as a download.
    const head = await fetch(created.browser_download_url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('17');
    expect(head.headers.get('etag')).toBe(`"${created.uuid}"`);
    expect(await head.text()).toBe('');
    const after = await expectAttachment(await s.fetch(`/api/v1/repos/${pub}/issues/${index}/assets/${created.id}`), 200);
    expect(after.download_count).toBe(1);
    // The issue shows its attachments as `assets`, in one read and in lists.
    const issue = await json(await s.fetch(`/api/v1/repos/${pub}/issues/${index}`));
    expect(issue.assets).toEqual([after]);
    const listed = await json<{ number: number; assets: ApiAttachment[] }[]>(await s.fetch(`/api/v1/repos/${pub}/issues?state=all&limit=50`));
    expect(listed.find((i) => i.number === index)?.assets.map((a) => a.id)).toEqual([created.id]);
  });

  test('binary files keep their bytes; an image is served as one; `name` replaces the file name', async () => {
    const index = await issueIn(pub, alice);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(70_000, 7)]);
    const created = await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('ignored.bin', png), '?name=shot.png'));
    expect(created).toMatchObject({ name: 'shot.png', size: png.length });
    const download = await fetch(created.browser_download_url);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);
  });

  test('ranges: one range is a 206 of its bytes, past the end a 416, several the whole file', async () => {
    const index = await issueIn(pub, alice);
    const text = '0123456789abcdefghij';
    const created = await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('r.txt', text)));
    const part = await fetch(created.browser_download_url, { headers: { range: 'bytes=5-9' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 5-9/20');
    expect(part.headers.get('content-length')).toBe('5');
    expect(part.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await part.text()).toBe('56789');
    const suffix = await fetch(created.browser_download_url, { headers: { range: 'bytes=-3' } });
    expect([suffix.status, await suffix.text()]).toEqual([206, 'hij']);
    const open = await fetch(created.browser_download_url, { headers: { range: 'bytes=15-' } });
    expect([open.status, open.headers.get('content-range'), await open.text()]).toEqual([206, 'bytes 15-19/20', 'fghij']);
    const past = await fetch(created.browser_download_url, { headers: { range: 'bytes=50-60' } });
    expect([past.status, past.headers.get('content-range')]).toEqual([416, 'bytes */20']);
    await past.text();
    const several = await fetch(created.browser_download_url, { headers: { range: 'bytes=0-1,5-6' } });
    expect([several.status, await several.text()]).toEqual([200, text]);
  });

  test('names: the path of the form\'s file name is dropped; any name is served safely in Content-Disposition', async () => {
    const index = await issueIn(pub, alice);
    const fromPath = await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('../dir/report.txt', 'r')));
    expect(fromPath.name).toBe('report.txt');
    const unicode = await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('x.txt', 'u'), `?name=${encodeURIComponent('résumé 日本 "q".txt')}`));
    expect(unicode.name).toBe('résumé 日本 "q".txt');
    const served = await fetch(unicode.browser_download_url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-disposition')).toContain(`filename*=UTF-8''r%C3%A9sum%C3%A9%20%E6%97%A5%E6%9C%AC%20%22q%22.txt`);
    const lines = await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('x.txt', 'n'), `?name=${encodeURIComponent('a\r\nSet-Cookie: x=1.txt')}`));
    const safe = await fetch(lines.browser_download_url);
    expect(safe.status).toBe(200);
    expect(safe.headers.get('set-cookie')).toBeNull();
    const surrogate = await expectAttachment(await s.fetch(`/api/v1/repos/${pub}/issues/${index}/assets/${lines.id}`, jsonInit('PATCH', { name: 'bad\ud800.txt' }, alice.h)));
    expect((await fetch(surrogate.browser_download_url)).status).toBe(200);
  });

  test('`updated_at` dates the upload and the issue, for site administrators only', async () => {
    const admin = await account('admin', { admin: true });
    const index = await issueIn(pub, alice);
    await expectApiError(await upload(`${pub}/issues/${index}`, alice, form('a.txt', 'x'), '?updated_at=2020-01-02T03:04:05Z'), 403, s.url);
    await expectApiError(await upload(`${pub}/issues/${index}`, admin, form('a.txt', 'x'), '?updated_at=yesterday'), 422, s.url);
    const dated = await expectAttachment(await upload(`${pub}/issues/${index}`, admin, form('a.txt', 'x'), '?updated_at=2020-01-02T03:04:05Z'));
    expect(dated.created_at).toBe('2020-01-02T03:04:05Z');
    const issue = await json(await s.fetch(`/api/v1/repos/${pub}/issues/${index}`));
    expect(issue.updated_at).toBe('2020-01-02T03:04:05Z');
  });

  test('rename (an empty name leaves it) and delete, which removes the blob', async () => {
    const index = await issueIn(pub, alice);
    const created = await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('a.txt', 'x')));
    const url = `/api/v1/repos/${pub}/issues/${index}/assets/${created.id}`;
    expect(await expectAttachment(await s.fetch(url, jsonInit('PATCH', { name: 'b.md' }, alice.h)))).toMatchObject({ id: created.id, name: 'b.md' });
    expect(await expectAttachment(await s.fetch(url, jsonInit('PATCH', { name: '' }, alice.h)))).toMatchObject({ name: 'b.md' });
    const removed = await s.fetch(url, { method: 'DELETE', headers: alice.h });
    expect(removed.status).toBe(204);
    await expectApiError(await s.fetch(url), 404, s.url);
    expect(await blobExists(created.uuid)).toBe(false);
    expect((await fetch(created.browser_download_url)).status).toBe(404);
  });

  test('types outside ALLOWED_TYPES are refused with 422, and nothing is kept', async () => {
    const index = await issueIn(pub, alice);
    const message = await expectApiError(await upload(`${pub}/issues/${index}`, alice, form('run.exe', 'MZ')), 422, s.url);
    expect(message).toBe('This file extension or type is not allowed to be uploaded.');
    const list = await json<unknown[]>(await s.fetch(`/api/v1/repos/${pub}/issues/${index}/assets`));
    expect(list).toEqual([]);
  });

  test('past [attachment] MAX_SIZE the upload is refused with 413 while it streams, leaving no blob and no row', async () => {
    const index = await issueIn(pub, alice);
    const res = await upload(`${pub}/issues/${index}`, alice, form('big.txt', 'x'.repeat(1024 * 1024 + 10)));
    expect(res.status).toBe(413);
    // Its own 413 (payload_too_large), the usual error body, not a quota refusal's (which names the account).
    expect(await json(res)).toEqual({ message: `attachment exceeds limit ${1024 * 1024}`, url: expect.any(String) });
    expect(await json<unknown[]>(await s.fetch(`/api/v1/repos/${pub}/issues/${index}/assets`))).toEqual([]);
    const leftovers = await readdir(path.join(s.host.settings.server.APP_DATA_PATH, 'attachments', '.tmp')).catch(() => []);
    expect(leftovers).toEqual([]);
    // Exactly the limit is accepted.
    await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('max.txt', 'x'.repeat(1024 * 1024))));
  });

  test('a client that goes away mid-upload leaves no blob, no temporary file and no row', async () => {
    const index = await issueIn(pub, alice);
    const url = new URL(`api/v1/repos/${pub}/issues/${index}/assets`, s.url);
    await new Promise<void>((resolve) => {
      const req = request(url, { method: 'POST', headers: { ...alice.h, 'content-type': 'multipart/form-data; boundary=B', 'content-length': '100000' } });
      req.on('error', () => resolve());
      req.write('--B\r\nContent-Disposition: form-data; name="attachment"; filename="cut.txt"\r\n\r\n' + 'x'.repeat(5000));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200);
    });
    // The server notices the end of the connection, removes the partial write.
    await new Promise((r) => setTimeout(r, 300));
    const leftovers = await readdir(path.join(s.host.settings.server.APP_DATA_PATH, 'attachments', '.tmp')).catch(() => []);
    expect(leftovers).toEqual([]);
    expect(await json(await s.fetch(`/api/v1/repos/${pub}/issues/${index}/assets`))).toEqual([]);
  });

  test('a body that is not a form with an `attachment` file is a 400', async () => {
    const index = await issueIn(pub, alice);
    await expectApiError(await upload(`${pub}/issues/${index}`, alice, 'plain text'), 400, s.url);
    expect(await expectApiError(await upload(`${pub}/issues/${index}`, alice, form('a.txt', 'x', 'file')), 400, s.url)).toBe('http: no such file');
    const truncated = await s.fetch(`/api/v1/repos/${pub}/issues/${index}/assets`, {
      method: 'POST',
      headers: { ...alice.h, 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nContent-Disposition: form-data; name="attachment"; filename="a.txt"\r\n\r\nno end',
    });
    await expectApiError(truncated, 400, s.url);
  });

  test('a hand-written form: the boundary\'s bytes not at a line\'s start are content; fields after the file are ignored', async () => {
    const index = await issueIn(pub, alice);
    // RFC 2046 forbids the boundary at the start of a line inside a part; elsewhere it is content.
    const content = 'line\r\n --XYZsuffix\r\n--XY more';
    const raw =
      'preamble\r\n--XYZ\r\nContent-Disposition: form-data; name="other"\r\n\r\nvalue\r\n' +
      `--XYZ\r\nContent-Disposition: form-data; name="attachment"; filename*=UTF-8''caf%C3%A9.txt\r\nContent-Type: text/plain\r\n\r\n${content}\r\n` +
      '--XYZ\r\nContent-Disposition: form-data; name="after"\r\n\r\nx\r\n--XYZ--\r\n';
    const res = await s.fetch(`/api/v1/repos/${pub}/issues/${index}/assets`, {
      method: 'POST',
      headers: { ...alice.h, 'content-type': 'multipart/form-data; boundary="XYZ"' },
      body: raw,
    });
    const created = await expectAttachment(res);
    expect(created.name).toBe('café.txt');
    expect(await (await fetch(created.browser_download_url)).text()).toBe(content);
  });

  test('who may: anonymous 401, a reader 403 on others\' issues, the poster on their own; a writer may', async () => {
    const index = await issueIn(pub, alice);
    await expectApiError(await upload(`${pub}/issues/${index}`, undefined, form('a.txt', 'x')), 401, s.url);
    const message = await expectApiError(await upload(`${pub}/issues/${index}`, bob, form('a.txt', 'x')), 403, s.url);
    expect(message).toBe('user should have permission to write issue');
    const mine = await issueIn(pub, bob);
    const created = await expectAttachment(await upload(`${pub}/issues/${mine}`, bob, form('b.txt', 'y')));
    // The repository's owner writes issues: may rename bob's file; bob may not touch alice's.
    await expectAttachment(await s.fetch(`/api/v1/repos/${pub}/issues/${mine}/assets/${created.id}`, jsonInit('PATCH', { name: 'c.txt' }, alice.h)));
    const hers = await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('h.txt', 'z')));
    await expectApiError(await s.fetch(`/api/v1/repos/${pub}/issues/${index}/assets/${hers.id}`, { method: 'DELETE', headers: bob.h }), 403, s.url);
    // Anyone may read them on a public repository.
    expect((await s.fetch(`/api/v1/repos/${pub}/issues/${index}/assets`)).status).toBe(200);
  });

  test('an attachment is found only under its own issue and repository', async () => {
    const one = await issueIn(pub, alice);
    const two = await issueIn(pub, alice);
    const created = await expectAttachment(await upload(`${pub}/issues/${one}`, alice, form('a.txt', 'x')));
    await expectApiError(await s.fetch(`/api/v1/repos/${pub}/issues/${two}/assets/${created.id}`), 404, s.url);
    const other = await repoOf(alice);
    const there = await issueIn(other, alice);
    await expectApiError(await s.fetch(`/api/v1/repos/${other}/issues/${there}/assets/${created.id}`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${pub}/issues/${one}/assets/999999999`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${pub}/issues/${one}/assets/abc`), 404, s.url);
  });

  test('a private repository hides its attachments and their downloads from others', async () => {
    const index = await issueIn(priv, alice);
    const created = await expectAttachment(await upload(`${priv}/issues/${index}`, alice, form('secret.txt', 'secret')));
    await expectApiError(await s.fetch(`/api/v1/repos/${priv}/issues/${index}/assets`, { headers: bob.h }), 404, s.url);
    await expectApiError(await upload(`${priv}/issues/${index}`, bob, form('a.txt', 'x')), 404, s.url);
    expect((await fetch(created.browser_download_url)).status).toBe(404);
    expect((await fetch(created.browser_download_url, { headers: bob.h })).status).toBe(404);
    const own = await fetch(created.browser_download_url, { headers: alice.h });
    expect(own.status).toBe(200);
    expect(await own.text()).toBe('secret');
    expect((await fetch(`${s.url}attachments/not-a-uuid`)).status).toBe(404);
    expect((await fetch(`${s.url}attachments/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
  });

  test('an archived repository refuses uploads with 423; with attachments disabled every route is a 404', async () => {
    const full = await repoOf(alice);
    const index = await issueIn(full, alice);
    const created = await expectAttachment(await upload(`${full}/issues/${index}`, alice, form('a.txt', 'x')));
    expect((await s.fetch(`/api/v1/repos/${full}`, jsonInit('PATCH', { archived: true }, alice.h))).status).toBe(200);
    await expectApiError(await upload(`${full}/issues/${index}`, alice, form('b.txt', 'x')), 423, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/issues/${index}/assets/${created.id}`, { method: 'DELETE', headers: alice.h }), 423, s.url);
    s.host.settings.attachment.ENABLED = false;
    try {
      await expectApiError(await s.fetch(`/api/v1/repos/${full}/issues/${index}/assets`), 404, s.url);
      await expectApiError(await s.fetch(`/api/v1/repos/${full}/issues/${index}/assets/${created.id}`), 404, s.url);
    } finally {
      s.host.settings.attachment.ENABLED = true;
    }
  });
});

describe('comment attachments', () => {
  test('upload, list, get, rename, delete; they are not among the issue\'s own', async () => {
    const index = await issueIn(pub, alice);
    const id = await commentOn(pub, index, alice);
    const base = `${pub}/issues/comments/${id}`;
    const created = await expectAttachment(await upload(base, alice, form('log.txt', 'log line')));
    const list = await json<ApiAttachment[]>(await s.fetch(`/api/v1/repos/${base}/assets`));
    expect(list.map((a) => a.id)).toEqual([created.id]);
    expect(await json(await s.fetch(`/api/v1/repos/${pub}/issues/${index}/assets`))).toEqual([]);
    await expectAttachment(await s.fetch(`/api/v1/repos/${base}/assets/${created.id}`), 200);
    expect(await expectAttachment(await s.fetch(`/api/v1/repos/${base}/assets/${created.id}`, jsonInit('PATCH', { name: 'renamed.txt' }, alice.h)))).toMatchObject({ name: 'renamed.txt' });
    expect(await (await fetch(created.browser_download_url)).text()).toBe('log line');
    const shown = await json(await s.fetch(`/api/v1/repos/${base}`));
    expect(shown.assets.map((a: ApiAttachment) => [a.id, a.name])).toEqual([[created.id, 'renamed.txt']]);
    expect((await s.fetch(`/api/v1/repos/${base}/assets/${created.id}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    expect(await blobExists(created.uuid)).toBe(false);
  });

  test('the comment\'s poster and writers may; others get 403; a comment of another repository is a 404', async () => {
    const index = await issueIn(pub, alice);
    const hers = await commentOn(pub, index, alice);
    const his = await commentOn(pub, index, bob);
    const message = await expectApiError(await upload(`${pub}/issues/comments/${hers}`, bob, form('a.txt', 'x')), 403, s.url);
    expect(message).toBe('user should have permission to edit comment');
    const created = await expectAttachment(await upload(`${pub}/issues/comments/${his}`, bob, form('b.txt', 'y')));
    expect((await s.fetch(`/api/v1/repos/${pub}/issues/comments/${his}/assets/${created.id}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    // An issue attachment is not a comment's.
    const onIssue = await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('c.txt', 'z')));
    await expectApiError(await s.fetch(`/api/v1/repos/${pub}/issues/comments/${hers}/assets/${onIssue.id}`), 404, s.url);
    const other = await repoOf(alice);
    await expectApiError(await s.fetch(`/api/v1/repos/${other}/issues/comments/${hers}/assets`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${pub}/issues/comments/99999999/assets`), 404, s.url);
    // A private repository's comments are hidden from others.
    const secretIssue = await issueIn(priv, alice);
    const secret = await commentOn(priv, secretIssue, alice);
    await expectApiError(await s.fetch(`/api/v1/repos/${priv}/issues/comments/${secret}/assets`, { headers: bob.h }), 404, s.url);
  });
});

describe('consistency', () => {
  test('deleting an issue removes its attachments and their blobs, its comments\' included', async () => {
    const index = await issueIn(pub, alice);
    const id = await commentOn(pub, index, alice);
    const a = await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('a.txt', 'a')));
    const b = await expectAttachment(await upload(`${pub}/issues/comments/${id}`, alice, form('b.txt', 'b')));
    expect((await s.fetch(`/api/v1/repos/${pub}/issues/${index}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    await s.host.events.idle();
    expect(await blobExists(a.uuid)).toBe(false);
    expect(await blobExists(b.uuid)).toBe(false);
    expect((await fetch(a.browser_download_url, { headers: alice.h })).status).toBe(404);
  });

  test('deleting a repository removes its attachments\' blobs', async () => {
    const full = await repoOf(alice);
    const index = await issueIn(full, alice);
    const a = await expectAttachment(await upload(`${full}/issues/${index}`, alice, form('a.txt', 'a')));
    expect((await s.fetch(`/api/v1/repos/${full}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    await s.host.events.idle();
    expect(await blobExists(a.uuid)).toBe(false);
  });

  test('a row whose blob is gone answers 404; the start-up sweep removes old blobs no row names', async () => {
    const index = await issueIn(pub, alice);
    const kept = await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('kept.txt', 'kept')));
    const lost = await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('lost.txt', 'lost')));
    await rm(blobPath(lost.uuid));
    expect((await fetch(lost.browser_download_url)).status).toBe(404);

    const orphan = '0123abcd-0000-4000-8000-000000000000';
    const young = '0123abcd-0000-4000-8000-000000000001';
    for (const uuid of [orphan, young]) {
      await mkdir(path.dirname(blobPath(uuid)), { recursive: true });
      await writeFile(blobPath(uuid), 'left by a crash');
    }
    const old = new Date(Date.now() - 2 * 3600_000);
    await utimes(blobPath(orphan), old, old);
    await utimes(blobPath(kept.uuid), old, old);
    expect(await s.host.attachments.reconcile()).toBe(1);
    expect(await blobExists(orphan)).toBe(false);
    expect(await blobExists(young)).toBe(true);
    expect(await blobExists(kept.uuid)).toBe(true);
  });

  test('the start-up sweep removes rows whose issue is gone (a crash before their clean-up), with their blobs', async () => {
    const index = await issueIn(pub, alice);
    const kept = await expectAttachment(await upload(`${pub}/issues/${index}`, alice, form('kept.txt', 'kept')));
    // What a crash between an issue's deletion and its attachments' clean-up leaves: a row naming no issue.
    const store = (s.host as unknown as { ctx: { store(cls: typeof AttachmentsStore): AttachmentsStore } }).ctx.store(AttachmentsStore);
    const uuid = '0123abcd-0000-4000-8000-0000000000ff';
    await mkdir(path.dirname(blobPath(uuid)), { recursive: true });
    await writeFile(blobPath(uuid), 'bytes of a deleted issue');
    const row = await store.insert({ uuid, repo_id: (await store.byId(kept.id))!.repo_id, issue_id: 987654321, uploader_id: 1, name: 'x.txt', size: 24, created_unix: 1 });
    await s.host.attachments.reconcile();
    expect(await store.byId(row.id)).toBeUndefined();
    expect(await blobExists(uuid)).toBe(false);
    expect(await store.byId(kept.id)).toBeDefined();
    expect(await blobExists(kept.uuid)).toBe(true);
  });
});
