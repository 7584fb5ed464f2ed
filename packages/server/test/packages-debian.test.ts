/**
 * The Debian registry under `/api/packages/{owner}/debian/…` as Forgejo serves it, proven with the real clients:
 * `dpkg-deb --build -Zgzip` makes two versions of a package (one `all`, one of this machine's architecture), they
 * are uploaded with fetch, then apt, as a consumer in a private root (its own sources, lists, cache and status),
 * verifies the InRelease signature with the owner's `repository.key` (`signed-by`, no `trusted=yes`), shows both
 * versions (`apt-cache policy`, `apt-cache show`) and downloads both byte for byte (`apt-get download`); with
 * another owner's key apt refuses the repository. Then over HTTP: the index files (Release, Packages, by-hash),
 * who may write (anonymous, another user, a private organization), bad archives, a file that exists, the size
 * limit, deletion rebuilding the index, and the API v1 list. Skips only when `dpkg-deb` or `apt-get` is missing.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import { PackageSchema, matchesSchema, packageBlobKey } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, json, tempFolders, uniq, ustarOf, type Account } from './helpers';

const run = promisify(execFile);

const LIMIT = 96 * 1024;

let s: TestServer;
let alice: Account;
let bob: Account;

const clientEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' };
const version = (cmd: string) =>
  run(cmd, ['--version'], { env: clientEnv, timeout: 30_000 }).then(
    (r) => r.stdout.split('\n')[0]!.trim(),
    () => undefined,
  );
const [dpkgDeb, aptGet] = await Promise.all([version('dpkg-deb'), version('apt-get')]);
const clients = Boolean(dpkgDeb && aptGet);
if (!clients) console.warn('packages-debian: `dpkg-deb` or `apt-get` is missing, so the real-client tests are skipped (install them: apt-get install -y dpkg apt)');

/** Temporary folders of the run, removed at its end. */
const temp = tempFolders();

const db = () => (s.host as unknown as { storage: { db: Kysely<any> } }).storage.db;
const api = (owner: string) => `/api/packages/${owner}/debian`;
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const basic = (who: Account) => ({ authorization: `Basic ${Buffer.from(`${who.name}:${who.token}`).toString('base64')}` });

function upload(owner: string, distribution: string, component: string, body: Buffer, headers: Record<string, string>): Promise<Response> {
  return s.fetch(`${api(owner)}/pool/${distribution}/${component}/upload`, { method: 'PUT', body, headers });
}

/** A ustar archive of regular files (what `control.tar` is). */
const tarOf = ustarOf;

