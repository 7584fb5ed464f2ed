/**
 * The container registry (OCI distribution) at `/v2/` as Forgejo serves it, proven with the real `crane`
 * (go-containerregistry): login, append (push) of an image built from a tarball, copy to another image of the owner
 * (a cross-repository mount), ls, manifest, digest, pull, export, catalog, delete. The real `oras` for OCI artifacts:
 * push with an artifact type, manifest fetch, pull, tag, repo tags, attach and discover of a referrer (through the
 * referrers tag schema, Forgejo having no referrers API), blob and manifest delete. Then over HTTP: the Bearer
 * challenge and the token, a chunked upload (PATCH with Content-Range, PUT to finish), an image index, the tag list's
 * pages, and the unhappy paths: anonymous push, another user, a private organization, a digest that does not match,
 * unknown blobs and manifests, the size limit. The API v1 list shows what was pushed.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import { ContainerPackagesService, PackageSchema, matchesSchema } from '@repohost/core';
import { findExecutable, jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, json, tempFolders, uniq, type Account } from './helpers';

const temp = tempFolders();

const run = promisify(execFile);

const LIMIT = 256 * 1024;

/**
 * A Go client on PATH, or where its install line puts it (`GOBIN="${TMPDIR:-/tmp}/repohost-test-bin" go install …`);
 * when missing, one warning that names the install line, and its tests are skipped.
 */
function findTool(name: string, install: string): string | undefined {
  const found = findExecutable(name);
  if (found) return found;
  console.warn(
    `packages-container: ${name} is neither on PATH nor in \${TMPDIR:-/tmp}/repohost-test-bin; the ${name} tests are skipped (install: GOBIN="\${TMPDIR:-/tmp}/repohost-test-bin" go install ${install})`,
  );
  return undefined;
}
const CRANE = findTool('crane', 'github.com/google/go-containerregistry/cmd/crane@v0.20.2');
const ORAS = findTool('oras', 'oras.land/oras/cmd/oras@v1.3.6');

let s: TestServer;
let alice: Account;
let bob: Account;
let home: string;
let registry: string;

const db = () => (s.host as unknown as { storage: { db: Kysely<any> } }).storage.db;
const sha256 = (data: Buffer | string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function crane(...args: string[]): Promise<string> {
  return (await craneRun(...args)).stdout;
}

/** crane's stdout and stderr (with `-v`, its requests and answers). */
function craneRun(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(CRANE!, [...args, '--insecure'], {
    env: { PATH: process.env.PATH, HOME: home, DOCKER_CONFIG: path.join(home, '.docker') },
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** A bearer token from `/v2/token` for these headers (none: anonymous). */
async function token(headers: Record<string, string> = {}): Promise<string> {
  const res = await s.fetch('/v2/token', { headers });
  expect(res.status).toBe(200);
  return (await json(res)).token as string;
}

const basic = (a: Account) => ({ authorization: `Basic ${Buffer.from(`${a.name}:${a.token}`).toString('base64')}` });

/** Pushes `bytes` as one blob of `image` (monolithic POST). */
async function pushBlob(owner: string, image: string, bytes: Buffer, headers: Record<string, string>, digest = sha256(bytes)): Promise<Response> {
  return s.fetch(`/v2/${owner}/${image}/blobs/uploads/?digest=${digest}`, { method: 'POST', body: bytes, headers: { ...headers, 'content-type': 'application/octet-stream' } });
}

/** An image manifest over a config and a layer pushed first; its bytes. */
async function pushImage(owner: string, image: string, tag: string, headers: Record<string, string>, platform = { os: 'linux', architecture: 'amd64' }): Promise<{ manifest: Buffer; res: Response; total: number }> {
  const config = Buffer.from(JSON.stringify({ ...platform, rootfs: { type: 'layers', diff_ids: [] }, config: { Labels: { 'org.opencontainers.image.description': 'made by hand' } } }));
  const layer = randomBytes(512);
  expect((await pushBlob(owner, image, config, headers)).status).toBe(201);
  expect((await pushBlob(owner, image, layer, headers)).status).toBe(201);
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha256(config), size: config.length },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: sha256(layer), size: layer.length }],
    }),
  );
  const res = await s.fetch(`/v2/${owner}/${image}/manifests/${tag}`, { method: 'PUT', body: manifest, headers: { ...headers, 'content-type': 'application/vnd.oci.image.manifest.v1+json' } });
  return { manifest, res, total: manifest.length + config.length + layer.length };
}

