/**
 * The Cargo registry under `/api/packages/{owner}/cargo/…` as Forgejo serves it, proven with the real `cargo` over
 * the sparse protocol (publish of two versions, a crate depending on it that builds and runs, search, yank and
 * unyank changing what a fresh resolution picks), and the unhappy paths as a client sees them over HTTP: who may
 * write (anonymous, another user, a private organization, whose config asks for auth), bad names and versions, a
 * crate shorter than announced, a version that exists, the size limit. The API v1 list shows what was published.
 * Skips only when `cargo --version` fails (the client is missing).
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import { PackageSchema, matchesSchema, packageBlobKey } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, json, tempFolders, uniq, type Account } from './helpers';

const temp = tempFolders();

const run = promisify(execFile);

const LIMIT = 64 * 1024;

let s: TestServer;
let alice: Account;
let bob: Account;
let home: string;

/** `cargo` is a rustup proxy: its toolchains are found through RUSTUP_HOME, which a temporary HOME would hide. */
const rustupHome = process.env.RUSTUP_HOME ?? path.join(homedir(), '.rustup');
const cargoEnv = (cargoHome: string) => ({
  PATH: process.env.PATH,
  HOME: cargoHome,
  CARGO_HOME: cargoHome,
  RUSTUP_HOME: rustupHome,
  CARGO_TERM_COLOR: 'never',
  CARGO_TARGET_DIR: path.join(cargoHome, 'target'),
});

const cargoVersion = await run('cargo', ['--version'], { env: cargoEnv(tmpdir()), timeout: 30_000 }).then(
  (r) => r.stdout.trim(),
  () => undefined,
);
if (!cargoVersion) console.warn('packages-cargo: `cargo --version` failed, so the real-client tests are skipped (install Rust: rustup or the distribution’s cargo package)');