/** An `ar` archive (what a .deb is). */
function arOf(members: [string, Buffer][]): Buffer {
  const parts: Buffer[] = [Buffer.from('!<arch>\n')];
  for (const [name, data] of members) {
    const header = `${name.padEnd(16)}${'0'.padEnd(12)}${'0'.padEnd(6)}${'0'.padEnd(6)}${'100644'.padEnd(8)}${String(data.length).padEnd(10)}\`\n`;
    parts.push(Buffer.from(header, 'latin1'), data);
    if (data.length % 2 === 1) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

/** A hand-made .deb with this control text (Forgejo's test builds its archives so). */
function debOf(control: string, compression: 'gz' | 'none' | 'xz' = 'gz'): Buffer {
  const tar = tarOf({ './control': control });
  const member: [string, Buffer] = compression === 'gz' ? ['control.tar.gz', gzipSync(tar)] : compression === 'xz' ? ['control.tar.xz', tar] : ['control.tar', tar];
  return arOf([['debian-binary', Buffer.from('2.0\n')], member, ['data.tar.gz', gzipSync(tarOf({}))]]);
}

const controlOf = (name: string, ver: string, arch: string) => `Package: ${name}\nVersion: ${ver}\nArchitecture: ${arch}\nMaintainer: Deb Tester <deb@example.com>\nDescription: a test package\n`;

/** The real dpkg-deb: a package with a file whose content names the version, and `extra` bytes when asked. */
async function buildDeb(name: string, ver: string, arch: string, extra?: Buffer): Promise<Buffer> {
  const root = await temp.make('deb-src-');
  await mkdir(path.join(root, 'DEBIAN'));
  await writeFile(
    path.join(root, 'DEBIAN', 'control'),
    `Package: ${name}\nVersion: ${ver}\nArchitecture: ${arch}\nMaintainer: Deb Tester <deb@example.com>\nDepends: libc6 (>= 2.17), zlib1g\nHomepage: https://example.com/${name}\nDescription: greets\n a longer description\n`,
  );
  const doc = path.join(root, 'usr', 'share', 'doc', name);
  await mkdir(doc, { recursive: true });
  await writeFile(path.join(doc, 'greeting'), `${name} ${ver}\n`);
  if (extra) await writeFile(path.join(doc, 'blob.bin'), extra);
  const out = path.join(await temp.make('deb-out-'), `${name}.deb`);
  await run('dpkg-deb', ['--root-owner-group', '-Zgzip', '--build', root, out], { env: clientEnv, timeout: 60_000 });
  return readFile(out);
}

/** apt in a private root: its own sources, state, cache and status; nothing of the machine's lists or keys. */
async function aptRoot(sourcesLine: string): Promise<{ dir: string; apt: (cmd: 'apt-get' | 'apt-cache', ...args: string[]) => Promise<{ stdout: string; stderr: string }> }> {
  const dir = await temp.make('apt-root-');
  for (const sub of ['state/lists/partial', 'cache/archives/partial', 'parts', 'trusted.d', 'prefs.d', 'dl']) await mkdir(path.join(dir, sub), { recursive: true });
  await writeFile(path.join(dir, 'sources.list'), `${sourcesLine}\n`);
  await writeFile(path.join(dir, 'status'), '');
  const options = [
    `Dir::Etc::sourcelist=${dir}/sources.list`,
    `Dir::Etc::sourceparts=${dir}/parts`,
    `Dir::Etc::trusted=${dir}/trusted.gpg`,
    `Dir::Etc::trustedparts=${dir}/trusted.d`,
    `Dir::Etc::preferencesparts=${dir}/prefs.d`,
    `Dir::State=${dir}/state`,
    `Dir::State::status=${dir}/status`,
    `Dir::Cache=${dir}/cache`,
    'Debug::NoLocking=1',
    // As root apt would fetch as `_apt`, which may not read a temporary folder; as anyone else it is ignored.
    'APT::Sandbox::User=root',
    'Acquire::Languages=none',
    'Acquire::Retries=0',
    // The test server is local: a proxy the machine's apt configuration may name is not for it.
    `Acquire::http::Proxy::${new URL(s.url).hostname}=DIRECT`,
  ].flatMap((o) => ['-o', o]);
  return {
    dir,
    apt: (cmd, ...args) => run(cmd, [...options, ...args], { cwd: path.join(dir, 'dl'), env: clientEnv, timeout: 120_000 }),
  };
}

beforeAll(async () => {
  s = await startTestServer({ packages: { LIMIT_SIZE_DEBIAN: LIMIT } });
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
});

afterAll(async () => {
  await s?.cleanup();
  await temp.removeAll();
});

describe.skipIf(!clients)('the Debian registry with dpkg-deb and apt', () => {
  const name = uniq('hello-');
  const debs: Record<string, Buffer> = {};

  test('two dpkg-deb packages uploaded; apt verifies InRelease with repository.key, lists both versions and downloads them', async () => {
    const native = (await run('dpkg', ['--print-architecture'], { env: clientEnv })).stdout.trim();
    debs['1.0.0'] = await buildDeb(name, '1.0.0', 'all');
    debs['1.1.0-1'] = await buildDeb(name, '1.1.0-1', native);
    expect((await upload(alice.name, 'stable', 'main', debs['1.0.0'], basic(alice))).status).toBe(201);
    expect((await upload(alice.name, 'stable', 'main', debs['1.1.0-1'], basic(alice))).status).toBe(201);

    const key = await s.fetch(`${api(alice.name)}/repository.key`);
    expect(key.status).toBe(200);
    expect(key.headers.get('content-type')).toBe('application/pgp-keys');
    const armored = await key.text();
    expect(armored).toContain('-----BEGIN PGP PUBLIC KEY BLOCK-----');
    // The key is made once and kept.
    expect(await (await s.fetch(`${api(alice.name)}/repository.key`)).text()).toBe(armored);

    const repo = `${s.url}api/packages/${alice.name}/debian`;
    const keyFile = path.join(await temp.make('deb-key-'), 'repository.asc');
    await writeFile(keyFile, armored);
    const { dir, apt } = await aptRoot(`deb [signed-by=${keyFile}] ${repo} stable main`);
    const update = await apt('apt-get', 'update');
    expect(update.stdout).toMatch(/stable InRelease/);
    expect(`${update.stdout}\n${update.stderr}`).not.toMatch(/^(W|E|Err):/m);

    const policy = (await apt('apt-cache', 'policy', name)).stdout;
    expect(policy).toContain('Candidate: 1.1.0-1');
    expect(policy).toMatch(/1\.1\.0-1 500\n\s+500 http:\/\/\S+ stable\/main/);
    expect(policy).toMatch(/1\.0\.0 500\n\s+500 http:\/\/\S+ stable\/main/);
    const shown = (await apt('apt-cache', 'show', `${name}=1.0.0`)).stdout;
    expect(shown).toContain(`Filename: pool/stable/main/${name}_1.0.0_all.deb`);
    expect(shown).toContain(`SHA256: ${sha256(debs['1.0.0'])}`);
    expect(shown).toContain('Depends: libc6 (>= 2.17), zlib1g');

    await apt('apt-get', 'download', name);
    await apt('apt-get', 'download', `${name}=1.0.0`);
    expect(sha256(await readFile(path.join(dir, 'dl', `${name}_1.1.0-1_${native}.deb`)))).toBe(sha256(debs['1.1.0-1']));
    expect(sha256(await readFile(path.join(dir, 'dl', `${name}_1.0.0_all.deb`)))).toBe(sha256(debs['1.0.0']));
  });

  test('with another owner’s key apt refuses the repository: the signature is checked', async () => {
    const other = await s.fetch(`${api(bob.name)}/repository.key`);
    const keyFile = path.join(await temp.make('deb-key-'), 'other.asc');
    await writeFile(keyFile, await other.text());
    const { apt } = await aptRoot(`deb [signed-by=${keyFile}] ${s.url}api/packages/${alice.name}/debian stable main`);
    const failed = await apt('apt-get', 'update').then(
      (r) => `${r.stdout}\n${r.stderr}`,
      (e: { stdout: string; stderr: string }) => `${e.stdout}\n${e.stderr}`,
    );
    expect(failed).toMatch(/NO_PUBKEY|not signed|signatures couldn't be verified/);
    await expect(apt('apt-cache', 'show', name)).rejects.toThrow();
  });

  test('the index files are Forgejo’s: Release lists Packages and Packages.gz with their hashes, by-hash serves them', async () => {
    const release = await s.fetch(`${api(alice.name)}/dists/stable/Release`);
    expect(release.status).toBe(200);
    const text = await release.text();
    expect(text).toContain('Components: main\n');
    expect(text).toMatch(/^Architectures: all \S+\n/m);
    expect(text).toContain('Acquire-By-Hash: yes\n');
    const packages = Buffer.from(await (await s.fetch(`${api(alice.name)}/dists/stable/main/binary-all/Packages`)).arrayBuffer());
    const packagesGz = Buffer.from(await (await s.fetch(`${api(alice.name)}/dists/stable/main/binary-all/Packages.gz`)).arrayBuffer());
    expect(gunzipSync(packagesGz).equals(packages)).toBe(true);
    expect(text).toContain(` ${sha256(packages)} ${packages.length} main/binary-all/Packages\n`);
    expect(text).toContain(` ${sha256(packagesGz)} ${packagesGz.length} main/binary-all/Packages.gz\n`);
    const stanza = packages.toString();
    expect(stanza).toContain(`Package: ${name}\nVersion: 1.0.0\nArchitecture: all\n`);
    expect(stanza).toContain(`Filename: pool/stable/main/${name}_1.0.0_all.deb\nSize: ${debs['1.0.0']!.length}\n`);
    expect(stanza).not.toContain('1.1.0-1');

    const byHash = await s.fetch(`${api(alice.name)}/dists/stable/main/binary-all/by-hash/SHA256/${sha256(packages)}`);
    expect(Buffer.from(await byHash.arrayBuffer()).equals(packages)).toBe(true);
    expect(await (await s.fetch(`${api(alice.name)}/dists/stable/by-hash/SHA256/${sha256(text)}`)).text()).toBe(text);
    expect((await s.fetch(`${api(alice.name)}/dists/stable/by-hash/SHA256/${'0'.repeat(64)}`)).status).toBe(404);
    expect(await (await s.fetch(`${api(alice.name)}/dists/stable/Release.gpg`)).text()).toContain('-----BEGIN PGP SIGNATURE-----');
    expect(await (await s.fetch(`${api(alice.name)}/dists/stable/InRelease`)).text()).toContain('-----BEGIN PGP SIGNED MESSAGE-----');

    const deb = await s.fetch(`${api(alice.name)}/pool/stable/main/${name}_1.0.0_all.deb`);
    expect(deb.status).toBe(200);
    expect(deb.headers.get('content-type')).toBe('application/vnd.debian.binary-package');
    expect(sha256(Buffer.from(await deb.arrayBuffer()))).toBe(sha256(debs['1.0.0']!));
    expect((await s.fetch(`${api(alice.name)}/pool/testing/main/${name}_1.0.0_all.deb`)).status).toBe(404);

    const row = await db().selectFrom('package_version').innerJoin('package', 'package.id', 'package_version.package_id').select(['metadata_json', 'semver_compatible']).where('package.type', '=', 'debian').where('package.lower_name', '=', name).where('version', '=', '1.0.0').executeTakeFirstOrThrow();
    expect(JSON.parse(row.metadata_json)).toEqual({
      maintainer: 'Deb Tester',
      project_url: `https://example.com/${name}`,
      description: 'greets a longer description',
      dependencies: ['libc6 (>= 2.17)', 'zlib1g'],
    });
    expect(row.semver_compatible).toBe(0);
  });

  test('API v1 lists the versions with type=debian, not the internal repository package', async () => {
    const res = await s.fetch(`/api/v1/packages/${alice.name}?type=debian`, { headers: alice.h });
    expect(res.status).toBe(200);
    const list = await json<any[]>(res);
    for (const p of list) expect(matchesSchema(PackageSchema, p)).toBe(true);
    expect(list.filter((p) => p.name === name).map((p) => p.version).sort()).toEqual(['1.0.0', '1.1.0-1']);
    expect(list.every((p) => p.type === 'debian' && p.name !== '_debian')).toBe(true);
  });
});

describe('the Debian registry over HTTP', () => {
  test('anonymous upload and delete are 401, another user is 401; nothing is stored', async () => {
    const name = uniq('guard-');
    const body = debOf(controlOf(name, '1.0', 'all'));
    for (const headers of [{}, basic(bob), { authorization: 'Bearer nonsense' }]) {
      const res = await upload(alice.name, 'stable', 'main', body, headers);
      expect(res.status).toBe(401);
      expect((await s.fetch(`${api(alice.name)}/pool/stable/main/${name}/1.0/all`, { method: 'DELETE', headers })).status).toBe(401);
    }
    expect((await upload(alice.name, 'stable', 'main', body, {})).headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
    expect((await db().selectFrom('package').select('id').where('name', '=', name).execute()).length).toBe(0);
    expect((await upload(alice.name, 'stable', 'main', body, { authorization: `token ${alice.token}` })).status).toBe(201);
  });

  test('a private organization: members upload and read, others get 401', async () => {
    const org = uniq('dorg');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org, visibility: 'private' }, alice.h))).status).toBe(201);
    const name = uniq('hidden-');
    expect((await upload(org, 'stable', 'main', debOf(controlOf(name, '1.0', 'all')), basic(alice))).status).toBe(201);
    for (const headers of [{}, basic(bob)]) {
      expect((await s.fetch(`${api(org)}/dists/stable/Release`, { headers })).status).toBe(401);
      expect((await s.fetch(`${api(org)}/repository.key`, { headers })).status).toBe(401);
      expect((await upload(org, 'stable', 'main', debOf(controlOf(name, '2.0', 'all')), headers)).status).toBe(401);
    }
    expect((await s.fetch(`${api(org)}/dists/stable/main/binary-all/Packages`, { headers: basic(alice) })).status).toBe(200);
    const nobody = await s.fetch(`${api(uniq('nobody'))}/repository.key`);
    expect(nobody.status).toBe(404);
    expect(await nobody.text()).toBe('user does not exist');
  });

  test('bad archives, fields and paths are 400 with a reason; the same file in the same place is 409', async () => {
    const owner = await account(s, 'bad');
    const h = basic(owner);
    const name = uniq('bad-');
    for (const [body, message] of [
      [Buffer.alloc(0), 'control file is missing'],
      [Buffer.from('not an archive at all, just some bytes'), 'invalid debian archive'],
      [arOf([['debian-binary', Buffer.from('2.0\n')]]), 'control file is missing'],
      [arOf([['control.tar.gz', Buffer.from('no gzip here')]]), 'invalid debian archive'],
      [debOf(controlOf(name, '1.0', 'all'), 'xz'), 'unsupported compression algorithmn'],
      [debOf('Package: \nVersion: \nArchitecture: \n'), 'package name is invalid'],
      [debOf(controlOf('Upper', '1.0', 'all')), 'package name is invalid'],
      [debOf(controlOf('../x', '1.0', 'all')), 'package name is invalid'],
      [debOf(controlOf(name, '1.0 beta', 'all')), 'package version is invalid'],
      [debOf(controlOf(name, '-1', 'all')), 'package version is invalid'],
      [debOf(controlOf(name, '1.0', 'am d64')), 'package architecture is invalid'],
      [debOf(`Package: ${name}\nVersion: 1.0\n`), 'package architecture is invalid'],
    ] as const) {
      const res = await upload(owner.name, 'stable', 'main', body, h);
      expect(res.status, message).toBe(400);
      expect(await res.text(), message).toBe(message);
    }
    const blank = await upload(owner.name, '%20', 'main', debOf(controlOf(name, '1.0', 'all')), h);
    expect(blank.status).toBe(400);
    expect(await blank.text()).toBe('invalid distribution or component');
    expect((await db().selectFrom('package').innerJoin('user', 'user.id', 'package.owner_id').select('package.id').where('user.name', '=', owner.name).where('package.is_internal', '=', 0).execute()).length).toBe(0);

    // An uncompressed control.tar and an epoch and revision are fine.
    expect((await upload(owner.name, 'stable', 'main', debOf(controlOf(name, '2:1.0+dfsg-1~bpo1', 'all'), 'none'), h)).status).toBe(201);
    const again = await upload(owner.name, 'stable', 'main', debOf(controlOf(name, '2:1.0+dfsg-1~bpo1', 'all'), 'none'), h);
    expect(again.status).toBe(409);
    expect(await again.text()).toBe('package file already exists');
    // The same file in another component or distribution is another file.
    expect((await upload(owner.name, 'stable', 'contrib', debOf(controlOf(name, '2:1.0+dfsg-1~bpo1', 'all'), 'none'), h)).status).toBe(201);
    expect((await upload(owner.name, 'testing', 'main', debOf(controlOf(name, '2:1.0+dfsg-1~bpo1', 'all'), 'none'), h)).status).toBe(201);
    expect(await (await s.fetch(`${api(owner.name)}/dists/stable/Release`)).text()).toContain('Components: contrib main\n');
  });

  test('a .deb past LIMIT_SIZE_DEBIAN is 403 and leaves no package nor blob', async () => {
    const name = uniq('big-');
    const big = debOf(controlOf(name, '1.0', 'all'));
    const padded = Buffer.concat([big, arOf([['pad', randomBytes(LIMIT)]]).subarray(8)]);
    const res = await upload(alice.name, 'stable', 'main', padded, basic(alice));
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('maximum allowed package type size exceeded');
    expect((await db().selectFrom('package').select('id').where('name', '=', name).execute()).length).toBe(0);
    expect(existsSync(path.join(s.host.settings.server.APP_DATA_PATH, 'packages', ...packageBlobKey(sha256(padded)).split('/')))).toBe(false);
  });

  test('delete removes the file and rebuilds the index; the last one removes Packages and Release', async () => {
    const owner = await account(s, 'del');
    const h = basic(owner);
    const name = uniq('gone-');
    for (const ver of ['1.0', '2.0']) expect((await upload(owner.name, 'sid', 'main', debOf(controlOf(name, ver, 'amd64')), h)).status).toBe(201);
    const packagesUrl = `${api(owner.name)}/dists/sid/main/binary-amd64/Packages`;
    expect(await (await s.fetch(packagesUrl)).text()).toContain('Version: 1.0\n');

    expect((await s.fetch(`${api(owner.name)}/pool/sid/main/${name}/1.0/amd64`, { method: 'DELETE' })).status).toBe(401);
    expect((await s.fetch(`${api(owner.name)}/pool/sid/main/${name}/1.0/amd64`, { method: 'DELETE', headers: h })).status).toBe(204);
    const after = await (await s.fetch(packagesUrl)).text();
    expect(after).not.toContain('Version: 1.0\n');
    expect(after).toContain('Version: 2.0\n');
    expect((await s.fetch(`${api(owner.name)}/pool/sid/main/${name}_1.0_amd64.deb`)).status).toBe(404);
    const missing = await s.fetch(`${api(owner.name)}/pool/sid/main/${name}/1.0/amd64`, { method: 'DELETE', headers: h });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('package does not exist');

    expect((await s.fetch(`${api(owner.name)}/pool/sid/main/${name}/2.0/amd64`, { method: 'DELETE', headers: h })).status).toBe(204);
    expect((await s.fetch(packagesUrl)).status).toBe(404);
    expect((await s.fetch(`${packagesUrl}.gz`)).status).toBe(404);
    expect((await s.fetch(`${api(owner.name)}/dists/sid/Release`)).status).toBe(404);
    expect((await s.fetch(`${api(owner.name)}/dists/sid/InRelease`)).status).toBe(404);
    expect((await db().selectFrom('package').select('id').where('name', '=', name).execute()).length).toBe(0);
  });

  test('API v1: a version’s files are listed; its deletion there rebuilds the index too; the internal repository package is not there', async () => {
    const owner = await account(s, 'v1');
    const h = basic(owner);
    const name = uniq('v1-');
    for (const ver of ['1.0', '2.0']) expect((await upload(owner.name, 'sid', 'main', debOf(controlOf(name, ver, 'amd64')), h)).status).toBe(201);
    // The same file in a second distribution is a second file of the version.
    expect((await upload(owner.name, 'stable', 'main', debOf(controlOf(name, '1.0', 'amd64')), h)).status).toBe(201);
    const files = await json<{ name: string }[]>(await s.fetch(`/api/v1/packages/${owner.name}/debian/${name}/1.0/files`, { headers: h }));
    expect(files.map((f) => f.name)).toEqual([`${name}_1.0_amd64.deb`, `${name}_1.0_amd64.deb`]);

    const packagesUrl = (distribution: string) => `${api(owner.name)}/dists/${distribution}/main/binary-amd64/Packages`;
    expect((await s.fetch(`/api/v1/packages/${owner.name}/debian/${name}/1.0`, { method: 'DELETE', headers: h })).status).toBe(204);
    await s.host.events.idle();
    const sid = await (await s.fetch(packagesUrl('sid'))).text();
    expect(sid).not.toContain('Version: 1.0\n');
    expect(sid).toContain('Version: 2.0\n');
    // stable had only that version: its index and Release are gone.
    expect((await s.fetch(packagesUrl('stable'))).status).toBe(404);
    expect((await s.fetch(`${api(owner.name)}/dists/stable/Release`)).status).toBe(404);
    expect(await (await s.fetch(`${api(owner.name)}/dists/sid/Release`)).text()).toContain('Suite: sid\n');

    // The index and signing key live in an internal version the API cannot reach.
    for (const [method, url] of [
      ['GET', `/api/v1/packages/${owner.name}/debian/_debian/_repository`],
      ['GET', `/api/v1/packages/${owner.name}/debian/_debian/_repository/files`],
      ['DELETE', `/api/v1/packages/${owner.name}/debian/_debian/_repository`],
      ['POST', `/api/v1/packages/${owner.name}/debian/_debian/-/link/nothing`],
    ] as const) {
      expect((await s.fetch(url, { method, headers: h })).status, `${method} ${url}`).toBe(404);
    }
    expect((await s.fetch(`${api(owner.name)}/repository.key`)).status).toBe(200);
  });
});