beforeAll(async () => {
  s = await startTestServer({ packages: { LIMIT_SIZE_CONTAINER: LIMIT } });
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
  home = await temp.make('crane-home-');
  await mkdir(path.join(home, '.docker'));
  registry = new URL(s.url).host;
});

afterAll(async () => {
  await temp.removeAll();
  await s?.cleanup();
});

describe.skipIf(!CRANE)('the container registry with the real crane', () => {
  const image = () => `${registry}/${alice.name.toLowerCase()}/app`;
  let digest: string;

  test('crane auth login, then crane append pushes an image built from a tarball', async () => {
    await crane('auth', 'login', registry, '-u', alice.name, '-p', alice.token);
    const work = await temp.make('crane-layer-');
    await writeFile(path.join(work, 'hello.txt'), 'hello from the layer\n');
    await run('tar', ['-cf', path.join(work, 'layer.tar'), '-C', work, 'hello.txt']);
    await crane('append', '-f', path.join(work, 'layer.tar'), '-t', `${image()}:v1`);

    digest = (await crane('digest', `${image()}:v1`)).trim();
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const manifest = JSON.parse(await crane('manifest', `${image()}:v1`));
    expect(manifest.layers).toHaveLength(1);
    // The manifest's bytes are what the digest names, by tag and by digest.
    const byDigest = await s.fetch(`/v2/${alice.name.toLowerCase()}/app/manifests/${digest}`, { headers: bearer(await token(basic(alice))) });
    expect(byDigest.status).toBe(200);
    expect(byDigest.headers.get('docker-content-digest')).toBe(digest);
    expect(sha256(Buffer.from(await byDigest.arrayBuffer()))).toBe(digest);
  });

  test('crane copy to another image mounts the blobs; ls, catalog, pull and export read them back', async () => {
    const copied = await craneRun('copy', '-v', `${image()}:v1`, `${image()}2:latest`);
    // The layers were mounted from the first image, not uploaded again.
    expect(copied.stderr).toMatch(/POST \/v2\/[^ ]*\/app2\/blobs\/uploads\/\?from=[^ ]*&mount=sha256%3A[0-9a-f]{64}/);
    expect(copied.stderr).toMatch(/<-- 201 [^ ]*\/app2\/blobs\/uploads\/\?from=[^ ]*&mount=sha256%3A[0-9a-f]{64}/);
    expect(copied.stderr).not.toMatch(/PATCH \/v2\/[^ ]*\/app2\/blobs\/uploads/);
    expect((await crane('digest', `${image()}2:latest`)).trim()).toBe(digest);
    expect((await crane('ls', image())).trim().split('\n')).toEqual(['v1']);
    expect((await crane('ls', `${image()}2`)).trim().split('\n')).toEqual(['latest']);
    const catalog = (await crane('catalog', registry)).trim().split('\n');
    expect(catalog).toEqual(expect.arrayContaining([`${alice.name.toLowerCase()}/app`, `${alice.name.toLowerCase()}/app2`]));

    const out = await temp.make('crane-pull-');
    await crane('pull', `${image()}2:latest`, path.join(out, 'image.tar'));
    expect((await readFile(path.join(out, 'image.tar'))).length).toBeGreaterThan(0);
    await crane('export', `${image()}2:latest`, path.join(out, 'fs.tar'));
    const { stdout } = await run('tar', ['-xOf', path.join(out, 'fs.tar'), 'hello.txt']);
    expect(stdout).toBe('hello from the layer\n');
  });

  test('the API v1 list shows the images with Forgejo’s fields; crane delete removes a tag', async () => {
    const res = await s.fetch(`/api/v1/packages/${alice.name}?type=container`, { headers: alice.h });
    expect(res.status).toBe(200);
    const list = await json<unknown[]>(res);
    for (const p of list) expect(matchesSchema(PackageSchema, p)).toBe(true);
    const names = (list as { name: string; version: string }[]).map((p) => `${p.name}:${p.version}`).sort();
    // The internal `_upload` versions stay out of the list.
    expect(names).toEqual(['app2:latest', 'app:v1']);

    await crane('delete', `${image()}2@${digest}`);
    const gone = await s.fetch(`/v2/${alice.name.toLowerCase()}/app2/manifests/latest`, { headers: bearer(await token(basic(alice))) });
    expect(gone.status).toBe(404);
    expect(await json(gone)).toEqual({ errors: [{ code: 'MANIFEST_UNKNOWN', message: '' }] });
    // The first image is untouched.
    expect((await crane('digest', `${image()}:v1`)).trim()).toBe(digest);
  });
});

