/**
 * The Composer registry under `/api/packages/{owner}/composer…` as Forgejo serves it, proven with the real
 * `composer` (two versions of a package zip uploaded over HTTP, one naming its version in composer.json and one by
 * `?version=`; then in a fresh project `composer require vendor/project:^1.0` installs the 1.x one, whose class
 * autoloads, and `composer show -a` lists both; a private organization read with `COMPOSER_AUTH` http-basic), and
 * the unhappy paths over HTTP: who may write (anonymous, another user, a private organization), bad zips, names,
 * versions and documents, a version that exists, the size limit, search and list, unknown packages. The API v1
 * list shows what was published. Skips only when `composer --version` fails (the client is missing).
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
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
const INSTALL = 'apt-get install -y --no-install-recommends composer php-cli php-zip unzip';

let s: TestServer;
let alice: Account;
let bob: Account;

const composerVersion = await run('composer', ['--version', '--no-interaction'], { env: { PATH: process.env.PATH, HOME: tmpdir(), COMPOSER_HOME: path.join(tmpdir(), 'composer-probe') }, timeout: 60_000 }).then(
  (r) => r.stdout.trim(),
  () => undefined,
);
if (!composerVersion) console.warn(`packages-composer: \`composer --version\` failed, so the real-client tests are skipped (install it: ${INSTALL})`);

const db = () => (s.host as unknown as { storage: { db: Kysely<any> } }).storage.db;
const api = (owner: string) => `/api/packages/${owner}/composer`;
const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const basic = (who: Account) => ({ authorization: `Basic ${Buffer.from(`${who.name}:${who.token}`).toString('base64')}` });

const zipOf = zipFiles;

/** A PHP namespace for a package name (`acme/greet-x1` → `Acme\GreetX1`). */
const namespaceOf = (name: string) =>
  name
    .split('/')
    .map((part) => part.split(/[^a-z0-9]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(''))
    .join('\\');

/** A package zip: composer.json (with `version` when given), a README, and a class saying which version it is. */
function packageZip(name: string, said: string, composer: Record<string, unknown> = {}, deflate = false): Buffer {
  const ns = namespaceOf(name);
  return zipOf(
    {
      'composer.json': JSON.stringify({
        name,
        description: `Greets from ${name}`,
        type: 'library',
        license: 'MIT',
        authors: [{ name: 'Alice Example', email: 'alice@example.com' }],
        autoload: { 'psr-4': { [`${ns}\\`]: 'src/' } },
        require: { php: '>=7.4' },
        ...composer,
      }),
      'README.md': `# ${name}\n`,
      'src/Greeter.php': `<?php\nnamespace ${ns};\n\nfinal class Greeter\n{\n    public static function version(): string\n    {\n        return '${said}';\n    }\n}\n`,
    },
    deflate,
  );
}

function upload(owner: string, body: Buffer, headers: Record<string, string>, version?: string): Promise<Response> {
  return s.fetch(`${api(owner)}${version === undefined ? '' : `?version=${encodeURIComponent(version)}`}`, { method: 'PUT', body, headers });
}

/** Forgejo's Composer error document. */
async function expectError(res: Response, status: number, message: string): Promise<void> {
  expect(res.status, message).toBe(status);
  expect(await json(res), message).toEqual({ errors: [{ status, message }] });
}

/** A fresh project requiring nothing yet, whose only repository is `owner`'s registry (packagist.org off). */
async function project(owner: string): Promise<{ folder: string; home: string }> {
  const folder = await temp.make('composer-project-');
  const home = await temp.make('composer-home-');
  const manifest = {
    name: 'test/consumer',
    repositories: [{ type: 'composer', url: `${s.url}api/packages/${owner}/composer` }, { 'packagist.org': false }],
    // The test server speaks plain HTTP.
    config: { 'secure-http': false },
  };
  await writeFile(path.join(folder, 'composer.json'), JSON.stringify(manifest, null, 2));
  return { folder, home };
}

/** Runs the real composer in `folder` with its home (config, cache) under `home`. */
function composer(where: { folder: string; home: string }, args: string[], extra: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return run('composer', [...args, '--no-interaction', '--no-ansi'], {
    cwd: where.folder,
    timeout: 120_000,
    env: { PATH: process.env.PATH, HOME: where.home, COMPOSER_HOME: where.home, COMPOSER_CACHE_DIR: path.join(where.home, 'cache'), COMPOSER_NO_AUDIT: '1', ...extra },
  });
}

beforeAll(async () => {
  s = await startTestServer({ packages: { LIMIT_SIZE_COMPOSER: LIMIT } });
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
});

afterAll(async () => {
  await temp.removeAll();
  await s?.cleanup();
});

describe.skipIf(!composerVersion)('the Composer registry with the real composer', () => {
  const name = `acme/greet-${uniq('x')}`;

  test('two uploads, then composer require ^1.0 installs the 1.x version, its class autoloads, show -a lists both', async () => {
    // The version from composer.json; the second one's from `?version=`, normalized as Forgejo does (`2.0` → 2.0.0).
    expect((await upload(alice.name, packageZip(name, 'one', { version: '1.2.0' }), basic(alice))).status).toBe(201);
    expect((await upload(alice.name, packageZip(name, 'two', {}, true), basic(alice), '2.0')).status).toBe(201);

    const where = await project(alice.name);
    await composer(where, ['require', `${name}:^1.0`]);
    const lock = JSON.parse(await readFile(path.join(where.folder, 'composer.lock'), 'utf8'));
    expect(lock.packages.map((p: any) => [p.name, p.version])).toEqual([[name, '1.2.0']]);
    expect(lock.packages[0].dist.shasum).toBe(sha1(packageZip(name, 'one', { version: '1.2.0' })));
    expect(existsSync(path.join(where.folder, 'vendor', ...name.split('/'), 'src', 'Greeter.php'))).toBe(true);
    const said = await run('php', ['-r', `require 'vendor/autoload.php'; echo \\${namespaceOf(name)}\\Greeter::version();`], { cwd: where.folder, timeout: 30_000 });
    expect(said.stdout).toBe('one');

    const shown = await composer(where, ['show', '-a', name]);
    const versions = shown.stdout.split('\n').find((line) => line.startsWith('versions'));
    expect(versions).toMatch(/2\.0\.0/);
    expect(versions).toMatch(/\* 1\.2\.0/);
  });

  test('a private organization: composer reads it with COMPOSER_AUTH http-basic; without it, it is refused', async () => {
    const org = uniq('corg');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org, visibility: 'private' }, alice.h))).status).toBe(201);
    const hidden = `acme/hidden-${uniq('h')}`;
    expect((await upload(org, packageZip(hidden, 'hidden', { version: '1.0.0' }), basic(alice))).status).toBe(201);

    const host = new URL(s.url).host;
    const where = await project(org);
    await expect(composer(where, ['require', `${hidden}:^1.0`])).rejects.toThrow(/401|[Aa]uthentication required/);
    await composer(where, ['require', `${hidden}:^1.0`], { COMPOSER_AUTH: JSON.stringify({ 'http-basic': { [host]: { username: alice.name, password: alice.token } } }) });
    expect(existsSync(path.join(where.folder, 'vendor', ...hidden.split('/'), 'src', 'Greeter.php'))).toBe(true);
  });

  test('p2 metadata, the service index and downloads are Forgejo’s; stored as Forgejo stores it', async () => {
    const index = await json(await s.fetch(`${api(alice.name)}/packages.json`));
    const root = `${s.url}api/packages/${alice.name}/composer`;
    expect(index).toEqual({ search: `${root}/search.json?q=%query%&type=%type%`, 'metadata-url': `${root}/p2/%package%.json`, list: `${root}/list.json` });

    const res = await s.fetch(`${api(alice.name)}/p2/${name}.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8');
    const body = await json(res);
    expect(body.minified).toBe('composer/2.0');
    const versions = body.packages[name];
    expect(versions.map((v: any) => v.version)).toEqual(['1.2.0', '2.0.0']);
    const [first] = versions;
    expect(first).toMatchObject({
      name,
      type: 'library',
      description: `Greets from ${name}`,
      readme: `# ${name}\n`,
      license: ['MIT'],
      authors: [{ name: 'Alice Example', email: 'alice@example.com' }],
      require: { php: '>=7.4' },
      source: { url: '', type: '', reference: '' },
    });
    expect(first.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const filename = `${name.replace('/', '-')}.1.2.0.zip`;
    expect(first.dist).toEqual({ type: 'zip', url: `${root}/files/${encodeURIComponent(name)}/1.2.0/${filename}`, shasum: sha1(packageZip(name, 'one', { version: '1.2.0' })) });
    // `~dev.json` is the same answer.
    expect(await json(await s.fetch(`${api(alice.name)}/p2/${name}~dev.json`))).toEqual(body);

    const zip = await s.fetch(new URL(first.dist.url).pathname);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-disposition')).toContain(`filename="${filename}"`);
    expect(sha1(Buffer.from(await zip.arrayBuffer()))).toBe(first.dist.shasum);

    const row = await db()
      .selectFrom('package_version')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .select(['metadata_json', 'package_version.id as id', 'semver_compatible'])
      .where('package.type', '=', 'composer')
      .where('package.lower_name', '=', name)
      .where('version', '=', '2.0.0')
      .executeTakeFirstOrThrow();
    expect(row.semver_compatible).toBe(1);
    expect(Object.keys(JSON.parse(row.metadata_json))).toEqual(['description', 'readme', 'license', 'authors', 'autoload', 'require']);
    expect(await db().selectFrom('package_property').select(['name', 'value']).where('ref_type', '=', 0).where('ref_id', '=', row.id).execute()).toEqual([{ name: 'composer.type', value: 'library' }]);
    expect(await db().selectFrom('package_file').select(['name', 'is_lead']).where('version_id', '=', row.id).execute()).toEqual([{ name: `${name.replace('/', '-')}.2.0.0.zip`, is_lead: 1 }]);
  });

  test('API v1 lists the versions with type=composer, with their files', async () => {
    const res = await s.fetch(`/api/v1/packages/${alice.name}?type=composer`, { headers: alice.h });
    expect(res.status).toBe(200);
    const list = await json<any[]>(res);
    for (const p of list) expect(matchesSchema(PackageSchema, p)).toBe(true);
    expect(list.filter((p) => p.name === name).map((p) => p.version).sort()).toEqual(['1.2.0', '2.0.0']);
    expect(list.every((p) => p.type === 'composer')).toBe(true);
    const files = await json<any[]>(await s.fetch(`/api/v1/packages/${alice.name}/composer/${encodeURIComponent(name)}/1.2.0/files`, { headers: alice.h }));
    expect(files.map((f) => f.name)).toEqual([`${name.replace('/', '-')}.1.2.0.zip`]);
  });
});

