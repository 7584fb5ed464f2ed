/**
 * The PyPI registry under `/api/packages/{owner}/pypi` as Forgejo serves it, proven with the real clients: `twine
 * upload` of an sdist and a wheel built here, then `pip install --index-url …/simple` into a folder and an import of
 * what it installed (pip also skips a version whose `data-requires-python` it does not meet). Then the unhappy paths
 * as a client sees them over HTTP, and Forgejo's own upload form (the file before the fields): who may write, a
 * digest that does not match, bad names and versions, a file that exists (409; a version holds several files), the
 * size limit, unknown packages; the API v1 list shows what was published.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import { PackageFileSchema, PackageSchema, matchesSchema, packageBlobKey } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, json, tempFolders, uniq, type Account } from './helpers';

const run = promisify(execFile);

/** twine is what .ci/run installs (`python3 -m pip install twine`); without it the client half cannot run. */
function hasTwine(): boolean {
  try {
    execFileSync('python3', ['-m', 'twine', '--version'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}
const TWINE = hasTwine();
if (!TWINE) console.warn('packages-pypi: `python3 -m twine --version` fails; the twine/pip tests are skipped (install: python3 -m pip install twine)');

const LIMIT = 64 * 1024;

let s: TestServer;
let alice: Account;
let bob: Account;

const db = () => (s.host as unknown as { storage: { db: Kysely<any> } }).storage.db;
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const basic = (account: Account) => ({ authorization: `Basic ${Buffer.from(`${account.name}:${account.token}`).toString('base64')}` });

/**
 * Writes an sdist and a wheel of a one-module project by hand (no build backend needed offline): `{dist}-{version}.tar.gz`
 * with its PKG-INFO, and `{dist}-{version}-py3-none-any.whl` with METADATA, WHEEL and a RECORD of sha256s.
 */
const BUILD = String.raw`
import base64, hashlib, io, os, sys, tarfile, zipfile
out, name, version, requires, module = sys.argv[1:6]
dist = name.replace('-', '_').replace('.', '_')
meta = ('Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: the %s package\nAuthor: Alice\nLicense: MIT\n'
        'Home-page: https://example.com/%s\nRequires-Python: %s\n\nA long description.\n') % (name, version, name, name, requires)
code = 'WHO = %r\n' % ('%s@%s' % (name, version))
sdist = os.path.join(out, '%s-%s.tar.gz' % (dist, version))
with tarfile.open(sdist, 'w:gz') as tar:
    for path, text in [('PKG-INFO', meta), ('%s/__init__.py' % module, code), ('setup.py', 'raise SystemExit("not built here")\n')]:
        data = text.encode()
        info = tarfile.TarInfo('%s-%s/%s' % (dist, version, path))
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
info_dir = '%s-%s.dist-info' % (dist, version)
files = [('%s/__init__.py' % module, code), (info_dir + '/METADATA', meta),
         (info_dir + '/WHEEL', 'Wheel-Version: 1.0\nGenerator: repohost-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n')]
record = ''
for path, text in files:
    digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b'=').decode()
    record += '%s,sha256=%s,%d\n' % (path, digest, len(text.encode()))
record += info_dir + '/RECORD,,\n'
with zipfile.ZipFile(os.path.join(out, '%s-%s-py3-none-any.whl' % (dist, version)), 'w') as whl:
    for path, text in files + [(info_dir + '/RECORD', record)]:
        whl.writestr(path, text)
`;

const temp = tempFolders();

async function buildDistributions(name: string, version: string, requires: string, module: string): Promise<string> {
  const folder = await temp.make('pypi-dist-');
  await run('python3', ['-c', BUILD, folder, name, version, requires, module]);
  return folder;
}

const pythonEnv = (home: string) => ({
  PATH: process.env.PATH,
  HOME: home,
  PIP_NO_CACHE_DIR: '1',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
  PIP_NO_INPUT: '1',
  PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring',
});

/** An upload form, its fields in the order given (twine's: the fields, then `content`). */
function form(fields: [string, string][], file?: { name: string; data: Buffer }, fileFirst = false): FormData {
  const body = new FormData();
  const addFile = () => file && body.append('content', new Blob([file.data]), file.name);
  if (fileFirst) addFile();
  for (const [key, value] of fields) body.append(key, value);
  if (!fileFirst) addFile();
  return body;
}

function twineFields(name: string, version: string, data: Buffer, extra: [string, string][] = []): [string, string][] {
  return [[':action', 'file_upload'], ['protocol_version', '1'], ['name', name], ['version', version], ['sha256_digest', sha256(data)], ...extra];
}

function upload(owner: string, body: FormData, headers: Record<string, string>): Promise<Response> {
  return s.fetch(`/api/packages/${owner}/pypi`, { method: 'POST', body, headers });
}

async function packageRows(name: string): Promise<number> {
  return (await db().selectFrom('package').select('id').where('type', '=', 'pypi').where('lower_name', '=', name.toLowerCase()).execute()).length;
}

async function blobGone(data: Buffer): Promise<boolean> {
  const hash = sha256(data);
  const rows = await db().selectFrom('package_blob').select('id').where('hash_sha256', '=', hash).execute();
  return rows.length === 0 && !existsSync(path.join(s.host.settings.server.APP_DATA_PATH, 'packages', ...packageBlobKey(hash).split('/')));
}

beforeAll(async () => {
  s = await startTestServer({ packages: { LIMIT_SIZE_PYPI: LIMIT } });
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
});

afterAll(async () => {
  await temp.removeAll();
  await s?.cleanup();
});

describe.skipIf(!TWINE)('the PyPI registry with twine and pip', () => {
  const suffix = randomBytes(3).toString('hex');
  // A name pip and Forgejo normalize: `_` and `.` read as `-`.
  const name = `Repohost_Demo.${suffix}`;
  const stored = `Repohost-Demo-${suffix}`;
  const module = `rhdemo_${suffix}`;
  let home: string;

  test('twine upload of an sdist and a wheel; the simple index links both with their sha256 and requires-python', async () => {
    home = await temp.make('pypi-home-');
    const folder = await buildDistributions(name, '1.0.0', '>=3.7', module);
    const files = (await readdir(folder)).sort();
    expect(files).toEqual([`Repohost_Demo_${suffix}-1.0.0-py3-none-any.whl`, `Repohost_Demo_${suffix}-1.0.0.tar.gz`]);
    await run('python3', ['-m', 'twine', 'upload', '--non-interactive', '--disable-progress-bar', '--repository-url', `${s.url}api/packages/${alice.name}/pypi`, ...files.map((f) => path.join(folder, f))], {
      env: { ...pythonEnv(home), TWINE_USERNAME: alice.name, TWINE_PASSWORD: alice.token },
      timeout: 120_000,
    });

    const res = await s.fetch(`/api/packages/${alice.name}/pypi/simple/${name.toLowerCase()}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await res.text();
    expect(page).toContain(`<title>Links for ${stored}</title>`);
    const links = [...page.matchAll(/<a href="([^"]*)"([^>]*)>([^<]*)<\/a>/g)];
    expect(links.map((l) => l[3]).sort()).toEqual(files);
    for (const [, href, attributes, file] of links) {
      const bytes = await readFile(path.join(folder, file!));
      expect(href).toBe(`${s.url}api/packages/${alice.name}/pypi/files/${stored.toLowerCase()}/1.0.0/${file}#sha256=${sha256(bytes)}`);
      expect(attributes).toBe(' data-requires-python="&gt;=3.7"');
      // The link downloads the bytes twine sent.
      const download = await s.fetch(href!.slice(s.url.length - 1).split('#')[0]!);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toContain(`filename="${file}"`);
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    }
    // Any spelling PEP 503 normalizes to the name finds the same page.
    expect(await (await s.fetch(`/api/packages/${alice.name}/pypi/simple/repohost.demo_${suffix}`)).text()).toBe(page);

    // Forgejo's metadata, from twine's form.
    const version = await db()
      .selectFrom('package_version')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .select(['package.name', 'package_version.metadata_json'])
      .where('package.lower_name', '=', stored.toLowerCase())
      .executeTakeFirstOrThrow();
    expect(version.name).toBe(stored);
    expect(JSON.parse(version.metadata_json)).toMatchObject({
      author: 'Alice',
      summary: `the ${name} package`,
      license: 'MIT',
      requires_python: '>=3.7',
      project_url: `https://example.com/${name}`,
    });
  });

  test('a second twine upload of the same files is refused (409)', async () => {
    const folder = await buildDistributions(name, '1.0.0', '>=3.7', module);
    const again = run('python3', ['-m', 'twine', 'upload', '--non-interactive', '--disable-progress-bar', '--repository-url', `${s.url}api/packages/${alice.name}/pypi`, path.join(folder, `Repohost_Demo_${suffix}-1.0.0-py3-none-any.whl`)], {
      env: { ...pythonEnv(home), TWINE_USERNAME: alice.name, TWINE_PASSWORD: alice.token },
      timeout: 120_000,
    });
    const failure = (await again.then(
      () => undefined,
      (error: { stdout: string; stderr: string }) => error,
    ))!;
    expect(failure, 'twine should fail').toBeDefined();
    // twine reports the server's answer (on stdout or stderr, as its version writes it).
    expect(`${failure.stdout}${failure.stderr}`).toMatch(/409 Conflict/);
  });

  test('pip install from the simple index; a version the index says needs another Python is passed over', async () => {
    // 2.0.0's wheel says >=3.7, but its upload form (its first file's) says a Python that does not exist: pip keeps
    // to 1.0.0 only if it reads data-requires-python from the index (the wheel's own metadata would let it through).
    const future = await buildDistributions(name, '2.0.0', '>=3.7', module);
    const wheel = `Repohost_Demo_${suffix}-2.0.0-py3-none-any.whl`;
    const data = await readFile(path.join(future, wheel));
    const res = await upload(alice.name, form(twineFields(name, '2.0.0', data, [['requires_python', '>=99']]), { name: wheel, data }), basic(alice));
    expect(res.status).toBe(201);
    const target = await temp.make('pypi-target-');
    const index = new URL(`api/packages/${alice.name}/pypi/simple`, s.url);
    index.username = alice.name;
    index.password = alice.token;
    await run('python3', ['-m', 'pip', 'install', '--no-deps', '--only-binary', ':all:', '--target', target, '--index-url', index.href, name.toLowerCase()], {
      env: pythonEnv(home),
      timeout: 120_000,
    });
    const imported = await run('python3', ['-c', `import ${module}; print(${module}.WHO)`], { env: { ...pythonEnv(home), PYTHONPATH: target } });
    expect(imported.stdout.trim()).toBe(`${name}@1.0.0`);
    const installed = await readdir(target);
    expect(installed).toContain(`Repohost_Demo_${suffix}-1.0.0.dist-info`);

    // Each file download counts for its version, as Forgejo's lead files do.
    const counted = await db()
      .selectFrom('package_version')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .select(['package_version.version', 'package_version.download_count'])
      .where('package.lower_name', '=', stored.toLowerCase())
      .orderBy('package_version.version')
      .execute();
    expect(counted.find((v) => v.version === '1.0.0')!.download_count).toBeGreaterThanOrEqual(3);
    expect(counted.find((v) => v.version === '2.0.0')!.download_count).toBe(0);
  });

  test('API v1 lists the versions with type=pypi and the files of one', async () => {
    const list = await json<any[]>(await s.fetch(`/api/v1/packages/${alice.name}?type=pypi&q=${suffix}`, { headers: alice.h }));
    for (const p of list) expect(matchesSchema(PackageSchema, p)).toBe(true);
    expect(list.map((p) => `${p.type}:${p.name}@${p.version}`).sort()).toEqual([`pypi:${stored}@1.0.0`, `pypi:${stored}@2.0.0`]);
    const files = await json<any[]>(await s.fetch(`/api/v1/packages/${alice.name}/pypi/${stored}/1.0.0/files`, { headers: alice.h }));
    for (const f of files) expect(matchesSchema(PackageFileSchema, f)).toBe(true);
    expect(files.map((f) => f.name).sort()).toEqual([`Repohost_Demo_${suffix}-1.0.0-py3-none-any.whl`, `Repohost_Demo_${suffix}-1.0.0.tar.gz`]);
  });
});

describe('the upload form over HTTP', () => {
  test('Forgejo’s own form (the file first, then the fields): several files per version, 409 for a file it has, metadata', async () => {
    const name = uniq('test-package');
    const version = '1!1.0.1+r1234';
    const content = Buffer.from('test');
    const fields: [string, string][] = [
      ['name', name],
      ['version', version],
      ['author', 'KN4CK3R'],
      ['summary', 'Test Description'],
      ['description', 'Test Description'],
      ['sha256_digest', '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
      ['requires_python', '3.6'],
      ['project_urls', 'Home-page, https://example.com'],
    ];
    const first = await upload(alice.name, form(fields, { name: 'test.whl', data: content }, true), basic(alice));
    expect(first.status).toBe(201);
    expect(await first.text()).toBe('');
    expect((await upload(alice.name, form(fields, { name: 'test.tar.gz', data: content }, true), basic(alice))).status).toBe(201);
    for (const file of ['test.whl', 'test.tar.gz']) {
      const again = await upload(alice.name, form(fields, { name: file, data: content }, true), basic(alice));
      expect(again.status).toBe(409);
      expect(await again.text()).toBe('package file already exists');
    }
    const row = await db()
      .selectFrom('package_version')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .select(['package_version.id', 'package_version.metadata_json', 'package.semver_compatible'])
      .where('package.lower_name', '=', name)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.metadata_json)).toEqual({
      author: 'KN4CK3R',
      description: 'Test Description',
      summary: 'Test Description',
      project_url: 'https://example.com',
      requires_python: '3.6',
    });
    expect(row.semver_compatible).toBe(0);
    const files = await db().selectFrom('package_file').select(['name', 'is_lead']).where('version_id', '=', row.id).orderBy('id').execute();
    expect(files).toEqual([
      { name: 'test.whl', is_lead: 1 },
      { name: 'test.tar.gz', is_lead: 1 },
    ]);

    const download = await s.fetch(`/api/packages/${alice.name}/pypi/files/${name}/${encodeURIComponent(version)}/test.whl`, { headers: basic(alice) });
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('test');
    const page = await (await s.fetch(`/api/packages/${alice.name}/pypi/simple/${name}`, { headers: basic(alice) })).text();
    const hrefs = [...page.matchAll(/<a href="([^"]*)" data-requires-python="3.6">/g)].map((m) => m[1]);
    expect(hrefs).toEqual(['test.whl', 'test.tar.gz'].map((f) => `${s.url}api/packages/${alice.name}/pypi/files/${name}/${version}/${f}#sha256=${sha256(content)}`));
  });

  test('no write access is 401 before the body is read; a private organization’s index is 401 to others', async () => {
    const name = uniq('guard');
    const data = randomBytes(100);
    for (const headers of [{}, basic(bob), { authorization: 'Basic bm9ib2R5Om5vdGhpbmc=' }]) {
      const res = await upload(alice.name, form(twineFields(name, '1.0', data), { name: `${name}-1.0.tar.gz`, data }), headers);
      expect(res.status).toBe(401);
    }
    const anonymous = await upload(alice.name, form(twineFields(name, '1.0', data), { name: `${name}-1.0.tar.gz`, data }), {});
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
    expect(await packageRows(name)).toBe(0);

    const org = uniq('porg');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org, visibility: 'private' }, alice.h))).status).toBe(201);
    expect((await upload(org, form(twineFields('secret', '1.0', data), { name: 'secret-1.0.tar.gz', data }), alice.h)).status).toBe(201);
    expect((await s.fetch(`/api/packages/${org}/pypi/simple/secret`, { headers: alice.h })).status).toBe(200);
    expect((await s.fetch(`/api/packages/${org}/pypi/simple/secret`)).status).toBe(401);
    expect((await s.fetch(`/api/packages/${org}/pypi/simple/secret`, { headers: bob.h })).status).toBe(401);
    expect((await s.fetch(`/api/packages/${org}/pypi/files/secret/1.0/secret-1.0.tar.gz`, { headers: bob.h })).status).toBe(401);
  });

  test('a digest that does not match, a bad name or version: 400 with Forgejo’s message; nothing stored', async () => {
    const data = randomBytes(200);
    const name = uniq('mismatch');
    for (const fileFirst of [false, true]) {
      const fields = twineFields(name, '1.0', data).map(([k, v]): [string, string] => [k, k === 'sha256_digest' ? sha256('other') : v]);
      const res = await upload(alice.name, form(fields, { name: `${name}-1.0.tar.gz`, data }, fileFirst), alice.h);
      expect(res.status).toBe(400);
      expect(await res.text()).toBe('hash mismatch');
    }
    // The digest is compared regardless of case, as Forgejo's EqualFold.
    const upper = twineFields(name, '1.0', data).map(([k, v]): [string, string] => [k, k === 'sha256_digest' ? v.toUpperCase() : v]);
    expect((await upload(alice.name, form(upper, { name: `${name}-1.0.tar.gz`, data }), alice.h)).status).toBe(201);
    expect(await packageRows(name)).toBe(1);

    const other = randomBytes(200);
    for (const [badName, badVersion] of [
      ['-leading', '1.0'],
      ['trailing.', '1.0'],
      ['with space', '1.0'],
      ['../evil', '1.0'],
      ['', '1.0'],
      ['ok', 'one'],
      ['ok', '1.0-foo'],
      ['ok', '1.0+UPPER'],
      ['ok', ''],
      ['ok', `1${'.0'.repeat(2000)}x`],
    ]) {
      const res = await upload(alice.name, form(twineFields(badName!, badVersion!, other), { name: 'x.tar.gz', data: other }), alice.h);
      expect(res.status, `${badName} ${badVersion}`).toBe(400);
      expect(await res.text()).toBe('invalid name or version');
    }
    // PEP 440 versions Forgejo's pattern takes.
    for (const version of ['2.0a1', '2.0.post1', '2.0-1', '2.0.dev3', 'v2.1rc1', '1!2.2+local.7']) {
      const data = randomBytes(20);
      expect((await upload(alice.name, form(twineFields(name, version, data), { name: `f-${version}.whl`, data }), alice.h)).status, version).toBe(201);
    }
    expect(await blobGone(other)).toBe(true);
    const missing = await upload(alice.name, form(twineFields(name, '3.0', other)), alice.h);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toBe('http: no such file');
  });

  test('a file past LIMIT_SIZE_PYPI is 403 and leaves no package nor blob, whatever the fields’ order', async () => {
    for (const fileFirst of [false, true]) {
      const name = uniq('big');
      const data = randomBytes(LIMIT + 1);
      const res = await upload(alice.name, form(twineFields(name, '1.0', data), { name: `${name}-1.0.tar.gz`, data }, fileFirst), alice.h);
      expect(res.status).toBe(403);
      expect(await res.text()).toBe('maximum allowed package type size exceeded');
      expect(await packageRows(name)).toBe(0);
      expect(await blobGone(data)).toBe(true);
    }
    const name = uniq('fits');
    const data = randomBytes(LIMIT);
    expect((await upload(alice.name, form(twineFields(name, '1.0', data), { name: `${name}-1.0.tar.gz`, data }, true), alice.h)).status).toBe(201);
    // Neither spool (the server's for a file before its fields, the store's) leaves a temporary file behind.
    expect(await readdir(path.join(s.host.settings.server.APP_DATA_PATH, 'tmp', 'package-upload'))).toEqual([]);
  });

  test('unknown packages, versions and files are 404', async () => {
    const page = await s.fetch(`/api/packages/${alice.name}/pypi/simple/${uniq('none')}`);
    expect(page.status).toBe(404);
    expect(await page.text()).toBe('');
    const file = await s.fetch(`/api/packages/${alice.name}/pypi/files/${uniq('none')}/1.0/x.whl`);
    expect(file.status).toBe(404);
    expect(await file.text()).toBe('package does not exist');
    expect((await s.fetch(`/api/packages/${uniq('nobody')}/pypi/simple/x`)).status).toBe(404);
  });
});