/** oras over plain HTTP with its own credentials file (`config`: another one, e.g. empty for anonymous). */
function oras(args: string[], options: { cwd?: string; config?: string } = {}): Promise<{ stdout: string; stderr: string }> {
  return run(ORAS!, [...args, '--plain-http', '--registry-config', options.config ?? path.join(home, 'oras', 'config.json')], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, HOME: home },
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
}

describe.skipIf(!ORAS)('the container registry with the real oras (OCI artifacts)', () => {
  const repo = () => `${registry}/${alice.name.toLowerCase()}/notes`;
  const ARTIFACT_TYPE = 'application/vnd.repohost.notes.v1';
  const REVIEW_TYPE = 'application/vnd.repohost.review.v1';
  const text = `notes ${randomBytes(8).toString('hex')}\n`;
  let work: string;
  let subject: string;

  test('oras login, push of an artifact with its own type, manifest fetch, pull, tag and repo tags; anonymous push is 401', async () => {
    work = await temp.make('oras-work-');
    await writeFile(path.join(work, 'file.txt'), text);
    await oras(['login', registry, '-u', alice.name, '-p', alice.token]);
    // The credentials went to the file named, not to ~/.docker.
    expect(JSON.parse(await readFile(path.join(home, 'oras', 'config.json'), 'utf8')).auths[registry]).toBeDefined();
    const pushed = await oras(['push', `${repo()}:v1`, '--artifact-type', ARTIFACT_TYPE, 'file.txt:text/plain'], { cwd: work });
    subject = /Digest: (sha256:[0-9a-f]{64})/.exec(pushed.stdout)![1]!;

    // An OCI 1.1 artifact: its type on the manifest, the empty config, the file as the one layer.
    const manifest = JSON.parse((await oras(['manifest', 'fetch', `${repo()}:v1`])).stdout);
    expect(manifest.artifactType).toBe(ARTIFACT_TYPE);
    expect(manifest.config.mediaType).toBe('application/vnd.oci.empty.v1+json');
    expect(manifest.layers).toEqual([
      expect.objectContaining({ mediaType: 'text/plain', digest: sha256(text), size: Buffer.byteLength(text), annotations: { 'org.opencontainers.image.title': 'file.txt' } }),
    ]);

    const out = await temp.make('oras-pull-');
    await oras(['pull', `${repo()}:v1`, '-o', out]);
    expect(await readFile(path.join(out, 'file.txt'), 'utf8')).toBe(text);

    await oras(['tag', `${repo()}:v1`, 'stable']);
    expect((await oras(['repo', 'tags', repo()])).stdout.trim().split('\n')).toEqual(['stable', 'v1']);

    // No credentials: oras takes the anonymous token, and the push is still refused.
    const refused = await oras(['push', `${repo()}:anonymous`, 'file.txt:text/plain'], { cwd: work, config: path.join(work, 'none.json') }).then(
      () => undefined,
      (error: { stderr: string }) => error.stderr,
    );
    // The blobs are readable anonymously (oras sees them as there already): the manifest PUT is what is refused.
    expect(refused).toMatch(/PUT "[^"]*\/notes\/manifests\/anonymous": response status code 401/);
    expect((await s.fetch(`/v2/${alice.name.toLowerCase()}/notes/manifests/anonymous`, { headers: bearer(await token(basic(alice))) })).status).toBe(404);
  });

  test('oras attach of a referrer and oras discover, through the referrers tag (Forgejo has no referrers API); blob and manifest delete', async () => {
    const owner = alice.name.toLowerCase();
    const h = bearer(await token(basic(alice)));
    await writeFile(path.join(work, 'review.txt'), 'looks good\n');
    const attached = await oras(['attach', '--artifact-type', REVIEW_TYPE, `${repo()}:v1`, 'review.txt:text/plain'], { cwd: work });
    const referrer = /Digest: (sha256:[0-9a-f]{64})/.exec(attached.stdout)![1]!;
    const referrerManifest = await s.fetch(`/v2/${owner}/notes/manifests/${referrer}`, { headers: h });
    expect((await json(referrerManifest)).subject).toEqual({ mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: subject, size: expect.any(Number) });

    // Forgejo routes no `/referrers/`: oras falls back to the tag schema, an index tagged `sha256-<hex>` of the subject.
    expect((await s.fetch(`/v2/${owner}/notes/referrers/${subject}`, { headers: h })).status).toBe(404);
    const index = await json(await s.fetch(`/v2/${owner}/notes/manifests/${subject.replace(':', '-')}`, { headers: h }));
    expect(index.manifests).toEqual([expect.objectContaining({ digest: referrer, artifactType: REVIEW_TYPE })]);

    const discovered = JSON.parse((await oras(['discover', '--format', 'json', `${repo()}:v1`])).stdout);
    expect(discovered.referrers).toEqual([expect.objectContaining({ digest: referrer, artifactType: REVIEW_TYPE })]);

    // As Forgejo: a blob delete drops the blob from the image, a manifest delete by digest drops every tag naming it.
    const reviewLayer = sha256('looks good\n');
    expect((await s.fetch(`/v2/${owner}/notes/blobs/${reviewLayer}`, { method: 'HEAD', headers: h })).status).toBe(200);
    await oras(['blob', 'delete', '--force', `${repo()}@${reviewLayer}`]);
    expect((await s.fetch(`/v2/${owner}/notes/blobs/${reviewLayer}`, { method: 'HEAD', headers: h })).status).toBe(404);
    await oras(['manifest', 'delete', '--force', `${repo()}@${subject}`]);
    for (const tag of ['v1', 'stable']) expect((await s.fetch(`/v2/${owner}/notes/manifests/${tag}`, { headers: h })).status).toBe(404);
    expect((await s.fetch(`/v2/${owner}/notes/blobs/${sha256(text)}`, { method: 'HEAD', headers: h })).status).toBe(404);
  });
});

