/**
 * The Go registry under `/api/packages/{owner}/go/…` as Forgejo serves it, proven with the real `go` command over
 * the GOPROXY protocol (module zips uploaded as Forgejo's documentation does it, then `go list -m -versions`,
 * `go get` of a version and of the newest, `go run` of a module importing it; a module path with a capital, which
 * the protocol case-encodes; a private organization read with the token in the GOPROXY URL), and the unhappy paths
 * over HTTP: who may write (anonymous, another user, a private organization), bad zips, versions and module paths,
 * a version that exists, the size limit, unknown modules. The API v1 list shows what was published.
 * Skips only when `go version` fails (the client is missing).
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import { PackageSchema, matchesSchema, packageBlobKey } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, json, tempFolders, uniq, zipFiles, type Account } from './helpers';

const temp = tempFolders();

const run = promisify(execFile);

const LIMIT = 64 * 1024;

let s: TestServer;
let alice: Account;
let bob: Account;

const goVersion = await run('go', ['version'], { env: { PATH: process.env.PATH, HOME: tmpdir() }, timeout: 30_000 }).then(
  (r) => r.stdout.trim(),
  () => undefined,
);
if (!goVersion) console.warn('packages-go: `go version` failed, so the real-client tests are skipped (install Go: https://go.dev/dl, or the distribution’s golang package)');

const db = () => (s.host as unknown as { storage: { db: Kysely<any> } }).storage.db;
const api = (owner: string) => `/api/packages/${owner}/go`;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const basic = (who: Account) => ({ authorization: `Basic ${Buffer.from(`${who.name}:${who.token}`).toString('base64')}` });

/** A zip as `go mod download` lays a module out (and as Forgejo's own test builds it): entries named `{module}@{version}/…`. */
const zipOf = zipFiles;

/** A module whose package `greet` says which version it is. */
function moduleZip(module: string, version: string, deflate = false): Buffer {
  return zipOf(
    {
      [`${module}@${version}/go.mod`]: `module ${module}\n\ngo 1.21\n`,
      [`${module}@${version}/greet.go`]: `package greet\n\nfunc Hello() string { return "${module}@${version}" }\n`,
    },
    deflate,
  );
}

function upload(owner: string, body: Buffer, headers: Record<string, string>): Promise<Response> {
  return s.fetch(`${api(owner)}/upload`, { method: 'PUT', body, headers });
}

/** The GOPROXY protocol's case-encoding, written out here independently of the server's. */
const escaped = (text: string) => text.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);

/** A shared build cache (content-addressed, so safe to share) spares compiling the runtime in every run. */
const goCache = path.join(tmpdir(), 'repohost-test-gocache');

/** Runs the real go command against a registry, with a fresh module cache under `root`. */
async function go(root: string, cwd: string, proxy: string, ...args: [...string[], string | Record<string, string>]): Promise<{ stdout: string; stderr: string }> {
  const last = args.at(-1);
  const extra = typeof last === 'object' ? (args.pop() as Record<string, string>) : {};
  return run('go', args as string[], {
    cwd,
    timeout: 240_000,
    env: {
      PATH: process.env.PATH,
      HOME: root,
      GOPATH: path.join(root, 'gopath'),
      GOMODCACHE: path.join(root, 'mod'),
      GOCACHE: goCache,
      GOPROXY: proxy,
      // No checksum database: the modules exist only here.
      GOSUMDB: 'off',
      GONOSUMDB: '*',
      GOFLAGS: '-mod=mod',
      GOTOOLCHAIN: 'local',
      CGO_ENABLED: '0',
      ...extra,
    },
  });
}

/**
 * An HTTPS front for the test server: a self-signed certificate for 127.0.0.1 (made with openssl, for the go
 * command's SSL_CERT_FILE), and every request passed on as it came, credentials included.
 */