const db = () => (s.host as unknown as { storage: { db: Kysely<any> } }).storage.db;
const api = (owner: string) => `/api/packages/${owner}/cargo`;
const crates = (owner: string) => `${api(owner)}/api/v1/crates`;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Runs the real cargo with the temporary CARGO_HOME (its config names the registry, its credentials alice's token). */
async function cargo(cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run('cargo', args, { cwd, env: cargoEnv(home), timeout: 180_000 });
}

/** A library crate whose one function says which version it is. */
async function library(name: string, version: string): Promise<string> {
  const folder = await temp.make('cargo-lib-');
  await mkdir(path.join(folder, 'src'));
  await writeFile(
    path.join(folder, 'Cargo.toml'),
    [
      '[package]',
      `name = "${name}"`,
      `version = "${version}"`,
      'edition = "2021"',
      `description = "the ${name} crate"`,
      'license = "MIT"',
      'keywords = ["repohost"]',
      'homepage = "https://example.com/home"',
      '',
      '[features]',
      'default = []',
      'loud = []',
      '',
    ].join('\n'),
  );
  await writeFile(path.join(folder, 'src', 'lib.rs'), `pub fn greet() -> &'static str {\n    "${name}@${version}"\n}\n`);
  return folder;
}

/** A binary crate that depends on `dependency` from the registry and prints its greeting. */
async function consumer(dependency: string): Promise<string> {
  const folder = await temp.make('cargo-bin-');
  await mkdir(path.join(folder, 'src'));
  await writeFile(
    path.join(folder, 'Cargo.toml'),
    ['[package]', 'name = "consumer"', 'version = "0.1.0"', 'edition = "2021"', '', '[dependencies]', `${dependency} = { version = "1", registry = "repohost" }`, ''].join('\n'),
  );
  await writeFile(path.join(folder, 'src', 'main.rs'), `fn main() {\n    println!("{}", ${dependency}::greet());\n}\n`);
  return folder;
}

/** The version of `name` a lockfile resolved. */
async function lockedVersion(folder: string, name: string): Promise<string | undefined> {
  const lock = await readFile(path.join(folder, 'Cargo.lock'), 'utf8');
  const at = lock.indexOf(`name = "${name}"\nversion = "`);
  if (at < 0) return undefined;
  const start = lock.indexOf('version = "', at) + 'version = "'.length;
  return lock.slice(start, lock.indexOf('"', start));
}

/** Cargo's publish body: u32 LE metadata length, the metadata JSON, u32 LE crate length, the crate. */
function publishBody(metadata: object | string, crate: Buffer, declared = crate.length): Buffer {
  const meta = Buffer.from(typeof metadata === 'string' ? metadata : JSON.stringify(metadata));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(meta.length);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(declared);
  return Buffer.concat([head, meta, size, crate]);
}

const meta = (name: string, vers: string, extra: object = {}) => ({ name, vers, deps: [], features: {}, authors: [], description: `about ${name}`, ...extra });

function publish(owner: string, body: Buffer, headers: Record<string, string>): Promise<Response> {
  return s.fetch(`${crates(owner)}/new`, { method: 'PUT', body, headers: { 'content-type': 'application/octet-stream', ...headers } });
}

const bearer = (account: Account) => ({ authorization: `Bearer ${account.token}` });

beforeAll(async () => {
  s = await startTestServer({ packages: { LIMIT_SIZE_CARGO: LIMIT } });
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
  home = await temp.make('cargo-home-');
  await writeFile(path.join(home, 'config.toml'), ['[registries.repohost]', `index = "sparse+${s.url}api/packages/${alice.name}/cargo/"`, ''].join('\n'));
  // Cargo sends the token verbatim in `Authorization`; Forgejo's documentation has it written with its scheme.
  await writeFile(path.join(home, 'credentials.toml'), ['[registries.repohost]', `token = "Bearer ${alice.token}"`, ''].join('\n'));
});

afterAll(async () => {
  await temp.removeAll();
  await s?.cleanup();
});

describe.skipIf(!cargoVersion)('the Cargo registry with the real cargo client', () => {
  const crate = uniq('lib');

  test('cargo publish of two versions; config.json and the index file are Forgejo’s', async () => {
    await cargo(await library(crate, '1.0.0'), 'publish', '--registry', 'repohost', '--allow-dirty', '--no-verify');
    await cargo(await library(crate, '1.1.0'), 'publish', '--registry', 'repohost', '--allow-dirty', '--no-verify');

    const config = await s.fetch(`${api(alice.name)}/config.json`);
    expect(config.status).toBe(200);
    expect(await json(config)).toEqual({ dl: `${s.url}api/packages/${alice.name}/cargo/api/v1/crates`, api: `${s.url}api/packages/${alice.name}/cargo`, 'auth-required': false });

    const index = await s.fetch(`${api(alice.name)}/${crate.slice(0, 2)}/${crate.slice(2, 4)}/${crate}`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/plain;charset=utf-8');
    const lines = (await index.text()).split('\n');
    expect(lines.pop()).toBe('');
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries.map((e) => e.vers)).toEqual(['1.0.0', '1.1.0']);
    expect(Object.keys(entries[0])).toEqual(['name', 'vers', 'deps', 'cksum', 'features', 'yanked']);
    expect(entries[0]).toMatchObject({ name: crate, deps: [], features: { default: [], loud: [] }, yanked: false });

    // The checksum is the sha256 of the bytes the download gives, and the file is Forgejo's lower-case `.crate`.
    const download = await s.fetch(`${crates(alice.name)}/${crate}/1.0.0/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain(`filename="${crate}-1.0.0.crate"`);
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(sha256(bytes)).toBe(entries[0].cksum);
    // A .crate is a gzip'd tarball.
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    // The metadata is kept as Forgejo keeps it.
    const row = await db().selectFrom('package_version').innerJoin('package', 'package.id', 'package_version.package_id').select(['metadata_json', 'package_version.id as id', 'semver_compatible']).where('package.name', '=', crate).where('version', '=', '1.0.0').executeTakeFirstOrThrow();
    expect(JSON.parse(row.metadata_json)).toMatchObject({ description: `the ${crate} crate`, license: 'MIT', keywords: ['repohost'], project_url: 'https://example.com/home' });
    expect(row.semver_compatible).toBe(1);
    const yanked = await db().selectFrom('package_property').select(['name', 'value']).where('ref_type', '=', 0).where('ref_id', '=', row.id).execute();
    expect(yanked).toEqual([{ name: 'cargo.yanked', value: 'false' }]);
  });

  test('a crate depending on it resolves it from the sparse index, builds and runs', async () => {
    const folder = await consumer(crate);
    const { stdout } = await cargo(folder, 'run', '--quiet');
    expect(stdout.trim()).toBe(`${crate}@1.1.0`);
    expect(await lockedVersion(folder, crate)).toBe('1.1.0');
    // The lockfile names the registry's sparse index as the source.
    expect(await readFile(path.join(folder, 'Cargo.lock'), 'utf8')).toContain(`source = "sparse+${s.url}api/packages/${alice.name}/cargo/"`);
  });

  test('cargo search finds it with its newest version', async () => {
    const { stdout } = await cargo(home, 'search', '--registry', 'repohost', crate);
    expect(stdout).toContain(`${crate} = "1.1.0"`);
    expect(stdout).toContain(`the ${crate} crate`);
  });

  test('cargo yank marks the version in the index and a fresh resolution passes it over; --undo brings it back', async () => {
    await cargo(home, 'yank', '--registry', 'repohost', '--version', '1.1.0', crate);
    const index = async () => (await (await s.fetch(`${api(alice.name)}/${crate.slice(0, 2)}/${crate.slice(2, 4)}/${crate}`)).text()).trim().split('\n').map((l) => JSON.parse(l));
    expect((await index()).map((e) => [e.vers, e.yanked])).toEqual([['1.0.0', false], ['1.1.0', true]]);
    const fresh = await consumer(crate);
    await cargo(fresh, 'generate-lockfile');
    expect(await lockedVersion(fresh, crate)).toBe('1.0.0');

    await cargo(home, 'yank', '--registry', 'repohost', '--version', '1.1.0', '--undo', crate);
    expect((await index()).map((e) => [e.vers, e.yanked])).toEqual([['1.0.0', false], ['1.1.0', false]]);
    await cargo(fresh, 'update');
    expect(await lockedVersion(fresh, crate)).toBe('1.1.0');
  });

  test('a private organization’s registry: config.json asks for auth, cargo sends its token for the index too', async () => {
    const org = uniq('porg');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org, visibility: 'private' }, alice.h))).status).toBe(201);
    const index = `sparse+${s.url}api/packages/${org}/cargo/`;
    // An authenticated registry (`auth-required`) needs a credential provider named: the token in credentials.toml.
    await appendFile(path.join(home, 'config.toml'), ['[registries.private]', `index = "${index}"`, 'credential-provider = ["cargo:token"]', ''].join('\n'));
    await appendFile(path.join(home, 'credentials.toml'), ['[registries.private]', `token = "Bearer ${alice.token}"`, ''].join('\n'));
    const hidden = uniq('hidden');
    await cargo(await library(hidden, '1.0.0'), 'publish', '--registry', 'private', '--allow-dirty', '--no-verify');
    // Without the token the index is closed.
    expect((await s.fetch(`${api(org)}/${hidden.slice(0, 2)}/${hidden.slice(2, 4)}/${hidden}`)).status).toBe(401);
    const folder = await consumer(hidden);
    await writeFile(path.join(folder, 'Cargo.toml'), (await readFile(path.join(folder, 'Cargo.toml'), 'utf8')).replace('registry = "repohost"', 'registry = "private"'));
    expect((await cargo(folder, 'run', '--quiet')).stdout.trim()).toBe(`${hidden}@1.0.0`);
    expect(await readFile(path.join(folder, 'Cargo.lock'), 'utf8')).toContain(`source = "${index}"`);
  });

  test('API v1 lists the versions with type=cargo, with their files', async () => {
    const res = await s.fetch(`/api/v1/packages/${alice.name}?type=cargo`, { headers: alice.h });
    expect(res.status).toBe(200);
    const list = await json<any[]>(res);
    for (const p of list) expect(matchesSchema(PackageSchema, p)).toBe(true);
    expect(list.filter((p) => p.name === crate).map((p) => p.version).sort()).toEqual(['1.0.0', '1.1.0']);
    expect(list.every((p) => p.type === 'cargo')).toBe(true);
    const files = await json<any[]>(await s.fetch(`/api/v1/packages/${alice.name}/cargo/${crate}/1.0.0/files`, { headers: alice.h }));
    expect(files.map((f) => f.name)).toEqual([`${crate}-1.0.0.crate`]);
  });
});

describe('the Cargo web API over HTTP', () => {
  test('publish answers {"ok":true}; short names go to 1/, 2/ and 3/{c}/; the entry lists renamed and registry dependencies', async () => {
    const owner = await account(s, 'short');
    const dep = { name: 'real-crate', version_req: '^1.0', features: ['x'], optional: true, default_features: false, target: 'cfg(unix)', kind: 'normal', registry: 'https://example.com/index', explicit_name_in_toml: 'renamed' };
    for (const name of ['a', 'ab', 'abc', 'abcd']) {
      const res = await publish(owner.name, publishBody(meta(name, '0.1.0', { deps: [dep], links: 'z' }), Buffer.from(`crate ${name}`)), bearer(owner));
      expect(res.status, name).toBe(200);
      expect(await json(res)).toEqual({ ok: true });
    }
    for (const [where, name] of [['1/a', 'a'], ['2/ab', 'ab'], ['3/a/abc', 'abc'], ['ab/cd/abcd', 'abcd']] as const) {
      const res = await s.fetch(`${api(owner.name)}/${where}`);
      expect(res.status, where).toBe(200);
      const entry = JSON.parse((await res.text()).trim());
      expect(entry).toEqual({
        name,
        vers: '0.1.0',
        deps: [{ name: 'renamed', req: '^1.0', features: ['x'], optional: true, default_features: false, target: 'cfg(unix)', kind: 'normal', registry: 'https://example.com/index', package: 'real-crate' }],
        cksum: sha256(Buffer.from(`crate ${name}`)),
        features: {},
        yanked: false,
        links: 'z',
      });
    }
    expect(await json(await s.fetch(`${crates(owner.name)}/abc/owners`))).toEqual({ users: [{ id: expect.any(Number), login: owner.name, name: owner.name }] });
  });

  test('search pages as Forgejo’s (page from 1, per_page defaulted and capped)', async () => {
    const owner = await account(s, 'search');
    const name = uniq('cargo');
    expect((await publish(owner.name, publishBody(meta(name, '1.0.0'), Buffer.from('one')), bearer(owner))).status).toBe(200);
    expect((await publish(owner.name, publishBody(meta(name, '1.2.0'), Buffer.from('two')), bearer(owner))).status).toBe(200);
    for (const [q, page, perPage, total, count] of [
      ['', 0, 0, 1, 1],
      ['', 1, 10, 1, 1],
      ['cargo', 1, 0, 1, 1],
      ['cargo', 2, 10, 1, 0],
      ['test', 0, 10, 0, 0],
    ] as const) {
      const res = await json(await s.fetch(`${crates(owner.name)}?q=${q}&page=${page}&per_page=${perPage}`));
      expect(res.meta.total, `${q} ${page} ${perPage}`).toBe(total);
      expect(res.crates.length, `${q} ${page} ${perPage}`).toBe(count);
    }
    expect((await json(await s.fetch(`${crates(owner.name)}?q=${name}`))).crates).toEqual([{ name, max_version: '1.2.0', description: `about ${name}` }]);
  });

  test('anonymous publish is 401, another user is 401, a bad token is 401; nothing is stored', async () => {
    const name = uniq('guard');
    const body = publishBody(meta(name, '1.0.0'), randomBytes(100));
    const anonymous = await publish(alice.name, body, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
    expect((await publish(alice.name, body, bearer(bob))).status).toBe(401);
    expect((await publish(alice.name, body, { authorization: 'Bearer nonsense' })).status).toBe(401);
    expect((await db().selectFrom('package').select('id').where('name', '=', name).execute()).length).toBe(0);
    // Anonymous yank and unyank are refused the same way.
    expect((await s.fetch(`${crates(alice.name)}/${name}/1.0.0/yank`, { method: 'DELETE' })).status).toBe(401);
    expect((await s.fetch(`${crates(alice.name)}/${name}/1.0.0/unyank`, { method: 'PUT' })).status).toBe(401);
    // Basic with the token writes too.
    const basic = { authorization: `Basic ${Buffer.from(`${alice.name}:${alice.token}`).toString('base64')}` };
    expect((await publish(alice.name, body, basic)).status).toBe(200);
  });

  test('a private organization asks Cargo for auth, and is 401 to anonymous readers and to non-members', async () => {
    const org = uniq('corg');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org, visibility: 'private' }, alice.h))).status).toBe(201);
    expect((await publish(org, publishBody(meta('secret', '1.0.0'), Buffer.from('s')), bearer(alice))).status).toBe(200);
    const config = await s.fetch(`${api(org)}/config.json`, { headers: bearer(alice) });
    expect((await json(config))['auth-required']).toBe(true);
    expect((await s.fetch(`${api(org)}/se/cr/secret`, { headers: bearer(alice) })).status).toBe(200);
    for (const headers of [{}, bearer(bob)]) {
      expect((await s.fetch(`${api(org)}/config.json`, { headers })).status).toBe(401);
      expect((await s.fetch(`${api(org)}/se/cr/secret`, { headers })).status).toBe(401);
      expect((await s.fetch(`${crates(org)}/secret/1.0.0/download`, { headers })).status).toBe(401);
      expect((await publish(org, publishBody(meta('other', '1.0.0'), Buffer.from('o')), headers)).status).toBe(401);
    }
  });

  test('a bad name, version or body is 400 with Cargo’s error document; a version that exists is 409', async () => {
    const owner = await account(s, 'bad');
    const h = bearer(owner);
    for (const [body, detail] of [
      [publishBody(meta('0test', '1.0.0'), Buffer.from('test')), 'package name is invalid'],
      [publishBody(meta('../evil', '1.0.0'), Buffer.from('test')), 'package name is invalid'],
      [publishBody(meta(`a${'b'.repeat(64)}`, '1.0.0'), Buffer.from('test')), 'package name is invalid'],
      [publishBody(meta('test', '-1.0.0'), Buffer.from('test')), 'package version is invalid'],
      [publishBody(meta('test', 'one'), Buffer.from('test')), 'package version is invalid'],
      // Forgejo's InvalidContent: four bytes announced, two sent.
      [publishBody(meta('test', '1.0.0'), Buffer.from('te'), 4), 'invalid content size'],
      [publishBody('{not json', Buffer.from('test')), 'invalid metadata'],
      [Buffer.from([1, 0]), 'unexpected EOF'],
    ] as const) {
      const res = await publish(owner.name, body, h);
      expect(res.status, detail).toBe(400);
      expect(await json(res), detail).toEqual({ ok: false, errors: [{ detail }] });
    }
    expect((await db().selectFrom('package').innerJoin('user', 'user.id', 'package.owner_id').select('package.id').where('user.name', '=', owner.name).execute()).length).toBe(0);
    // No blob of the short crate was kept.
    expect((await db().selectFrom('package_blob').select('id').where('hash_sha256', '=', sha256(Buffer.from('te'))).execute()).length).toBe(0);

    expect((await publish(owner.name, publishBody(meta('test', '1.0.0'), Buffer.from('test')), h)).status).toBe(200);
    const again = await publish(owner.name, publishBody(meta('test', '1.0.0'), Buffer.from('other')), h);
    expect(again.status).toBe(409);
    expect(await json(again)).toEqual({ ok: false, errors: [{ detail: 'package version already exists' }] });
    // The crate's bytes are what was first published.
    expect(await (await s.fetch(`${crates(owner.name)}/test/1.0.0/download`)).text()).toBe('test');
  });

  test('a crate past LIMIT_SIZE_CARGO is 403 and leaves no package nor blob', async () => {
    const name = uniq('big');
    const big = randomBytes(LIMIT + 1);
    const res = await publish(alice.name, publishBody(meta(name, '1.0.0'), big), bearer(alice));
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({ ok: false, errors: [{ detail: 'maximum allowed package type size exceeded' }] });
    expect((await db().selectFrom('package').select('id').where('name', '=', name).execute()).length).toBe(0);
    const hash = sha256(big);
    expect((await db().selectFrom('package_blob').select('id').where('hash_sha256', '=', hash).execute()).length).toBe(0);
    expect(existsSync(path.join(s.host.settings.server.APP_DATA_PATH, 'packages', ...packageBlobKey(hash).split('/')))).toBe(false);
    // At the limit it is stored.
    expect((await publish(alice.name, publishBody(meta(name, '1.0.0'), randomBytes(LIMIT)), bearer(alice))).status).toBe(200);
  });

  test('unknown crates, versions and paths are 404', async () => {
    const none = uniq('none');
    const index = await s.fetch(`${api(alice.name)}/${none.slice(0, 2)}/${none.slice(2, 4)}/${none}`);
    expect(index.status).toBe(404);
    expect(await json(index)).toEqual({ ok: false, errors: [{ detail: 'package does not exist' }] });
    expect((await s.fetch(`${crates(alice.name)}/${none}/1.0.0/download`)).status).toBe(404);
    const yank = await s.fetch(`${crates(alice.name)}/${none}/1.0.0/yank`, { method: 'DELETE', headers: bearer(alice) });
    expect(yank.status).toBe(404);
    expect(await json(yank)).toEqual({ ok: false, errors: [{ detail: 'package does not exist' }] });
    expect((await s.fetch(`/api/packages/${uniq('nobody')}/cargo/config.json`)).status).toBe(404);
    expect((await s.fetch(`${api(alice.name)}/a/b/c/d`)).status).toBe(404);
  });
});