describe('the Composer registry over HTTP', () => {
  test('anonymous upload is 401, another user is 401, a private organization is 401 to others; nothing is stored', async () => {
    const name = `guard/pkg-${uniq('g')}`;
    const body = packageZip(name, 'x', { version: '1.0.0' });
    const anonymous = await upload(alice.name, body, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
    expect((await upload(alice.name, body, basic(bob))).status).toBe(401);
    expect((await upload(alice.name, body, { authorization: 'Bearer nonsense' })).status).toBe(401);
    expect((await db().selectFrom('package').select('id').where('name', '=', name).execute()).length).toBe(0);

    const org = uniq('porg');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org, visibility: 'private' }, alice.h))).status).toBe(201);
    expect((await upload(org, body, basic(alice))).status).toBe(201);
    for (const headers of [{}, basic(bob)]) {
      for (const read of ['packages.json', 'list.json', `p2/${name}.json`]) expect((await s.fetch(`${api(org)}/${read}`, { headers })).status, read).toBe(401);
      expect((await upload(org, packageZip(name, 'y', { version: '1.0.1' }), headers)).status).toBe(401);
    }
    expect((await json(await s.fetch(`${api(org)}/list.json`, { headers: basic(alice) }))).packageNames).toEqual([name]);

    // An owner that does not exist is 404.
    const nobody = await s.fetch(`/api/packages/${uniq('nobody')}/composer/packages.json`);
    expect(nobody.status).toBe(404);
    expect(await nobody.text()).toBe('user does not exist');
  });

  test('a bad zip, name, version or document is 400 with Forgejo’s message; a version that exists is 409', async () => {
    const owner = await account(s, 'bad');
    const h = basic(owner);
    const ok = 'bad/pkg';
    const cases: [Buffer, string | undefined, string][] = [
      [Buffer.from('not a zip at all, just some bytes'), '1.0.0', 'zip: not a valid zip file'],
      [Buffer.alloc(0), '1.0.0', 'zip: not a valid zip file'],
      [zipOf({ 'src/a.php': '<?php' }), '1.0.0', 'composer.json file is missing'],
      // Two folders down is not looked at.
      [zipOf({ 'a/b/composer.json': JSON.stringify({ name: ok }) }), '1.0.0', 'composer.json file is missing'],
      [packageZip('Bad/Pkg', 'x'), '1.0.0', 'package name is invalid'],
      [packageZip('bad/../pkg', 'x'), '1.0.0', 'package name is invalid'],
      [packageZip('bad/pkg/more', 'x'), '1.0.0', 'package name is invalid'],
      [packageZip('bad/pkg---x', 'x'), '1.0.0', 'package name is invalid'],
      [packageZip('bad-/pkg', 'x'), '1.0.0', 'package name is invalid'],
      [zipOf({ 'composer.json': JSON.stringify({ description: 'no name' }) }), '1.0.0', 'package name is invalid'],
      [packageZip(ok, 'x', { version: '1.0.0.0' }), undefined, 'package version is invalid'],
      [packageZip(ok, 'x', { version: '1.0.0-' }), undefined, 'package version is invalid'],
      [packageZip(ok, 'x'), undefined, 'package version is invalid'],
      [packageZip(ok, 'x'), 'latest', 'package version is invalid'],
      [packageZip(ok, 'x'), '1.0.0\n2.0.0', 'package version is invalid'],
    ];
    for (const [body, version, message] of cases) await expectError(await upload(owner.name, body, h, version), 400, message);
    const broken = await upload(owner.name, zipOf({ 'composer.json': '{"name": "bad/pkg",' }), h, '1.0.0');
    expect(broken.status).toBe(400);
    expect((await json(broken)).errors[0].message).toMatch(/^composer\.json is not valid JSON/);
    const mistyped = await upload(owner.name, zipOf({ 'composer.json': JSON.stringify({ name: ok, keywords: 'one' }) }), h, '1.0.0');
    expect(mistyped.status).toBe(400);
    expect(await db().selectFrom('package').innerJoin('user', 'user.id', 'package.owner_id').select('package.id').where('user.name', '=', owner.name).execute()).toEqual([]);

    // One folder down (a GitHub zipball's layout) is read; words joined by `.`, `_` and `--` are names; the version
    // from the query is Forgejo's normalized one.
    const nested = zipOf({ 'bad-pkg-1234/composer.json': JSON.stringify({ name: 'bad.vendor_x/pkg--two.x', type: 'composer-plugin', homepage: 'javascript:alert(1)' }) });
    expect((await upload(owner.name, nested, h, 'v01.2-beta.1+b7')).status).toBe(201);
    const listed = (await json(await s.fetch(`${api(owner.name)}/p2/bad.vendor_x/pkg--two.x.json`))).packages['bad.vendor_x/pkg--two.x'];
    expect(listed.map((v: any) => [v.version, v.type, v.homepage])).toEqual([['1.2.0-beta.1+b7', 'composer-plugin', undefined]]);

    expect((await upload(owner.name, packageZip(ok, 'x', { version: '1.0.0' }), h)).status).toBe(201);
    await expectError(await upload(owner.name, packageZip(ok, 'other'), h, '1.0.0'), 409, 'package version already exists');
    // The version's zip is what was first uploaded.
    const first = (await json(await s.fetch(`${api(owner.name)}/p2/${ok}.json`))).packages[ok][0];
    expect(first.dist.shasum).toBe(sha1(packageZip(ok, 'x', { version: '1.0.0' })));
  });

  test('a zip past LIMIT_SIZE_COMPOSER is 403 and leaves no package nor blob', async () => {
    const name = `big/pkg-${uniq('b')}`;
    const big = zipOf({ 'composer.json': JSON.stringify({ name }), 'blob.bin': randomBytes(LIMIT) });
    await expectError(await upload(alice.name, big, basic(alice), '1.0.0'), 403, 'maximum allowed package type size exceeded');
    expect((await db().selectFrom('package').select('id').where('name', '=', name).execute()).length).toBe(0);
    const hash = sha256(big);
    expect((await db().selectFrom('package_blob').select('id').where('hash_sha256', '=', hash).execute()).length).toBe(0);
    expect(existsSync(path.join(s.host.settings.server.APP_DATA_PATH, 'packages', ...packageBlobKey(hash).split('/')))).toBe(false);
    const small = zipOf({ 'composer.json': JSON.stringify({ name }), 'blob.bin': randomBytes(LIMIT - 1024) });
    expect((await upload(alice.name, small, basic(alice), '1.0.0')).status).toBe(201);
  });

  test('search, list, downloads and unknown packages as Forgejo answers them', async () => {
    const owner = await account(s, 'search');
    const h = basic(owner);
    expect((await upload(owner.name, packageZip('gitea/composer-package', 'x', { type: 'composer-plugin' }), h, '1.0.3')).status).toBe(201);
    // Forgejo's own search cases: query, type, page, per_page → total and results.
    const cases: [string, string, number, number, number, number][] = [
      ['', '', 0, 0, 1, 1],
      ['', '', 1, 1, 1, 1],
      ['test', '', 1, 0, 0, 0],
      ['gitea', '', 1, 1, 1, 1],
      ['gitea', '', 2, 1, 1, 0],
      ['', 'composer-plugin', 1, 1, 1, 1],
      ['gitea', 'composer-plugin', 1, 1, 1, 1],
      ['gitea', 'dummy', 1, 1, 0, 0],
    ];
    for (const [q, type, page, perPage, total, count] of cases) {
      const found = await json(await s.fetch(`${api(owner.name)}/search.json?q=${q}&type=${type}&page=${page}&per_page=${perPage}`));
      expect(found.total, `${q}/${type}/${page}`).toBe(total);
      expect(found.results.length, `${q}/${type}/${page}`).toBe(count);
    }
    const full = await json(await s.fetch(`${api(owner.name)}/search.json?q=gitea&page=1&per_page=1`));
    expect(full.results).toEqual([{ name: 'gitea/composer-package', description: 'Greets from gitea/composer-package', downloads: 0 }]);
    expect(full.next).toBe(`${s.url}api/packages/${owner.name}/composer/search.json?page=2&per_page=1&q=gitea&type=`);

    // A download counts.
    const file = 'gitea-composer-package.1.0.3.zip';
    expect((await s.fetch(`${api(owner.name)}/files/gitea%2Fcomposer-package/1.0.3/${file}`)).status).toBe(200);
    expect((await json(await s.fetch(`${api(owner.name)}/search.json?q=gitea`))).results[0].downloads).toBe(1);
    expect(await json(await s.fetch(`${api(owner.name)}/list.json`))).toEqual({ packageNames: ['gitea/composer-package'] });

    await expectError(await s.fetch(`${api(owner.name)}/p2/gitea/none.json`), 404, 'package does not exist');
    await expectError(await s.fetch(`${api(owner.name)}/files/gitea%2Fcomposer-package/9.9.9/${file}`), 404, 'package does not exist');
    await expectError(await s.fetch(`${api(owner.name)}/files/gitea%2Fcomposer-package/1.0.3/other.zip`), 404, 'package file does not exist');
    expect((await s.fetch(`${api(owner.name)}/p2/gitea/composer-package.txt`)).status).toBe(404);
    expect((await s.fetch(`${api(owner.name)}/nothing-here`)).status).toBe(404);
    expect(await json(await s.fetch(`${api(owner.name)}/list.json`, { headers: basic(bob) }))).toEqual({ packageNames: ['gitea/composer-package'] });
  });
});