async function tlsFront(): Promise<{ url: string; cert: string; close: () => Promise<void> }> {
  const folder = await temp.make('go-tls-');
  const key = path.join(folder, 'key.pem');
  const cert = path.join(folder, 'cert.pem');
  await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { timeout: 30_000 });
  const target = new URL(s.url);
  const server = createServer({ key: await readFile(key), cert: await readFile(cert) }, (req, res) => {
    const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `https://127.0.0.1:${port}/`, cert, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A main module importing `module`'s package and printing its greeting (to stderr: `println` needs no imports). */
async function consumer(module: string): Promise<string> {
  const folder = await temp.make('go-consumer-');
  await writeFile(path.join(folder, 'go.mod'), 'module consumer\n\ngo 1.21\n');
  await writeFile(path.join(folder, 'main.go'), `package main\n\nimport greet "${module}"\n\nfunc main() { println(greet.Hello()) }\n`);
  return folder;
}

beforeAll(async () => {
  s = await startTestServer({ packages: { LIMIT_SIZE_GO: LIMIT } });
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
  await mkdir(goCache, { recursive: true });
});

afterAll(async () => {
  await temp.removeAll();
  await s?.cleanup();
});

describe.skipIf(!goVersion)('the Go registry with the real go command', () => {
  // A capital in the path: the go command asks for it case-encoded (`!g`).
  const module = `example.com/${uniq('m')}/Greet`;
  const proxy = () => `${s.url}api/packages/${alice.name}/go`;

  test('two uploads, then go lists them, gets a version and the newest, and runs a module importing it', async () => {
    expect((await upload(alice.name, moduleZip(module, 'v1.0.0'), basic(alice))).status).toBe(201);
    // The second upload deflates its entries: the go.mod is read through inflate.
    expect((await upload(alice.name, moduleZip(module, 'v1.1.0', true), basic(alice))).status).toBe(201);

    const root = await temp.make('go-root-');
    const folder = await consumer(module);
    const listed = await go(root, folder, proxy(), 'list', '-m', '-versions', module);
    expect(listed.stdout.trim()).toBe(`${module} v1.0.0 v1.1.0`);

    await go(root, folder, proxy(), 'get', `${module}@v1.0.0`);
    expect((await go(root, folder, proxy(), 'run', '.')).stderr.trim()).toBe(`${module}@v1.0.0`);
    // The module cache holds what the registry served, under the case-encoded path.
    expect(existsSync(path.join(root, 'mod', 'cache', 'download', escaped(module), '@v', 'v1.0.0.zip'))).toBe(true);

    await go(root, folder, proxy(), 'get', `${module}@latest`);
    expect((await go(root, folder, proxy(), 'run', '.')).stderr.trim()).toBe(`${module}@v1.1.0`);
    await go(root, folder, proxy(), 'build', '-o', path.join(root, 'consumer'), '.');
    expect(existsSync(path.join(root, 'consumer'))).toBe(true);
  });

  test('the protocol’s answers are Forgejo’s: list, info, @latest, mod, zip', async () => {
    const base = `${api(alice.name)}/${escaped(module)}`;
    const list = await s.fetch(`${base}/@v/list`);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toBe('text/plain;charset=utf-8');
    expect(await list.text()).toBe('v1.0.0\nv1.1.0\n');

    const info = await s.fetch(`${base}/@v/v1.0.0.info`);
    expect(info.status).toBe(200);
    expect(info.headers.get('content-type')).toBe('application/json;charset=utf-8');
    const body = await json(info);
    expect(Object.keys(body)).toEqual(['Version', 'Time']);
    expect(body.Version).toBe('v1.0.0');
    expect(body.Time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await json(await s.fetch(`${base}/@latest`))).Version).toBe('v1.1.0');
    expect((await json(await s.fetch(`${base}/@v/latest.info`))).Version).toBe('v1.1.0');

    const mod = await s.fetch(`${base}/@v/v1.1.0.mod`);
    expect(mod.status).toBe(200);
    expect(await mod.text()).toBe(`module ${module}\n\ngo 1.21\n`);

    const zip = await s.fetch(`${base}/@v/v1.0.0.zip`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-disposition')).toContain('filename="v1.0.0.zip"');
    expect(sha256(Buffer.from(await zip.arrayBuffer()))).toBe(sha256(moduleZip(module, 'v1.0.0')));

    // The path as stored (not case-encoded) finds it too, as in Forgejo.
    expect((await s.fetch(`${api(alice.name)}/${module}/@v/list`)).status).toBe(200);

    // Stored as Forgejo stores it: nil metadata, the go.mod as a version property, one lead file `{version}.zip`.
    const row = await db().selectFrom('package_version').innerJoin('package', 'package.id', 'package_version.package_id').select(['metadata_json', 'package_version.id as id', 'semver_compatible', 'package.name as name']).where('package.type', '=', 'go').where('package.lower_name', '=', module.toLowerCase()).where('version', '=', 'v1.0.0').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ metadata_json: 'null', semver_compatible: 0, name: module });
    expect(await db().selectFrom('package_property').select(['name', 'value']).where('ref_type', '=', 0).where('ref_id', '=', row.id).execute()).toEqual([{ name: 'go.mod', value: `module ${module}\n\ngo 1.21\n` }]);
    expect(await db().selectFrom('package_file').select(['name', 'is_lead']).where('version_id', '=', row.id).execute()).toEqual([{ name: 'v1.0.0.zip', is_lead: 1 }]);
  });

  test('a private organization: go reads it over HTTPS with the token in the GOPROXY URL; without it, it is 401', async () => {
    const org = uniq('gorg');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org, visibility: 'private' }, alice.h))).status).toBe(201);
    const hidden = `example.com/${uniq('hidden')}/lib`;
    expect((await upload(org, moduleZip(hidden, 'v0.1.0'), basic(alice))).status).toBe(201);
    for (const headers of [{}, basic(bob)]) {
      const refused = await s.fetch(`${api(org)}/${hidden}/@v/list`, { headers });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
      expect((await upload(org, moduleZip(hidden, 'v0.2.0'), headers)).status).toBe(401);
    }

    // The go command sends a URL's credentials over HTTPS only ("refusing to pass credentials to insecure URL").
    const front = await tlsFront();
    try {
      const root = await temp.make('go-root-');
      const folder = await consumer(hidden);
      const withToken = new URL(`api/packages/${org}/go`, front.url);
      withToken.username = alice.name;
      withToken.password = alice.token;
      await go(root, folder, withToken.href, 'get', `${hidden}@v0.1.0`, { SSL_CERT_FILE: front.cert });
      expect((await go(root, folder, withToken.href, 'run', '.')).stderr.trim()).toBe(`${hidden}@v0.1.0`);
      // Without credentials the go command is refused.
      const fresh = await temp.make('go-root-');
      await expect(go(fresh, await consumer(hidden), new URL(`api/packages/${org}/go`, front.url).href, 'get', `${hidden}@v0.1.0`, { SSL_CERT_FILE: front.cert })).rejects.toThrow(/401/);
    } finally {
      await front.close();
    }
  });

  test('API v1 lists the versions with type=go, with their files', async () => {
    const res = await s.fetch(`/api/v1/packages/${alice.name}?type=go`, { headers: alice.h });
    expect(res.status).toBe(200);
    const list = await json<any[]>(res);
    for (const p of list) expect(matchesSchema(PackageSchema, p)).toBe(true);
    expect(list.filter((p) => p.name === module).map((p) => p.version).sort()).toEqual(['v1.0.0', 'v1.1.0']);
    expect(list.every((p) => p.type === 'go')).toBe(true);
    const files = await json<any[]>(await s.fetch(`/api/v1/packages/${alice.name}/go/${encodeURIComponent(module)}/v1.0.0/files`, { headers: alice.h }));
    expect(files.map((f) => f.name)).toEqual(['v1.0.0.zip']);
  });
});

