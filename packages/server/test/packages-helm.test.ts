/**
 * The Helm chart repository under `/api/packages/{owner}/helm/…` as Forgejo serves it, proven with the real `helm`:
 * charts made by `helm create` + `helm package` (two versions) uploaded as Forgejo's documentation does it (the
 * archive as the body of `POST …/api/charts`), then `helm repo add` with credentials, `helm repo update`,
 * `helm search repo` listing both, `helm pull` giving the uploaded bytes back, `helm template` rendering from the
 * repository; and `helm push`/`helm pull` of `oci://` through the container registry. Then over HTTP: index.yaml's
 * shape, the metadata kept as Forgejo keeps it, a re-upload (Forgejo replaces the file: 201), `helm cm-push`'s form,
 * and the unhappy paths: anonymous and other users, a private organization, broken archives and charts, the size
 * limit. Skips the real-client tests only when helm is missing.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import { parse as parseYaml } from 'yaml';
import { PackageSchema, matchesSchema, parseChartArchive } from '@repohost/core';
import { findExecutable, jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, json, tempFolders, uniq, ustarOf, type Account } from './helpers';

const temp = tempFolders();

const run = promisify(execFile);

const LIMIT = 64 * 1024;

/** helm on PATH, or where the install line puts it (`GOBIN="${TMPDIR:-/tmp}/repohost-test-bin" go install helm.sh/helm/v3/cmd/helm@v3.22.0`). */
const HELM = findExecutable('helm');
if (!HELM) {
  console.warn(
    'packages-helm: helm is neither on PATH nor in ${TMPDIR:-/tmp}/repohost-test-bin; the helm tests are skipped (install: GOBIN="${TMPDIR:-/tmp}/repohost-test-bin" go install helm.sh/helm/v3/cmd/helm@v3.22.0)',
  );
}

let s: TestServer;
let alice: Account;
let bob: Account;
let home: string;

const db = () => (s.host as unknown as { storage: { db: Kysely<any> } }).storage.db;
const repo = (owner: string) => `/api/packages/${owner}/helm`;
const basic = (a: Account) => ({ authorization: `Basic ${Buffer.from(`${a.name}:${a.token}`).toString('base64')}` });

