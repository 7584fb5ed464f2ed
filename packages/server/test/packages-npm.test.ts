/**
 * The npm registry under `/api/packages/{owner}/npm/…` as Forgejo serves it, proven with the real `npm` client
 * (publish of an unscoped and a scoped package, install in another project, dist-tags, deprecate, view, search,
 * unpublish), and the unhappy paths as a client sees them over HTTP: who may write (anonymous, another user, a
 * private organization), a version that exists, a bad name, a tarball that does not match its integrity, the size
 * limit. The API v1 list shows what was published.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
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

const db = () => (s.host as unknown as { storage: { db: Kysely<any> } }).storage.db;
const registry = (owner: string) => `${s.url}api/packages/${owner}/npm/`;
const sha512 = (data: Buffer) => createHash('sha512').update(data).digest();

/** Runs the real npm with the temporary HOME (its .npmrc names the registry and alice's token). */
async function npm(cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run('npm', args, {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      npm_config_userconfig: path.join(home, '.npmrc'),
      npm_config_cache: path.join(home, 'cache'),
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_loglevel: 'warn',
    },
    timeout: 60_000,
  });
}

/** A project folder with a package.json and an index.js that says who it is. */
async function project(name: string, version: string): Promise<string> {
  const folder = await temp.make('npm-pkg-');
  await writeFile(
    path.join(folder, 'package.json'),
    JSON.stringify({ name, version, description: `the ${name} package`, main: 'index.js', license: 'MIT', keywords: ['repohost'], author: 'Alice <alice@example.com>' }),
  );
  await writeFile(path.join(folder, 'index.js'), `module.exports = ${JSON.stringify(`${name}@${version}`)};\n`);
  return folder;
}

/** A publish document as npm sends it, with `tarball` as its attachment and `integrity` as its dist. */
function document(name: string, version: string, tarball: Buffer, integrity = `sha512-${sha512(tarball).toString('base64')}`) {
  const file = `${name.split('/').pop()}-${version}.tgz`;
  return {
    _id: name,
    name,
    'dist-tags': { latest: version },
    versions: { [version]: { name, version, description: 'd', dist: { integrity, shasum: createHash('sha1').update(tarball).digest('hex'), tarball: `http://x/${file}` } } },
    _attachments: { [file]: { content_type: 'application/octet-stream', data: tarball.toString('base64'), length: tarball.length } },
  };
}

function publish(owner: string, name: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return s.fetch(`/api/packages/${owner}/npm/${name.replace('/', '%2f')}`, jsonInit('PUT', body, headers));
}

beforeAll(async () => {
  s = await startTestServer({ packages: { LIMIT_SIZE_NPM: LIMIT } });
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
  home = await temp.make('npm-home-');
  const url = new URL(registry(alice.name));
  await writeFile(
    path.join(home, '.npmrc'),
    [`registry=${url.href}`, `@${alice.name}:registry=${url.href}`, `//${url.host}${url.pathname}:_authToken=${alice.token}`, ''].join('\n'),
  );
});

afterAll(async () => {
  await temp.removeAll();
  await s?.cleanup();
});

