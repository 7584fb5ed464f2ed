/**
 * The package registry: the generic format under `/api/packages/{owner}/generic/…` as Forgejo serves it (the real
 * `curl` binary and fetch), and the API v1 package operations (list, get, files, delete, link/unlink). Statuses,
 * bodies and headers as a client sees them; who may read and write (owner, organization teams, site admins,
 * private owners); Forgejo's name rules and size limits; content-addressed blobs shared across versions and removed
 * with their last file; an upload the client abandons leaves neither rows nor bytes.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import { PackageFileSchema, PackageSchema, matchesSchema, packageBlobKey } from '@repohost/core';
import { PASSWORD, jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, json, tempFolders, uniq, type Account } from './helpers';

const temp = tempFolders();

const run = promisify(execFile);

let s: TestServer;
let alice: Account;
let bob: Account;
let admin: Account;

const basic = (name: string, secret = PASSWORD) => ({ authorization: `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}` });
const db = () => (s.host as unknown as { storage: { db: Kysely<any> } }).storage.db;
const blobPath = (sha256: string) => path.join(s.host.settings.server.APP_DATA_PATH, 'packages', ...packageBlobKey(sha256).split('/'));
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function put(url: string, body: string | Buffer, headers: Record<string, string>): Promise<Response> {
  return s.fetch(url, { method: 'PUT', body, headers });
}

async function blobRows(hash: string): Promise<number> {
  const rows = await db().selectFrom('package_blob').select('id').where('hash_sha256', '=', hash).execute();
  return rows.length;
}

beforeAll(async () => {
  s = await startTestServer({ packages: { LIMIT_SIZE_GENERIC: 1024 } });
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
  admin = await account(s, 'admin', { admin: true });
});

afterAll(async () => {
  await temp.removeAll();
  await s?.cleanup();
});

describe('the generic registry', () => {
  test('curl uploads and downloads a file; its headers are Forgejo’s; a second upload is 409', async () => {
    const folder = await temp.make('pkg-curl-');
    const source = path.join(folder, 'hello.txt');
    await writeFile(source, 'Hello, packages!\n');
    const url = `${s.url}api/packages/${alice.name}/generic/hello/1.0.0/hello.txt`;
    const upload = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '--user', `${alice.name}:${PASSWORD}`, '--upload-file', source, url]);
    expect(upload.stdout).toBe('201');
    const target = path.join(folder, 'got.txt');
    const download = await run('curl', ['-sS', '-D', '-', '-o', target, '--user', `${alice.name}:${PASSWORD}`, url]);
    expect(download.stdout).toMatch(/^HTTP\/1\.1 200/);
    expect(download.stdout.toLowerCase()).toContain('content-type: application/octet-stream');
    expect(download.stdout).toMatch(/content-disposition: attachment; filename="hello.txt"; filename\*=UTF-8''hello.txt/i);
    expect(download.stdout).toMatch(/content-length: 17/i);
    expect(await readFile(target, 'utf8')).toBe('Hello, packages!\n');

    const again = await put(`/api/packages/${alice.name}/generic/hello/1.0.0/hello.txt`, 'other', alice.h);
    expect(again.status).toBe(409);
    expect(await again.text()).toBe('package file already exists');
    expect(again.headers.get('content-type')).toBe('text/plain;charset=utf-8');

    // Anonymous readers of a public owner download too, with a range.
    const ranged = await s.fetch(`/api/packages/${alice.name}/generic/hello/1.0.0/hello.txt`, { headers: { range: 'bytes=0-4' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe('bytes 0-4/17');
    expect(await ranged.text()).toBe('Hello');
  });

  test('a token header works, names are checked, and missing things are 404', async () => {
    const base = `/api/packages/${alice.name}/generic`;
    expect((await put(`${base}/tok/1/a.bin`, 'x', alice.h)).status).toBe(201);
    for (const [url, message] of [
      [`${base}/bad%20name/1/a.bin`, 'invalid package name'],
      [`${base}/..%2F/1/a.bin`, 'invalid package name'],
      [`${base}/-/1/a.bin`, 'invalid package name'],
      [`${base}/ok/1/%20a.bin`, 'invalid filename'],
      [`${base}/ok/1/a%2Fb`, 'invalid filename'],
      [`${base}/ok/%201/a.bin`, 'invalid package version'],
    ] as const) {
      const res = await put(url, 'x', alice.h);
      expect(res.status, url).toBe(400);
      expect(await res.text(), url).toBe(message);
    }
    const missing = await s.fetch(`${base}/nothing/1/a.bin`, { headers: alice.h });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('package does not exist');
    const noFile = await s.fetch(`${base}/tok/1/b.bin`, { headers: alice.h });
    expect(noFile.status).toBe(404);
    expect(await noFile.text()).toBe('package file does not exist');
    expect((await s.fetch(`/api/packages/${uniq('nobody')}/generic/a/1/a.bin`)).status).toBe(404);
  });

  test('who may write: not anonymous, not another user; bad credentials are 401', async () => {
    const url = `/api/packages/${alice.name}/generic/guarded/1/f.txt`;
    const anonymous = await put(url, 'x', {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
    expect((await put(url, 'x', bob.h)).status).toBe(401);
    expect((await put(url, 'x', basic(alice.name, 'wrong'))).status).toBe(401);
    expect((await db().selectFrom('package').select('id').where('lower_name', '=', 'guarded').execute()).length).toBe(0);
    // A site administrator may write anyone's.
    expect((await put(url, 'x', admin.h)).status).toBe(201);
  });

  test('a private organization: invisible to others, writable by a team with the packages unit', async () => {
    const org = uniq('porg');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org, visibility: 'private' }, alice.h))).status).toBe(201);
    const team = await json(await s.fetch(`/api/v1/orgs/${org}/teams`, jsonInit('POST', { name: 'pk', permission: 'read', units_map: { 'repo.packages': 'write', 'repo.code': 'read' } }, alice.h)));
    const reader = await account(s, 'reader');
    const url = `/api/packages/${org}/generic/secret/1/f.txt`;
    expect((await put(url, 'data', alice.h)).status).toBe(201);
    expect((await s.fetch(url)).status).toBe(401);
    expect((await s.fetch(url, { headers: reader.h })).status).toBe(401);
    expect((await s.fetch(`/api/v1/packages/${org}`, { headers: reader.h })).status).toBe(403);
    expect((await s.fetch(`/api/v1/teams/${team.id}/members/${reader.name}`, { method: 'PUT', headers: alice.h })).status).toBe(204);
    expect(await (await s.fetch(url, { headers: reader.h })).text()).toBe('data');
    expect((await put(`/api/packages/${org}/generic/secret/2/f.txt`, 'data2', reader.h)).status).toBe(201);
  });

  test('the size limit stops an upload with Forgejo’s 403 and leaves nothing', async () => {
    const big = Buffer.alloc(4096, 7);
    const res = await put(`/api/packages/${alice.name}/generic/big/1/big.bin`, big, alice.h);
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('maximum allowed package type size exceeded');
    expect(await blobRows(sha256(big))).toBe(0);
    expect(existsSync(blobPath(sha256(big)))).toBe(false);
    expect((await db().selectFrom('package').select('id').where('lower_name', '=', 'big').execute()).length).toBe(0);
  });

  test('same bytes in two versions are one blob; it goes with the last file', async () => {
    const data = `shared ${uniq('bytes')}`;
    const hash = sha256(data);
    const base = `/api/packages/${alice.name}/generic/dedupe`;
    expect((await put(`${base}/1/a.txt`, data, alice.h)).status).toBe(201);
    expect((await put(`${base}/2/b.txt`, data, alice.h)).status).toBe(201);
    expect(await blobRows(hash)).toBe(1);
    expect(existsSync(blobPath(hash))).toBe(true);
    const del1 = await s.fetch(`${base}/1/a.txt`, { method: 'DELETE', headers: alice.h });
    expect(del1.status).toBe(204);
    expect(await blobRows(hash)).toBe(1);
    expect(existsSync(blobPath(hash))).toBe(true);
    const del2 = await s.fetch(`${base}/2`, { method: 'DELETE', headers: alice.h });
    expect(del2.status).toBe(204);
    expect(await blobRows(hash)).toBe(0);
    expect(existsSync(blobPath(hash))).toBe(false);
    expect((await s.fetch(`${base}/2`, { method: 'DELETE', headers: alice.h })).status).toBe(404);
    expect((await s.fetch(`${base}/2/b.txt`, { method: 'DELETE', headers: alice.h })).status).toBe(404);
  });

  test('an upload the client abandons mid-body leaves no package and no blob', async () => {
    const name = uniq('aborted');
    const target = new URL(`${s.url}api/packages/${alice.name}/generic/${name}/1/part.bin`);
    await new Promise<void>((resolve) => {
      const req = request(target, { method: 'PUT', headers: { ...alice.h, 'content-length': '1000' } });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(300, 1));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200);
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await db().selectFrom('package').select('id').where('lower_name', '=', name.toLowerCase()).execute()).length).toBe(0);
    expect(await blobRows(sha256(Buffer.alloc(300, 1)))).toBe(0);
    // The temporary file the bytes were spooled to is gone too.
    const spool = path.join(s.host.settings.server.APP_DATA_PATH, 'tmp', 'package-upload');
    expect(existsSync(spool) ? await readdir(spool) : []).toEqual([]);
  });
});

describe('the package API', () => {
  test('list, get, files, delete, as the SDK and Forgejo show them', async () => {
    const owner = await account(s, 'lister');
    const base = `/api/packages/${owner.name}/generic`;
    expect((await put(`${base}/MyPackage/v1/file1.txt`, 'Hello world!', owner.h)).status).toBe(201);
    expect((await put(`${base}/other/v2/x.txt`, 'x', owner.h)).status).toBe(201);

    const list = await s.fetch(`/api/v1/packages/${owner.name}?limit=1`, { headers: owner.h });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('2');
    const page = await json(list);
    expect(page).toHaveLength(1);
    expect(matchesSchema(PackageSchema, page[0])).toBe(true);
    expect(page[0].name).toBe('other');

    const filtered = await json(await s.fetch(`/api/v1/packages/${owner.name}?q=mypack&type=generic`, { headers: owner.h }));
    expect(filtered.map((p: { name: string }) => p.name)).toEqual(['MyPackage']);
    expect(await json(await s.fetch(`/api/v1/packages/${owner.name}?type=npm`, { headers: owner.h }))).toEqual([]);

    const pkg = await json(await s.fetch(`/api/v1/packages/${owner.name}/generic/MyPackage/v1`, { headers: owner.h }));
    expect(pkg).toMatchObject({ type: 'generic', name: 'MyPackage', version: 'v1', repository: null });
    expect(pkg.owner.login).toBe(owner.name);
    expect(pkg.creator.login).toBe(owner.name);
    expect(pkg.html_url).toBe(`${s.url}${owner.name}/-/packages/generic/MyPackage/v1`);

    const files = await json(await s.fetch(`/api/v1/packages/${owner.name}/generic/MyPackage/v1/files`, { headers: owner.h }));
    expect(files).toHaveLength(1);
    expect(matchesSchema(PackageFileSchema, files[0])).toBe(true);
    expect(files[0]).toMatchObject({ name: 'file1.txt', Size: 12, sha256: sha256('Hello world!'), md5: createHash('md5').update('Hello world!').digest('hex') });

    expect((await s.fetch(`/api/v1/packages/${owner.name}`)).status).toBe(401);
    expect((await s.fetch(`/api/v1/packages/${owner.name}/generic/MyPackage/v1`, { method: 'DELETE', headers: bob.h })).status).toBe(403);
    expect((await s.fetch(`/api/v1/packages/${owner.name}/generic/MyPackage/v9`, { headers: owner.h })).status).toBe(404);
    expect((await s.fetch(`/api/v1/packages/${owner.name}/generic/MyPackage/v1`, { method: 'DELETE', headers: owner.h })).status).toBe(204);
    const after = await s.fetch(`/api/v1/packages/${owner.name}`, { headers: owner.h });
    expect(after.headers.get('x-total-count')).toBe('1');
    expect((await json(after)).map((p: { name: string }) => p.name)).toEqual(['other']);
  });

  test('link to and unlink from a repository', async () => {
    const owner = await account(s, 'linker');
    const repo = uniq('repo');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo }, owner.h))).status).toBe(201);
    expect((await put(`/api/packages/${owner.name}/generic/linked/1/f`, 'f', owner.h)).status).toBe(201);
    expect((await s.fetch(`/api/v1/packages/${owner.name}/generic/linked/-/link/nope`, { method: 'POST', headers: owner.h })).status).toBe(404);
    expect((await s.fetch(`/api/v1/packages/${owner.name}/generic/missing/-/link/${repo}`, { method: 'POST', headers: owner.h })).status).toBe(404);
    const link = await s.fetch(`/api/v1/packages/${owner.name}/generic/linked/-/link/${repo}`, { method: 'POST', headers: owner.h });
    expect(link.status).toBe(201);
    const pkg = await json(await s.fetch(`/api/v1/packages/${owner.name}/generic/linked/1`, { headers: owner.h }));
    expect(pkg.repository.name).toBe(repo);
    expect((await s.fetch(`/api/v1/packages/${owner.name}/generic/linked/-/link/${repo}`, { method: 'POST', headers: owner.h })).status).toBe(400);
    expect((await s.fetch(`/api/v1/packages/${owner.name}/generic/linked/-/unlink`, { method: 'POST', headers: owner.h })).status).toBe(201);
    expect((await json(await s.fetch(`/api/v1/packages/${owner.name}/generic/linked/1`, { headers: owner.h }))).repository).toBeNull();
    expect((await s.fetch(`/api/v1/packages/${owner.name}/generic/linked/-/unlink`, { method: 'POST', headers: owner.h })).status).toBe(400);
  });
});