describe('the container registry over HTTP', () => {
  test('GET /v2/ without credentials is 401 with the Bearer challenge; with a token it is 200', async () => {
    const res = await s.fetch('/v2/');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="${s.url}v2/token",service="container_registry",scope="*"`);
    expect(res.headers.get('docker-distribution-api-version')).toBe('registry/2.0');
    expect(await json(res)).toEqual({ errors: [{ code: 'UNAUTHORIZED', message: '' }] });
    expect((await s.fetch('/v2/', { headers: bearer(await token()) })).status).toBe(200);
    expect((await s.fetch('/v2/', { headers: bearer(await token(basic(alice))) })).status).toBe(200);
    // A forged or foreign bearer token is the challenge again.
    expect((await s.fetch('/v2/', { headers: bearer('eyJ1aWQiOjF9.forged') })).status).toBe(401);
    expect((await s.fetch('/v2/token', { headers: { authorization: `Basic ${Buffer.from(`${alice.name}:wrong`).toString('base64')}` } })).status).toBe(401);
  });

  test('a chunked upload: POST, two PATCHes with Content-Range, PUT with the digest; a wrong range is 416', async () => {
    const h = bearer(await token(basic(alice)));
    const owner = alice.name.toLowerCase();
    const bytes = randomBytes(3000);
    const started = await s.fetch(`/v2/${owner}/chunked/blobs/uploads/`, { method: 'POST', headers: h });
    expect(started.status).toBe(202);
    const location = started.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/v2/${owner}/chunked/blobs/uploads/[0-9a-f-]{36}$`));
    expect(started.headers.get('docker-upload-uuid')).toBe(location.split('/').pop());

    const first = await s.fetch(location, { method: 'PATCH', body: bytes.subarray(0, 1000), headers: { ...h, 'content-range': '0-999' } });
    expect(first.status).toBe(202);
    expect(first.headers.get('range')).toBe('0-999');
    // The session lives in the blob storage (any process may take the next chunk), not in this process's memory.
    const uuid = location.split('/').pop()!;
    const sessionFolder = path.join(s.host.settings.server.APP_DATA_PATH, 'packages', 'container-upload', uuid);
    expect(existsSync(path.join(sessionFolder, 'session'))).toBe(true);
    expect((await readFile(path.join(sessionFolder, `c${'0'.repeat(16)}`))).equals(bytes.subarray(0, 1000))).toBe(true);
    const status = await s.fetch(location, { headers: h });
    expect(status.status).toBe(204);
    // A chunk that does not start where the session ends.
    const wrong = await s.fetch(location, { method: 'PATCH', body: bytes.subarray(0, 10), headers: { ...h, 'content-range': '0-9' } });
    expect(wrong.status).toBe(416);
    expect(await json(wrong)).toEqual({ errors: [{ code: 'BLOB_UPLOAD_INVALID', message: '' }] });
    // After the first write, a chunk must say where it goes.
    const streamed = await s.fetch(location, { method: 'PATCH', body: bytes.subarray(1000, 2500), headers: h });
    expect(streamed.status).toBe(400);
    expect(await json(streamed)).toEqual({ errors: [{ code: 'BLOB_UPLOAD_INVALID', message: 'Stream uploads after first write are not allowed' }] });
    const second = await s.fetch(location, { method: 'PATCH', body: bytes.subarray(1000, 2500), headers: { ...h, 'content-range': '1000-2499' } });
    expect(second.headers.get('range')).toBe('0-2499');

    const digest = sha256(bytes);
    const done = await s.fetch(`${location}?digest=${digest}`, { method: 'PUT', body: bytes.subarray(2500), headers: h });
    expect(done.status).toBe(201);
    expect(done.headers.get('location')).toBe(`/v2/${owner}/chunked/blobs/${digest}`);
    expect(done.headers.get('docker-content-digest')).toBe(digest);

    const head = await s.fetch(`/v2/${owner}/chunked/blobs/${digest}`, { method: 'HEAD', headers: h });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('3000');
    const got = await s.fetch(`/v2/${owner}/chunked/blobs/${digest}`, { headers: h });
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    // The session is gone once finished.
    expect((await s.fetch(location, { headers: h })).status).toBe(404);
    expect(existsSync(path.join(sessionFolder, 'session'))).toBe(false);

    // A cross-repository mount: another image of the owner gets the blob without a byte sent.
    const mounted = await s.fetch(`/v2/${owner}/mounted/blobs/uploads/?mount=${digest}&from=${owner}/chunked`, { method: 'POST', headers: h });
    expect(mounted.status).toBe(201);
    expect(mounted.headers.get('location')).toBe(`/v2/${owner}/mounted/blobs/${digest}`);
    expect((await s.fetch(`/v2/${owner}/mounted/blobs/${digest}`, { method: 'HEAD', headers: h })).status).toBe(200);
    // DELETE of a blob removes it from that image only; its properties go with it.
    expect((await s.fetch(`/v2/${owner}/mounted/blobs/${digest}`, { method: 'DELETE', headers: h })).status).toBe(202);
    expect((await s.fetch(`/v2/${owner}/mounted/blobs/${digest}`, { method: 'HEAD', headers: h })).status).toBe(404);
    // Forgejo answers a delete of what is not there as one of what was.
    expect((await s.fetch(`/v2/${owner}/mounted/blobs/${digest}`, { method: 'DELETE', headers: h })).status).toBe(202);
    expect((await s.fetch(`/v2/${owner}/mounted/blobs/sha256:nothex`, { method: 'DELETE', headers: h })).status).toBe(404);
    expect((await s.fetch(`/v2/${owner}/chunked/blobs/${digest}`, { method: 'HEAD', headers: h })).status).toBe(200);
    const digestRows = await db().selectFrom('package_property').select('ref_id').where('name', '=', 'container.digest').where('value', '=', digest).execute();
    const fileRows = await db().selectFrom('package_file').select('id').where('id', 'in', digestRows.map((r: any) => r.ref_id)).execute();
    expect(fileRows.length).toBe(digestRows.length);
    // Nothing to mount: a session starts instead.
    const fresh = await s.fetch(`/v2/${owner}/mounted/blobs/uploads/?mount=${sha256('absent')}&from=${owner}/chunked`, { method: 'POST', headers: h });
    expect(fresh.status).toBe(202);
    expect(fresh.headers.get('location')).toMatch(/\/blobs\/uploads\/[0-9a-f-]{36}$/);
  });

  test('a digest that does not match is 400 DIGEST_INVALID and nothing is stored', async () => {
    const h = bearer(await token(basic(alice)));
    const bytes = randomBytes(100);
    const claimed = sha256('something else');
    const res = await pushBlob(alice.name.toLowerCase(), 'bad', bytes, h, claimed);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ errors: [{ code: 'DIGEST_INVALID', message: '' }] });
    expect(await db().selectFrom('package_blob').select('id').where('hash_sha256', '=', sha256(bytes).slice(7)).execute()).toEqual([]);
    expect((await s.fetch(`/v2/${alice.name.toLowerCase()}/bad/blobs/${claimed}`, { headers: h })).status).toBe(404);
  });

  test('unknown blobs and manifests are 404 BLOB_UNKNOWN / MANIFEST_UNKNOWN, as is a manifest over a missing blob; an index over a missing manifest is MANIFEST_BLOB_UNKNOWN', async () => {
    const h = bearer(await token(basic(alice)));
    const owner = alice.name.toLowerCase();
    const blob = await s.fetch(`/v2/${owner}/nothing/blobs/${sha256('none')}`, { headers: h });
    expect(blob.status).toBe(404);
    expect(await json(blob)).toEqual({ errors: [{ code: 'BLOB_UNKNOWN', message: '' }] });
    const manifest = await s.fetch(`/v2/${owner}/nothing/manifests/latest`, { headers: h });
    expect(manifest.status).toBe(404);
    expect(await json(manifest)).toEqual({ errors: [{ code: 'MANIFEST_UNKNOWN', message: '' }] });
    const body = JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha256('c'), size: 1 }, layers: [] });
    const put = await s.fetch(`/v2/${owner}/nothing/manifests/v1`, { method: 'PUT', body, headers: { ...h, 'content-type': 'application/vnd.oci.image.manifest.v1+json' } });
    expect(put.status).toBe(404);
    expect((await json(put)).errors[0].code).toBe('BLOB_UNKNOWN');
    const index = JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.index.v1+json', manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: sha256('m'), size: 1 }] });
    const putIndex = await s.fetch(`/v2/${owner}/nothing/manifests/v1`, { method: 'PUT', body: index, headers: { ...h, 'content-type': 'application/vnd.oci.image.index.v1+json' } });
    expect(putIndex.status).toBe(404);
    expect((await json(putIndex)).errors[0].code).toBe('MANIFEST_BLOB_UNKNOWN');
    const badTag = await s.fetch(`/v2/${owner}/nothing/manifests/-bad`, { method: 'PUT', body: index, headers: { ...h, 'content-type': 'application/vnd.oci.image.index.v1+json' } });
    expect(badTag.status).toBe(400);
    expect(await json(badTag)).toEqual({ errors: [{ code: 'MANIFEST_INVALID', message: 'Tag is invalid' }] });
    const v1 = JSON.stringify({ schemaVersion: 1, mediaType: 'application/vnd.oci.image.manifest.v1+json' });
    const unsupported = await s.fetch(`/v2/${owner}/nothing/manifests/v1`, { method: 'PUT', body: v1, headers: h });
    expect(unsupported.status).toBe(501);
    expect((await json(unsupported)).errors[0].code).toBe('UNSUPPORTED');
    const tags = await s.fetch(`/v2/${owner}/nothing/tags/list`, { headers: h });
    expect(tags.status).toBe(404);
    expect((await json(tags)).errors[0].code).toBe('NAME_UNKNOWN');
    const badName = await s.fetch(`/v2/${owner}/Bad..Name/tags/list`, { headers: h });
    expect(badName.status).toBe(400);
    expect((await json(badName)).errors[0].code).toBe('NAME_INVALID');
  });

  test('an image index over two manifests; tags list pages with n and last; metadata as Forgejo stores it', async () => {
    const h = bearer(await token(basic(alice)));
    const owner = alice.name.toLowerCase();
    const amd = await pushImage(owner, 'multi', 'amd64', h);
    expect(amd.res.status).toBe(201);
    const arm = await pushImage(owner, 'multi', 'arm64', h, { os: 'linux', architecture: 'arm64' });
    expect(arm.res.status).toBe(201);
    const index = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.index.v1+json',
        manifests: [
          { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: sha256(amd.manifest), size: amd.manifest.length, platform: { os: 'linux', architecture: 'amd64' } },
          { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: sha256(arm.manifest), size: arm.manifest.length, platform: { os: 'linux', architecture: 'arm64' } },
        ],
      }),
    );
    // By digest, a reference that is not the body's is DIGEST_INVALID.
    const mismatch = await s.fetch(`/v2/${owner}/multi/manifests/${sha256('x')}`, { method: 'PUT', body: index, headers: { ...h, 'content-type': 'application/vnd.oci.image.index.v1+json' } });
    expect(mismatch.status).toBe(400);
    expect((await json(mismatch)).errors[0].code).toBe('DIGEST_INVALID');
    const put = await s.fetch(`/v2/${owner}/multi/manifests/latest`, { method: 'PUT', body: index, headers: { ...h, 'content-type': 'application/vnd.oci.image.index.v1+json' } });
    expect(put.status).toBe(201);
    expect(put.headers.get('docker-content-digest')).toBe(sha256(index));
    const got = await s.fetch(`/v2/${owner}/multi/manifests/latest`, { headers: h });
    expect(got.headers.get('content-type')).toBe('application/vnd.oci.image.index.v1+json');
    expect(Buffer.from(await got.arrayBuffer()).equals(index)).toBe(true);

    const page = await s.fetch(`/v2/${owner}/multi/tags/list?n=2`, { headers: h });
    expect(await json(page)).toEqual({ name: `${owner}/multi`, tags: ['amd64', 'arm64'] });
    expect(page.headers.get('link')).toBe(`</v2/${owner}/multi/tags/list?n=2&last=arm64>; rel="next"`);
    expect(await json(await s.fetch(`/v2/${owner}/multi/tags/list?n=2&last=arm64`, { headers: h }))).toEqual({ name: `${owner}/multi`, tags: ['latest'] });

    const rows = await db()
      .selectFrom('package_version')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .select(['package_version.version', 'package_version.metadata_json', 'package_version.is_internal'])
      .where('package.lower_name', '=', 'multi')
      .where('package.type', '=', 'container')
      .orderBy('package_version.version')
      .execute();
    expect(rows.map((r: any) => [r.version, r.is_internal])).toEqual([
      ['_upload', 1],
      ['amd64', 0],
      ['arm64', 0],
      ['latest', 0],
    ]);
    expect(rows[0]!.metadata_json).toBe('null');
    const arm64 = JSON.parse(rows[2]!.metadata_json);
    expect(arm64).toMatchObject({ type: 'oci', is_tagged: true, platform: 'linux/arm64', description: 'made by hand', labels: { 'org.opencontainers.image.description': 'made by hand' } });
    // A manifest's blobs are files of its version, named as Forgejo names them, and left the `_upload` version.
    const files = await db()
      .selectFrom('package_file')
      .innerJoin('package_version', 'package_version.id', 'package_file.version_id')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .select(['package_version.version as version', 'package_file.name as name', 'package_file.is_lead as is_lead'])
      .where('package.lower_name', '=', 'multi')
      .orderBy('package_file.id')
      .execute();
    expect(files.filter((f: any) => f.version === '_upload')).toEqual([]);
    expect(files.filter((f: any) => f.version === 'arm64').map((f: any) => [f.name.replace(/[0-9a-f]{64}/, 'H'), f.is_lead])).toEqual([
      ['manifest.json', 1],
      ['sha256_H', 0],
      ['sha256_H', 0],
    ]);
    // The same manifest pushed to its tag again replaces the version and keeps the blobs it uses.
    const again = await s.fetch(`/v2/${owner}/multi/manifests/arm64`, { method: 'PUT', body: arm.manifest, headers: { ...h, 'content-type': 'application/vnd.oci.image.manifest.v1+json' } });
    expect(again.status).toBe(201);
    const armLayer = JSON.parse(arm.manifest.toString()).layers[0].digest as string;
    expect((await s.fetch(`/v2/${owner}/multi/blobs/${armLayer}`, { headers: h })).status).toBe(200);
    const latest = JSON.parse(rows[3]!.metadata_json);
    expect(latest.manifests).toEqual([
      // Forgejo's size of an index entry: every file of that manifest's version.
      { platform: 'linux/amd64', digest: sha256(amd.manifest), size: amd.total },
      { platform: 'linux/arm64', digest: sha256(arm.manifest), size: arm.total },
    ]);
  });

  test('anonymous push is 401, another user is 401, a private organization is 401 to others; anonymous reads work', async () => {
    const owner = alice.name.toLowerCase();
    const anonymous = bearer(await token());
    const bytes = randomBytes(64);
    // No credentials at all: the challenge.
    const bare = await pushBlob(owner, 'nope', bytes, {});
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
    expect((await pushBlob(owner, 'nope', bytes, anonymous)).status).toBe(401);
    expect((await pushBlob(owner, 'nope', bytes, bearer(await token(basic(bob))))).status).toBe(401);
    expect((await s.fetch(`/v2/${owner}/nope/blobs/uploads/`, { method: 'POST', headers: bob.h })).status).toBe(401);
    expect(await db().selectFrom('package').select('id').where('lower_name', '=', 'nope').execute()).toEqual([]);

    // The anonymous token reads a public owner's image.
    const pushed = await pushImage(owner, 'public', 'v1', bearer(await token(basic(alice))));
    expect(pushed.res.status).toBe(201);
    expect((await s.fetch(`/v2/${owner}/public/manifests/v1`, { headers: anonymous })).status).toBe(200);

    const org = uniq('org');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org, visibility: 'private' }, alice.h))).status).toBe(201);
    const secret = await pushImage(org.toLowerCase(), 'secret', 'v1', bearer(await token(basic(alice))));
    expect(secret.res.status).toBe(201);
    expect((await s.fetch(`/v2/${org.toLowerCase()}/secret/manifests/v1`, { headers: anonymous })).status).toBe(401);
    expect((await s.fetch(`/v2/${org.toLowerCase()}/secret/manifests/v1`, { headers: bearer(await token(basic(bob))) })).status).toBe(401);
    // The catalog shows it to the member only.
    const forBob = await json(await s.fetch('/v2/_catalog', { headers: bearer(await token(basic(bob))) }));
    expect(forBob.repositories).not.toContain(`${org.toLowerCase()}/secret`);
    const forAlice = await json(await s.fetch('/v2/_catalog', { headers: bearer(await token(basic(alice))) }));
    expect(forAlice.repositories).toContain(`${org.toLowerCase()}/secret`);
  });

  test('a blob past LIMIT_SIZE_CONTAINER is 403, monolithic or chunked, and is not kept', async () => {
    const h = bearer(await token(basic(alice)));
    const owner = alice.name.toLowerCase();
    const big = randomBytes(LIMIT + 1);
    const res = await pushBlob(owner, 'big', big, h);
    expect(res.status).toBe(403);
    expect(await db().selectFrom('package_blob').select('id').where('hash_sha256', '=', sha256(big).slice(7)).execute()).toEqual([]);

    const started = await s.fetch(`/v2/${owner}/big/blobs/uploads/`, { method: 'POST', headers: h });
    const location = started.headers.get('location')!;
    expect((await s.fetch(location, { method: 'PATCH', body: big.subarray(0, LIMIT), headers: h })).status).toBe(202);
    expect((await s.fetch(location, { method: 'PATCH', body: big.subarray(LIMIT), headers: { ...h, 'content-range': `${LIMIT}-${LIMIT}` } })).status).toBe(403);
    expect((await s.fetch(location, { method: 'DELETE', headers: h })).status).toBe(204);
    expect((await s.fetch(location, { headers: h })).status).toBe(404);
  });

  test('a session left behind is swept once older than the age given, a fresh one is kept', async () => {
    const h = bearer(await token(basic(alice)));
    const owner = alice.name.toLowerCase();
    const left = (await s.fetch(`/v2/${owner}/swept/blobs/uploads/`, { method: 'POST', headers: h })).headers.get('location')!;
    expect((await s.fetch(left, { method: 'PATCH', body: randomBytes(10), headers: h })).status).toBe(202);
    const service = s.host.service(ContainerPackagesService);
    expect(await service.sweepUploads(60 * 60 * 1000)).toBe(0);
    expect((await s.fetch(left, { headers: h })).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await service.sweepUploads(10)).toBeGreaterThanOrEqual(1);
    expect((await s.fetch(left, { headers: h })).status).toBe(404);
  });
});