describe('the npm registry with the real npm client', () => {
  const plain = uniq('pkg');
  let scoped: string;

  test('npm publish of an unscoped and a scoped package; the package document is Forgejo’s', async () => {
    scoped = `@${alice.name}/lib`;
    await npm(await project(plain, '1.0.0'), 'publish');
    await npm(await project(scoped, '1.0.0'), 'publish');
    await npm(await project(scoped, '1.1.0-beta.1'), 'publish', '--tag', 'beta');

    const res = await s.fetch(`/api/packages/${alice.name}/npm/${plain}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = await json(res);
    expect(doc.name).toBe(plain);
    expect(doc['dist-tags']).toEqual({ latest: '1.0.0' });
    expect(doc.description).toBe(`the ${plain} package`);
    const v = doc.versions['1.0.0'];
    expect(v).toMatchObject({ _id: `${plain}@1.0.0`, name: plain, version: '1.0.0', license: 'MIT', keywords: ['repohost'], author: { name: 'Alice' } });
    expect(v.dist.tarball).toBe(`${registry(alice.name)}${plain}/-/1.0.0/${plain}-1.0.0.tgz`);
    // The tarball's bytes match the shasum and integrity the document gives.
    const tarball = Buffer.from(await (await s.fetch(v.dist.tarball.slice(s.url.length - 1))).arrayBuffer());
    expect(createHash('sha1').update(tarball).digest('hex')).toBe(v.dist.shasum);
    expect(`sha512-${sha512(tarball).toString('base64')}`).toBe(v.dist.integrity);
    expect(doc.time.created).toMatch(/Z$/);

    const scopedDoc = await json(await s.fetch(`/api/packages/${alice.name}/npm/@${alice.name}%2flib`));
    expect(scopedDoc['dist-tags']).toEqual({ latest: '1.0.0', beta: '1.1.0-beta.1' });
    expect(Object.keys(scopedDoc.versions).sort()).toEqual(['1.0.0', '1.1.0-beta.1']);
    expect(scopedDoc.versions['1.0.0'].dist.tarball).toBe(`${registry(alice.name)}%40${alice.name}%2Flib/-/1.0.0/lib-1.0.0.tgz`);
    // The scoped name also reads as two path segments.
    expect((await s.fetch(`/api/packages/${alice.name}/npm/@${alice.name}/lib`)).status).toBe(200);
  });

  test('npm install in another project puts the packages’ files in node_modules', async () => {
    const consumer = await temp.make('npm-consumer-');
    await writeFile(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    await npm(consumer, 'install', plain, scoped);
    expect(await readFile(path.join(consumer, 'node_modules', plain, 'index.js'), 'utf8')).toContain(`${plain}@1.0.0`);
    expect(await readFile(path.join(consumer, 'node_modules', `@${alice.name}`, 'lib', 'index.js'), 'utf8')).toContain(`${scoped}@1.0.0`);
    const lock = JSON.parse(await readFile(path.join(consumer, 'package-lock.json'), 'utf8'));
    expect(lock.packages[`node_modules/${plain}`].resolved).toBe(`${registry(alice.name)}${plain}/-/1.0.0/${plain}-1.0.0.tgz`);
  });

  test('npm dist-tag add, ls and rm', async () => {
    const cwd = home;
    await npm(await project(plain, '1.0.1'), 'publish');
    await npm(cwd, 'dist-tag', 'add', `${plain}@1.0.0`, 'stable');
    expect((await npm(cwd, 'dist-tag', 'ls', plain)).stdout).toContain('stable: 1.0.0');
    expect(await json(await s.fetch(`/api/packages/${alice.name}/npm/-/package/${plain}/dist-tags`))).toEqual({ latest: '1.0.1', stable: '1.0.0' });
    // Moving a tag takes it from the version that had it.
    await npm(cwd, 'dist-tag', 'add', `${plain}@1.0.1`, 'stable');
    expect(await json(await s.fetch(`/api/packages/${alice.name}/npm/-/package/${plain}/dist-tags`))).toEqual({ latest: '1.0.1', stable: '1.0.1' });
    await npm(cwd, 'dist-tag', 'rm', plain, 'stable');
    const after = (await npm(cwd, 'dist-tag', 'ls', plain)).stdout;
    expect(after).not.toContain('stable');
    expect(after).toContain('latest: 1.0.1');
    // A tag that reads as a version is refused.
    const bad = await s.fetch(`/api/packages/${alice.name}/npm/-/package/${plain}/dist-tags/1.2.3`, jsonInit('PUT', '1.0.0', alice.h));
    expect(bad.status).toBe(400);
    expect(await json(bad)).toEqual({ error: 'The tag name is invalid' });
  });

  test('npm deprecate and npm view', async () => {
    await npm(home, 'deprecate', `${plain}@1.0.0`, 'use 1.0.1');
    const doc = await json(await s.fetch(`/api/packages/${alice.name}/npm/${plain}`));
    expect(doc.versions['1.0.0'].deprecated).toBe('use 1.0.1');
    expect(doc.versions['1.0.1'].deprecated).toBeUndefined();
    const view = JSON.parse((await npm(home, 'view', `${plain}@1.0.0`, '--json')).stdout);
    expect(view.deprecated).toBe('use 1.0.1');
    expect(view.version).toBe('1.0.0');
    expect((await npm(home, 'view', plain, 'version')).stdout.trim()).toBe('1.0.1');
    // An empty message lifts it.
    await npm(home, 'deprecate', `${plain}@1.0.0`, '');
    expect((await json(await s.fetch(`/api/packages/${alice.name}/npm/${plain}`))).versions['1.0.0'].deprecated).toBeUndefined();
  });

  test('npm search finds the owner’s packages', async () => {
    const found = JSON.parse((await npm(home, 'search', plain, '--json')).stdout);
    expect(found.map((p: { name: string }) => p.name)).toEqual([plain]);
    expect(found[0].version).toBe('1.0.1');
    const res = await json(await s.fetch(`/api/packages/${alice.name}/npm/-/v1/search?text=lib&size=5`));
    expect(res.total).toBe(1);
    expect(res.objects[0].package).toMatchObject({ name: scoped, scope: `@${alice.name}`, publisher: { name: alice.name } });
  });

  test('API v1 lists them with type=npm', async () => {
    const res = await s.fetch(`/api/v1/packages/${alice.name}?type=npm`, { headers: alice.h });
    expect(res.status).toBe(200);
    const list = await json<any[]>(res);
    for (const p of list) expect(matchesSchema(PackageSchema, p)).toBe(true);
    expect(list.map((p) => `${p.name}@${p.version}`).sort()).toEqual([`${plain}@1.0.0`, `${plain}@1.0.1`, `${scoped}@1.0.0`, `${scoped}@1.1.0-beta.1`].sort());
    expect(list.every((p) => p.type === 'npm')).toBe(true);
  });

  test('npm unpublish of a version, then of the package', async () => {
    await npm(home, 'unpublish', `${plain}@1.0.0`);
    const doc = await json(await s.fetch(`/api/packages/${alice.name}/npm/${plain}`));
    expect(Object.keys(doc.versions)).toEqual(['1.0.1']);
    expect((await s.fetch(`/api/packages/${alice.name}/npm/${plain}/-/1.0.0/${plain}-1.0.0.tgz`)).status).toBe(404);
    await npm(home, 'unpublish', scoped, '--force');
    const gone = await s.fetch(`/api/packages/${alice.name}/npm/@${alice.name}%2flib`);
    expect(gone.status).toBe(404);
    expect(await json(gone)).toEqual({ error: 'package does not exist' });
    expect((await db().selectFrom('package').select('id').where('name', '=', scoped).execute()).length).toBe(0);
    // The tags of the removed versions went with them.
    expect((await db().selectFrom('package_property').select('id').where('value', '=', 'beta').execute()).length).toBe(0);
  });
});

describe('refusals over HTTP', () => {
  test('anonymous publish is 401, another user is 401, a bad token is 401; nothing is stored', async () => {
    const name = uniq('guard');
    const body = document(name, '1.0.0', randomBytes(100));
    const anonymous = await publish(alice.name, name, body, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
    expect((await publish(alice.name, name, body, bob.h)).status).toBe(401);
    expect((await publish(alice.name, name, body, { authorization: 'Bearer nonsense' })).status).toBe(401);
    expect((await db().selectFrom('package').select('id').where('name', '=', name).execute()).length).toBe(0);
    // Bearer, as npm sends `_authToken`, and basic with the token both write.
    expect((await publish(alice.name, name, body, { authorization: `Bearer ${alice.token}` })).status).toBe(201);
    const basic = { authorization: `Basic ${Buffer.from(`${alice.name}:${alice.token}`).toString('base64')}` };
    expect((await publish(alice.name, name, document(name, '1.0.1', randomBytes(100)), basic)).status).toBe(201);
  });

  test('a private organization is 401 to anonymous readers and to non-members', async () => {
    const org = uniq('norg');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org, visibility: 'private' }, alice.h))).status).toBe(201);
    expect((await publish(org, 'secret', document('secret', '1.0.0', randomBytes(50)), alice.h)).status).toBe(201);
    expect((await s.fetch(`/api/packages/${org}/npm/secret`, { headers: alice.h })).status).toBe(200);
    expect((await s.fetch(`/api/packages/${org}/npm/secret`)).status).toBe(401);
    expect((await s.fetch(`/api/packages/${org}/npm/secret`, { headers: bob.h })).status).toBe(401);
    expect((await s.fetch(`/api/packages/${org}/npm/-/v1/search?text=secret`, { headers: bob.h })).status).toBe(401);
  });

  test('a version that exists is 409; a bad name, version or integrity is 400', async () => {
    const name = uniq('dup');
    expect((await publish(alice.name, name, document(name, '1.0.0', randomBytes(80)), alice.h)).status).toBe(201);
    const again = await publish(alice.name, name, document(name, '1.0.0', randomBytes(80)), alice.h);
    expect(again.status).toBe(409);
    expect(await json(again)).toEqual({ error: 'package version already exists' });

    const tarball = randomBytes(80);
    for (const [body, message] of [
      [document('Bad Name', '1.0.0', tarball), 'package name is invalid'],
      [document('../evil', '1.0.0', tarball), 'package name is invalid'],
      [document(name, 'one', tarball), 'package version is invalid'],
      [document(name, '2.0.0', tarball, `sha512-${sha512(randomBytes(80)).toString('base64')}`), 'failed to validate integrity'],
      [document(name, '2.0.0', tarball, 'nonsense'), 'failed to validate integrity'],
      [{ ...document(name, '2.0.0', tarball), _attachments: { 'x.tgz': { data: '!!!' } } }, 'package attachment is invalid'],
    ] as const) {
      const res = await publish(alice.name, name, body, alice.h);
      expect(res.status, message).toBe(400);
      expect(await json(res), message).toEqual({ error: message });
    }
    expect(Object.keys((await json(await s.fetch(`/api/packages/${alice.name}/npm/${name}`))).versions)).toEqual(['1.0.0']);
  });

  test('a tarball past LIMIT_SIZE_NPM is 403 and leaves no package nor blob; a body past the bound is refused unread', async () => {
    const name = uniq('big');
    const big = randomBytes(LIMIT + 1);
    const res = await publish(alice.name, name, document(name, '1.0.0', big), alice.h);
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({ error: 'maximum allowed package type size exceeded' });
    expect((await db().selectFrom('package').select('id').where('name', '=', name).execute()).length).toBe(0);
    const hash = createHash('sha256').update(big).digest('hex');
    expect((await db().selectFrom('package_blob').select('id').where('hash_sha256', '=', hash).execute()).length).toBe(0);
    expect(existsSync(path.join(s.host.settings.server.APP_DATA_PATH, 'packages', ...packageBlobKey(hash).split('/')))).toBe(false);

    const huge = await publish(alice.name, name, document(name, '1.0.0', randomBytes(2 * 1024 * 1024)), alice.h);
    expect(huge.status).toBe(403);
    expect(await json(huge)).toEqual({ error: 'maximum allowed package type size exceeded' });
  });

  test('unknown packages and paths are 404', async () => {
    expect((await s.fetch(`/api/packages/${alice.name}/npm/${uniq('none')}`)).status).toBe(404);
    expect((await s.fetch(`/api/packages/${alice.name}/npm/${uniq('none')}/-/1.0.0/x.tgz`)).status).toBe(404);
    expect((await s.fetch(`/api/packages/${uniq('nobody')}/npm/x`)).status).toBe(404);
  });
});