/** Runs helm with its cache, configuration and data in the test's temporary folder. */
async function helm(...args: string[]): Promise<string> {
  const { stdout } = await run(HELM!, args, {
    cwd: home,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      HELM_CACHE_HOME: path.join(home, 'cache'),
      HELM_CONFIG_HOME: path.join(home, 'config'),
      HELM_DATA_HOME: path.join(home, 'data'),
    },
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

function upload(owner: string, body: Buffer | FormData, headers: Record<string, string>): Promise<Response> {
  return s.fetch(`${repo(owner)}/api/charts`, { method: 'POST', body, headers });
}

/** A ustar archive of these files, gzipped: what `helm package` makes, by hand for the bad-input cases. */
function chartArchive(files: Record<string, string | Buffer>): Buffer {
  return gzipSync(ustarOf(files));
}

const chartYaml = (name: string, version: string, extra = '') => `apiVersion: v2\nname: ${name}\nversion: ${version}\ndescription: the ${name} chart\ntype: application\n${extra}`;

beforeAll(async () => {
  s = await startTestServer({ packages: { LIMIT_SIZE_HELM: LIMIT } });
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
  home = await temp.make('helm-home-');
});

afterAll(async () => {
  await temp.removeAll();
  await s?.cleanup();
});

describe.skipIf(!HELM)('the Helm registry with the real helm client', () => {
  const chart = uniq('chart');
  const archives: Record<string, Buffer> = {};

  test('helm package, upload, repo add/update, search, pull (same bytes), template', async () => {
    await helm('create', chart);
    const chartFile = path.join(home, chart, 'Chart.yaml');
    const original = await readFile(chartFile, 'utf8');
    for (const version of ['1.0.0', '1.1.0']) {
      await writeFile(chartFile, original.replace(/^version: .*$/m, `version: ${version}`).replace(/^appVersion: .*$/m, `appVersion: "app-${version}"`));
      await helm('package', chart, '-d', path.join(home, 'dist'));
      archives[version] = await readFile(path.join(home, 'dist', `${chart}-${version}.tgz`));
      // Forgejo's documentation: `curl --user {user}:{token} -X POST --upload-file ./{chart}.tgz …/api/charts`.
      const res = await upload(alice.name, archives[version]!, { ...basic(alice), 'content-type': 'application/octet-stream' });
      expect(res.status).toBe(201);
    }

    const url = `${s.url}api/packages/${alice.name}/helm`;
    await helm('repo', 'add', 'repohost', url, '--username', alice.name, '--password', alice.token);
    await helm('repo', 'update', 'repohost');
    const found = JSON.parse(await helm('search', 'repo', `repohost/${chart}`, '--versions', '-o', 'json')) as { name: string; version: string; app_version: string; description: string }[];
    expect(found.map((f) => [f.name, f.version, f.app_version])).toEqual([
      [`repohost/${chart}`, '1.1.0', 'app-1.1.0'],
      [`repohost/${chart}`, '1.0.0', 'app-1.0.0'],
    ]);

    for (const version of ['1.0.0', '1.1.0']) {
      const into = await mkdtemp(path.join(home, 'pull-'));
      await helm('pull', `repohost/${chart}`, '--version', version, '-d', into);
      expect(await readdir(into)).toEqual([`${chart}-${version}.tgz`]);
      expect((await readFile(path.join(into, `${chart}-${version}.tgz`))).equals(archives[version]!)).toBe(true);
    }

    const rendered = await helm('template', 'rel', `repohost/${chart}`, '--version', '1.1.0');
    expect(rendered).toContain(`helm.sh/chart: ${chart}-1.1.0`);
    expect(rendered).toContain('app.kubernetes.io/version: "app-1.1.0"');
    expect(rendered).toContain('kind: Deployment');

    // What helm read: Forgejo's index, the URLs on ROOT_URL, the download counted.
    const index = await s.fetch(`${repo(alice.name)}/index.yaml`, { headers: basic(alice) });
    expect(index.status).toBe(200);
    const doc = parseYaml(await index.text()) as any;
    expect(doc.apiVersion).toBe('v1');
    expect(doc.serverInfo).toEqual({ contextPath: `${new URL(s.url).pathname.replace(/\/$/, '')}/api/packages/${alice.name}/helm` });
    expect(Number.isNaN(Date.parse(doc.generated))).toBe(false);
    const entries = doc.entries[chart] as any[];
    expect(entries.map((e) => e.version)).toEqual(['1.1.0', '1.0.0']);
    expect(entries[1]).toMatchObject({ apiVersion: 'v2', type: 'application', name: chart, appVersion: 'app-1.0.0', urls: [`${url}/${chart}-1.0.0.tgz`] });
    expect(Number.isNaN(Date.parse(entries[1].created))).toBe(false);

    const row = await db()
      .selectFrom('package_version')
      .innerJoin('package', 'package.id', 'package_version.package_id')
      .select(['metadata_json', 'download_count', 'semver_compatible'])
      .where('package.name', '=', chart)
      .where('version', '=', '1.0.0')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.metadata_json)).toMatchObject({ api_version: 'v2', type: 'application', name: chart, version: '1.0.0', app_version: 'app-1.0.0', description: 'A Helm chart for Kubernetes' });
    expect(row.semver_compatible).toBe(1);
    expect(row.download_count).toBeGreaterThanOrEqual(1);

    const list = await json<any[]>(await s.fetch(`/api/v1/packages/${alice.name}?type=helm`, { headers: alice.h }));
    for (const p of list) expect(matchesSchema(PackageSchema, p)).toBe(true);
    expect(list.filter((p) => p.name === chart).map((p) => p.version).sort()).toEqual(['1.0.0', '1.1.0']);
    expect(list.every((p) => p.type === 'helm')).toBe(true);
    const files = await json<any[]>(await s.fetch(`/api/v1/packages/${alice.name}/helm/${chart}/1.0.0/files`, { headers: alice.h }));
    expect(files.map((f) => [f.name, f.Size])).toEqual([[`${chart}-1.0.0.tgz`, archives['1.0.0']!.length]]);
  });

  test('helm registry login, helm push and helm pull of oci:// through the container registry', async () => {
    const registry = new URL(s.url).host;
    // Forgejo has no OAuth2 grant at the token endpoint: 404 (not a 5xx, which helm would retry for seconds).
    const oauth = await s.fetch('/v2/token', { method: 'POST', body: 'grant_type=password', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(oauth.status).toBe(404);
    await helm('registry', 'login', registry, '--username', alice.name, '--password', alice.token, '--insecure', '--plain-http');
    await helm('push', path.join(home, 'dist', `${chart}-1.0.0.tgz`), `oci://${registry}/${alice.name}`, '--plain-http');
    const into = await mkdtemp(path.join(home, 'oci-'));
    await helm('pull', `oci://${registry}/${alice.name}/${chart}`, '--version', '1.0.0', '--plain-http', '-d', into);
    expect((await readFile(path.join(into, `${chart}-1.0.0.tgz`))).equals(archives['1.0.0']!)).toBe(true);
    const rendered = await helm('template', 'rel', `oci://${registry}/${alice.name}/${chart}`, '--version', '1.0.0', '--plain-http');
    expect(rendered).toContain(`helm.sh/chart: ${chart}-1.0.0`);
    // The chart is a container package (Helm's OCI media types), as Forgejo lists it.
    const list = await json<any[]>(await s.fetch(`/api/v1/packages/${alice.name}?type=container`, { headers: alice.h }));
    expect(list.filter((p) => p.name === chart).map((p) => p.version)).toContain('1.0.0');
  });
});

describe('the Helm registry over HTTP', () => {
  test('index.yaml keeps Forgejo’s metadata: maintainers, dependencies, annotations; a non-http home is dropped', async () => {
    const owner = await account(s, 'meta');
    const name = uniq('meta');
    const extra = [
      'appVersion: 1.10',
      'home: ftp://example.com/',
      'keywords: [a, b]',
      'maintainers:',
      '  - name: KN4CK3R',
      '    email: k@example.com',
      'dependencies:',
      '  - name: dep1',
      '    repository: https://example.com/',
      '    version: 1.0.0',
      'annotations:',
      '  z: last',
      '  a: first',
      '',
    ].join('\n');
    expect((await upload(owner.name, chartArchive({ [`${name}/Chart.yaml`]: chartYaml(name, '0.1.0', extra) }), basic(owner))).status).toBe(201);
    const text = await (await s.fetch(`${repo(owner.name)}/index.yaml`)).text();
    const entry = (parseYaml(text) as any).entries[name][0];
    expect(entry).toMatchObject({
      apiVersion: 'v2',
      name,
      version: '0.1.0',
      appVersion: '1.10',
      keywords: ['a', 'b'],
      maintainers: [{ name: 'KN4CK3R', email: 'k@example.com' }],
      dependencies: [{ name: 'dep1', version: '1.0.0', repository: 'https://example.com/' }],
      annotations: { a: 'first', z: 'last' },
    });
    expect(entry.home).toBeUndefined();
    // yaml.v3's layout: the struct's order, a map's keys sorted.
    expect(Object.keys(entry)).toEqual(['apiVersion', 'type', 'name', 'version', 'appVersion', 'description', 'keywords', 'maintainers', 'annotations', 'dependencies', 'urls', 'created']);
    expect(Object.keys(entry.annotations)).toEqual(['a', 'z']);
    // The version's metadata is Forgejo's `helm_module.Metadata` JSON, its fields in its order.
    const row = await db().selectFrom('package_version').innerJoin('package', 'package.id', 'package_version.package_id').select('metadata_json').where('package.name', '=', name).executeTakeFirstOrThrow();
    const stored = JSON.parse(row.metadata_json);
    expect(Object.keys(stored)).toEqual(['api_version', 'type', 'name', 'version', 'app_version', 'description', 'keywords', 'maintainers', 'annotations', 'dependencies']);
    expect(stored.dependencies).toEqual([{ name: 'dep1', version: '1.0.0', repository: 'https://example.com/' }]);
    expect(Object.keys(stored.dependencies[0])).toEqual(['name', 'version', 'repository']);
    // The download is at the URL the index gives, counted.
    const download = await s.fetch(new URL(entry.urls[0]).pathname);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain(`filename="${name}-0.1.0.tgz"`);
    expect((await s.fetch(`${repo(owner.name)}/${name}-9.9.9.tgz`)).status).toBe(404);
    expect((await s.fetch(`${repo(owner.name)}/nothing.tgz`)).status).toBe(404);
  });

  test('a re-upload of a version replaces its file (Forgejo: 201); helm cm-push’s form is read too', async () => {
    const name = uniq('again');
    const first = chartArchive({ [`${name}/Chart.yaml`]: chartYaml(name, '1.0.0') });
    const second = chartArchive({ [`${name}/Chart.yaml`]: chartYaml(name, '1.0.0'), [`${name}/values.yaml`]: 'x: 1\n' });
    expect((await upload(alice.name, first, basic(alice))).status).toBe(201);
    expect((await upload(alice.name, first, basic(alice))).status).toBe(201);
    // cm-push's form (field `chart`), its boundary in mixed case as curl and Go write them.
    const boundary = '------------------------AbCdEf0123';
    const form = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="chart"; filename="${name}-1.0.0.tgz"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      second,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    expect((await upload(alice.name, form, { ...basic(alice), 'content-type': `multipart/form-data; boundary=${boundary}` })).status).toBe(201);
    const download = await s.fetch(`${repo(alice.name)}/${name}-1.0.0.tgz`, { headers: basic(alice) });
    expect(Buffer.from(await download.arrayBuffer()).equals(second)).toBe(true);
    const versions = await db().selectFrom('package_version').innerJoin('package', 'package.id', 'package_version.package_id').select('package_version.id').where('package.name', '=', name).execute();
    expect(versions).toHaveLength(1);
    // The replaced bytes are gone with their blob row.
    const files = await json<any[]>(await s.fetch(`/api/v1/packages/${alice.name}/helm/${name}/1.0.0/files`, { headers: alice.h }));
    expect(files.map((f) => f.Size)).toEqual([second.length]);
    const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
    expect(files.map((f) => f.sha256)).toEqual([sha256(second)]);
    expect(await db().selectFrom('package_blob').select('id').where('hash_sha256', '=', sha256(first)).execute()).toEqual([]);
  });

  test('who may upload and read: anonymous 401, another user 401, a private organization 401 to outsiders, no owner 404', async () => {
    const name = uniq('who');
    const archive = chartArchive({ [`${name}/Chart.yaml`]: chartYaml(name, '1.0.0') });
    const anonymous = await upload(alice.name, archive, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
    expect((await upload(alice.name, archive, basic(bob))).status).toBe(401);
    expect((await upload(alice.name, archive, { authorization: 'Basic ' + Buffer.from(`${alice.name}:wrong`).toString('base64') })).status).toBe(401);
    expect((await s.fetch(`${repo(uniq('ghost'))}/index.yaml`)).status).toBe(404);

    const org = uniq('horg');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org, visibility: 'private' }, alice.h))).status).toBe(201);
    expect((await upload(org, archive, basic(alice))).status).toBe(201);
    expect((await s.fetch(`${repo(org)}/index.yaml`, { headers: basic(alice) })).status).toBe(200);
    for (const headers of [{}, basic(bob)]) {
      expect((await s.fetch(`${repo(org)}/index.yaml`, { headers })).status).toBe(401);
      expect((await s.fetch(`${repo(org)}/${name}-1.0.0.tgz`, { headers })).status).toBe(401);
      expect((await upload(org, archive, headers)).status).toBe(401);
    }
    // Nothing of the refused uploads was kept.
    const mine = await db().selectFrom('package').innerJoin('user', 'user.id', 'package.owner_id').select('package.id').where('package.name', '=', name).where('user.name', '=', alice.name).execute();
    expect(mine).toEqual([]);
  });

  test('broken archives and charts are 400 with the reason; nothing is stored', async () => {
    const name = uniq('bad');
    const cases: [Buffer, string][] = [
      [Buffer.from('not a chart'), 'gzip: invalid header'],
      [gzipSync(Buffer.from('x'.repeat(700))), 'archive/tar: invalid tar header'],
      [chartArchive({ [`${name}/Chart.yaml`]: chartYaml(name, '1.0.0') }).subarray(0, 40), 'unexpected EOF'],
      [chartArchive({ [`${name}/values.yaml`]: 'a: 1\n' }), 'Chart.yaml file is missing'],
      // Only `{chart}/Chart.yaml` counts: one deeper is a subchart's.
      [chartArchive({ [`${name}/charts/sub/Chart.yaml`]: chartYaml('sub', '1.0.0') }), 'Chart.yaml file is missing'],
      [chartArchive({ [`${name}/Chart.yaml`]: `name: ${name}\nversion: 1.0.0\n` }), 'chart is invalid'],
      [chartArchive({ [`${name}/Chart.yaml`]: chartYaml(name, '1.0.0', 'type: other\n').replace('type: application\n', '') }), 'chart is invalid'],
      [chartArchive({ [`${name}/Chart.yaml`]: chartYaml('', '1.0.0') }), 'package name is invalid'],
      [chartArchive({ [`${name}/Chart.yaml`]: chartYaml('a/b', '1.0.0') }), 'package name is invalid'],
      [chartArchive({ [`${name}/Chart.yaml`]: chartYaml(name, 'one') }), 'package version is invalid'],
      [chartArchive({ [`${name}/Chart.yaml`]: `${chartYaml(name, '1.0.0')}  bad: [\n` }), ''],
      [chartArchive({ [`${name}/Chart.yaml`]: `${chartYaml(name, '1.0.0')}# ${'x'.repeat(1024 * 1024)}\n` }), 'Chart.yaml file is too large'],
    ];
    for (const [body, reason] of cases) {
      const res = await upload(alice.name, body, basic(alice));
      expect(res.status, reason).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8');
      const error = (await json(res)).error as string;
      if (reason) expect(error).toBe(reason);
      else expect(error).toMatch(/^yaml: /);
    }
    expect(await db().selectFrom('package').select('id').where('name', '=', name).execute()).toEqual([]);
  });

  test('the archive is read within bounds: past 10000 entries before Chart.yaml it is refused', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 10_000; i++) many[`c/templates/f${i}.yaml`] = '';
    many['c/Chart.yaml'] = chartYaml('c', '1.0.0');
    await expect(parseChartArchive(Readable.from([chartArchive(many)]))).rejects.toThrow('chart archive has too many entries');
    // One entry fewer and it is found.
    delete many['c/templates/f0.yaml'];
    expect(await parseChartArchive(Readable.from([chartArchive(many)]))).toMatchObject({ name: 'c', version: '1.0.0' });
  });

  test('LIMIT_SIZE_HELM: a larger archive is refused with 403 and not stored', async () => {
    const name = uniq('big');
    // Random bytes do not compress: the archive stays past the limit.
    const filler = Buffer.from(Array.from({ length: LIMIT + 1024 }, () => Math.floor(Math.random() * 256)));
    const archive = chartArchive({ [`${name}/Chart.yaml`]: chartYaml(name, '1.0.0'), [`${name}/blob.bin`]: filler });
    expect(archive.length).toBeGreaterThan(LIMIT);
    const res = await upload(alice.name, archive, basic(alice));
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({ error: 'maximum allowed package type size exceeded' });
    expect(await db().selectFrom('package').select('id').where('name', '=', name).execute()).toEqual([]);
  });
});