describe('the Go registry over HTTP', () => {
  test('anonymous upload is 401, another user is 401, a bad token is 401; nothing is stored', async () => {
    const name = `example.com/${uniq('guard')}`;
    const body = moduleZip(name, 'v1.0.0');
    const anonymous = await upload(alice.name, body, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
    expect((await upload(alice.name, body, basic(bob))).status).toBe(401);
    expect((await upload(alice.name, body, { authorization: 'Bearer nonsense' })).status).toBe(401);
    expect((await db().selectFrom('package').select('id').where('name', '=', name).execute()).length).toBe(0);
    // A token header writes too.
    expect((await upload(alice.name, body, { authorization: `token ${alice.token}` })).status).toBe(201);
  });

  test('a bad zip, version or module path is 400 with Forgejo’s message; a version that exists is 409', async () => {
    const owner = await account(s, 'bad');
    const h = basic(owner);
    const name = `example.com/${uniq('bad')}`;
    for (const [body, message] of [
      [zipOf({}), 'package has invalid structure'],
      [zipOf({ 'go.mod': 'module x\n' }), 'package has invalid structure'],
      [Buffer.from('not a zip at all, just some bytes'), 'zip: not a valid zip file'],
      [Buffer.alloc(0), 'zip: not a valid zip file'],
      [zipOf({ [`${name}@1.0.0/go.mod`]: 'module x\n' }), 'package version is invalid'],
      [zipOf({ [`${name}@v1.0.0\nv9.9.9/go.mod`]: 'module x\n' }), 'package version is invalid'],
      [zipOf({ [`${name}@v01.0.0/go.mod`]: 'module x\n' }), 'package version is invalid'],
      [zipOf({ [`${name}@v1.0.0-/go.mod`]: 'module x\n' }), 'package version is invalid'],
      [zipOf({ '../../evil@v1.0.0/go.mod': 'module x\n' }), 'package name is invalid'],
      [zipOf({ 'example.com//x@v1.0.0/go.mod': 'module x\n' }), 'package name is invalid'],
    ] as const) {
      const res = await upload(owner.name, body, h);
      expect(res.status, message).toBe(400);
      expect(await res.text(), message).toBe(message);
    }
    expect((await db().selectFrom('package').innerJoin('user', 'user.id', 'package.owner_id').select('package.id').where('user.name', '=', owner.name).execute()).length).toBe(0);

    // A zip without a go.mod gets Forgejo's `module {name}`; prerelease and build versions are semver too.
    expect((await upload(owner.name, zipOf({ [`${name}@v2.0.0-rc.1+build.5/a.go`]: 'package a\n' }), h)).status).toBe(201);
    expect(await (await s.fetch(`${api(owner.name)}/${name}/@v/v2.0.0-rc.1+build.5.mod`)).text()).toBe(`module ${name}`);

    // A capital in a version is case-encoded too (`!r!c1`); the list gives it as uploaded.
    expect((await upload(owner.name, moduleZip(name, 'v3.0.0-RC1'), h)).status).toBe(201);
    expect((await json(await s.fetch(`${api(owner.name)}/${name}/@v/v3.0.0-!r!c1.info`))).Version).toBe('v3.0.0-RC1');

    expect((await upload(owner.name, moduleZip(name, 'v1.0.0'), h)).status).toBe(201);
    expect(await (await s.fetch(`${api(owner.name)}/${name}/@v/list`)).text()).toBe('v2.0.0-rc.1+build.5\nv3.0.0-RC1\nv1.0.0\n');
    const again = await upload(owner.name, zipOf({ [`${name}@v1.0.0/go.mod`]: 'module other\n' }), h);
    expect(again.status).toBe(409);
    expect(await again.text()).toBe('package version already exists');
    // The version's zip and go.mod are what was first uploaded.
    expect(await (await s.fetch(`${api(owner.name)}/${name}/@v/v1.0.0.mod`)).text()).toBe(`module ${name}\n\ngo 1.21\n`);
  });

  test('a zip past LIMIT_SIZE_GO is 403 and leaves no package nor blob', async () => {
    const name = `example.com/${uniq('big')}`;
    const big = zipOf({ [`${name}@v1.0.0/go.mod`]: `module ${name}\n`, [`${name}@v1.0.0/blob.bin`]: randomBytes(LIMIT) });
    const res = await upload(alice.name, big, basic(alice));
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('maximum allowed package type size exceeded');
    expect((await db().selectFrom('package').select('id').where('name', '=', name).execute()).length).toBe(0);
    const hash = sha256(big);
    expect((await db().selectFrom('package_blob').select('id').where('hash_sha256', '=', hash).execute()).length).toBe(0);
    expect(existsSync(path.join(s.host.settings.server.APP_DATA_PATH, 'packages', ...packageBlobKey(hash).split('/')))).toBe(false);
    // Under the limit it is stored.
    const small = zipOf({ [`${name}@v1.0.0/go.mod`]: `module ${name}\n`, [`${name}@v1.0.0/blob.bin`]: randomBytes(LIMIT - 1024) });
    expect((await upload(alice.name, small, basic(alice))).status).toBe(201);
  });

  test('unknown modules, versions, paths and owners are 404 as Forgejo answers them', async () => {
    const none = `example.com/${uniq('none')}`;
    const list = await s.fetch(`${api(alice.name)}/${none}/@v/list`);
    expect(list.status).toBe(404);
    expect(await list.text()).toBe('');
    for (const file of ['v1.0.0.info', 'v1.0.0.mod', 'v1.0.0.zip', 'latest.info']) {
      const res = await s.fetch(`${api(alice.name)}/${none}/@v/${file}`);
      expect(res.status, file).toBe(404);
      expect(await res.text(), file).toBe('package does not exist');
    }
    expect((await s.fetch(`${api(alice.name)}/${none}/@latest`)).status).toBe(404);
    expect((await s.fetch(`${api(alice.name)}/${none}/@v/v1.0.0.txt`)).status).toBe(404);
    expect((await s.fetch(`${api(alice.name)}/${none}`)).status).toBe(404);
    // The go command asks whether the proxy serves the checksum database: it does not.
    expect((await s.fetch(`${api(alice.name)}/sumdb/sum.golang.org/supported`)).status).toBe(404);
    const nobody = await s.fetch(`/api/packages/${uniq('nobody')}/go/${none}/@v/list`);
    expect(nobody.status).toBe(404);
    expect(await nobody.text()).toBe('user does not exist');
  });
});
