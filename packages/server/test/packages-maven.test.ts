/**
 * The Maven registry under `/api/packages/{owner}/maven/…` as Forgejo serves it, proven with the real `mvn` client
 * (`mvn deploy` of a release and of a SNAPSHOT twice, whose build resolves the release from the server, then another
 * project built against the SNAPSHOT), and the unhappy paths as a client sees them over HTTP: who may write, files
 * uploaded twice, checksums that do not match, bad paths, a POM that does not parse, the size limit. Forgejo's own
 * integration test's vectors check the generated `maven-metadata.xml` and its checksums byte for byte.
 *
 * Maven's plugins come from Maven Central into one local repository shared across runs
 * (`$TMPDIR/repohost-test-m2-<project>`), so only the first run downloads them; each run deploys under a group of its own.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import { PackageFileSchema, PackageSchema, matchesSchema, packageBlobKey } from '@repohost/core';
import { TEST_DB, jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, json, tempFolders, uniq, type Account } from './helpers';

const temp = tempFolders();

const run = promisify(execFile);

const LIMIT = 64 * 1024;
// One per test project: the SQLite and PostgreSQL runs go side by side, and Maven's local repository is not made
// for two processes writing one folder.
const M2 = path.join(tmpdir(), `repohost-test-m2-${TEST_DB}`);
/** The first run downloads Maven's plugins from Maven Central. */
const MAVEN_TIMEOUT = 10 * 60_000;

const mvnVersion = await run('mvn', ['-v'], { timeout: 60_000 }).then(
  (r) => r.stdout,
  () => undefined,
);
if (!mvnVersion) console.warn('packages-maven: `mvn` is not installed; the tests with the real Maven client are skipped (apt-get install maven)');

let s: TestServer;
let alice: Account;
let bob: Account;
let work: string;

const db = () => (s.host as unknown as { storage: { db: Kysely<any> } }).storage.db;
const hash = (algorithm: string, data: string | Buffer) => createHash(algorithm).update(data).digest('hex');
const blobPath = (sha256: string) => path.join(s.host.settings.server.APP_DATA_PATH, 'packages', ...packageBlobKey(sha256).split('/'));
const basic = (account: Account) => ({ authorization: `Basic ${Buffer.from(`${account.name}:${account.token}`).toString('base64')}` });

function put(url: string, body: string | Buffer, headers: Record<string, string> = alice.h): Promise<Response> {
  return s.fetch(url, { method: 'PUT', body, headers });
}

async function versionRow(owner: string, name: string, version: string): Promise<{ id: number; metadata_json: string; download_count: number } | undefined> {
  return db()
    .selectFrom('package_version')
    .innerJoin('package', 'package.id', 'package_version.package_id')
    .innerJoin('user', 'user.id', 'package.owner_id')
    .select(['package_version.id as id', 'package_version.metadata_json as metadata_json', 'package_version.download_count as download_count'])
    .where('user.lower_name', '=', owner.toLowerCase())
    .where('package.type', '=', 'maven')
    .where('package.name', '=', name)
    .where('package_version.version', '=', version)
    .executeTakeFirst();
}

async function fileNames(versionId: number): Promise<string[]> {
  const rows = await db().selectFrom('package_file').select('name').where('version_id', '=', versionId).orderBy('name').execute();
  return rows.map((r: { name: string }) => r.name);
}

/** Runs the real mvn in `cwd` with the test's settings.xml (alice's token) and the shared local repository. */
async function mvn(cwd: string, ...args: string[]): Promise<string> {
  try {
    const { stdout } = await run('mvn', ['-B', '-s', path.join(work, 'settings.xml'), `-Dmaven.repo.local=${M2}`, ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: work, JAVA_HOME: process.env.JAVA_HOME ?? '', MAVEN_OPTS: '-Xmx256m -XX:TieredStopAtLevel=1' },
      timeout: MAVEN_TIMEOUT,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`mvn ${args.join(' ')} failed: ${failed.message}\n${(failed.stdout ?? '').slice(-4000)}\n${failed.stderr ?? ''}`);
  }
}

/** A Maven project folder: its pom.xml (with the server as repository and deployment target) and one Java class. */
async function project(pom: { groupId: string; artifactId: string; version: string; extra?: string; dependencies?: string }, java: string): Promise<string> {
  const folder = await mkdtemp(path.join(work, `${pom.artifactId}-`));
  const url = `${s.url}api/packages/${alice.name}/maven`;
  const text = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${pom.groupId}</groupId>
  <artifactId>${pom.artifactId}</artifactId>
  <version>${pom.version}</version>
  ${pom.extra ?? ''}
  <properties>
    <maven.compiler.source>8</maven.compiler.source>
    <maven.compiler.target>8</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>${pom.dependencies ?? ''}</dependencies>
  <repositories>
    <repository>
      <id>repohost</id>
      <url>${url}</url>
      <snapshots><enabled>true</enabled><updatePolicy>always</updatePolicy></snapshots>
    </repository>
  </repositories>
  <distributionManagement>
    <repository><id>repohost</id><url>${url}</url></repository>
    <snapshotRepository><id>repohost</id><url>${url}</url></snapshotRepository>
  </distributionManagement>
</project>
`;
  await writeFile(path.join(folder, 'pom.xml'), text);
  const source = path.join(folder, 'src', 'main', 'java', 'demo');
  await mkdir(source, { recursive: true });
  const className = /class (\w+)/.exec(java)![1]!;
  await writeFile(path.join(source, `${className}.java`), `package demo;\n${java}\n`);
  return folder;
}

beforeAll(async () => {
  s = await startTestServer({ packages: { LIMIT_SIZE_MAVEN: LIMIT } });
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
  work = await temp.make('maven-test-');
  await writeFile(
    path.join(work, 'settings.xml'),
    `<settings><servers><server><id>repohost</id><username>${alice.name}</username><password>${alice.token}</password></server></servers></settings>\n`,
  );
});

afterAll(async () => {
  await temp.removeAll();
  await s?.cleanup();
});

describe.skipIf(!mvnVersion)('the Maven registry with the real mvn client', () => {
  const groupId = `org.repohost.${uniq('t')}`;
  const groupPath = groupId.replaceAll('.', '/');
  const base = () => `/api/packages/${alice.name}/maven/${groupPath}`;
  let core: string;

  test('mvn deploy of a release: its files, checksums, POM metadata and the generated maven-metadata.xml', { timeout: MAVEN_TIMEOUT }, async () => {
    core = await project(
      {
        groupId,
        artifactId: 'core',
        version: '1.0',
        extra: '<name>Core &amp; more</name><description>The core library</description><url>https://example.com/core</url><licenses><license><name>MIT</name></license></licenses>',
      },
      'public class Core { public static String greet(String who) { return "Hello, " + who; } }',
    );
    // The install phase would put the artifact in the local repository: the consumer must get it from the server.
    await mvn(core, '-q', '-Dmaven.install.skip=true', 'deploy');

    const jar = await readFile(path.join(core, 'target', 'core-1.0.jar'));
    const got = await s.fetch(`${base()}/core/1.0/core-1.0.jar`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/java-archive');
    expect(got.headers.get('last-modified')).toBeTruthy();
    expect(Buffer.from(await got.arrayBuffer()).equals(jar)).toBe(true);
    for (const algorithm of ['md5', 'sha1', 'sha256', 'sha512']) {
      const checksum = await s.fetch(`${base()}/core/1.0/core-1.0.jar.${algorithm}`);
      expect(checksum.status).toBe(200);
      expect(await checksum.text()).toBe(hash(algorithm, jar));
    }
    const pom = await s.fetch(`${base()}/core/1.0/core-1.0.pom`);
    expect(pom.headers.get('content-type')).toBe('text/xml');
    expect(await pom.text()).toBe(await readFile(path.join(core, 'pom.xml'), 'utf8'));

    const metadata = await s.fetch(`${base()}/core/maven-metadata.xml`);
    expect(metadata.headers.get('content-type')).toBe('text/xml');
    const xml = await metadata.text();
    expect(xml).toBe(
      `<?xml version="1.0" encoding="UTF-8"?>\n<metadata><groupId>${groupId}</groupId><artifactId>core</artifactId><versioning><release>1.0</release><latest>1.0</latest><versions><version>1.0</version></versions></versioning></metadata>`,
    );
    expect(await (await s.fetch(`${base()}/core/maven-metadata.xml.sha1`)).text()).toBe(hash('sha1', xml));

    // Stored: the jar and the POM (checksums are compared, the package's maven-metadata.xml ignored); the POM's metadata as Forgejo keeps it.
    const version = (await versionRow(alice.name, `${groupId}:core`, '1.0'))!;
    expect(await fileNames(version.id)).toEqual(['core-1.0.jar', 'core-1.0.pom']);
    expect(version.metadata_json).toBe(
      JSON.stringify({ group_id: groupId, artifact_id: 'core', name: 'Core & more', description: 'The core library', project_url: 'https://example.com/core', licenses: ['MIT'] }),
    );
    // Only the POM counts downloads (it was fetched once above; HEAD counts nothing).
    expect((await s.fetch(`${base()}/core/1.0/core-1.0.pom`, { method: 'HEAD' })).status).toBe(200);
    expect((await versionRow(alice.name, `${groupId}:core`, '1.0'))!.download_count).toBe(1);
  });

  test('mvn deploy of a SNAPSHOT (twice) whose build resolves the release; another project builds against the SNAPSHOT', { timeout: MAVEN_TIMEOUT }, async () => {
    const dependency = `<dependency><groupId>${groupId}</groupId><artifactId>core</artifactId><version>1.0</version></dependency>`;
    const lib = await project(
      { groupId, artifactId: 'lib', version: '1.0-SNAPSHOT', dependencies: dependency },
      'public class Lib { public static String hello() { return Core.greet("Maven"); } }',
    );
    await mvn(lib, '-q', '-Dmaven.install.skip=true', 'deploy');
    await mvn(lib, '-q', '-Dmaven.install.skip=true', 'deploy');

    const version = (await versionRow(alice.name, `${groupId}:lib`, '1.0-SNAPSHOT'))!;
    const names = await fileNames(version.id);
    // Two timestamped builds, and one maven-metadata.xml: the second deploy replaced the first's.
    expect(names.filter((n) => n.endsWith('.jar'))).toHaveLength(2);
    expect(names.filter((n) => n.endsWith('.pom'))).toHaveLength(2);
    expect(names.filter((n) => n === 'maven-metadata.xml')).toHaveLength(1);
    for (const name of names) if (name !== 'maven-metadata.xml') expect(name).toMatch(/^lib-1\.0-\d{8}\.\d{6}-[12]\.(jar|pom)$/);
    const snapshotXml = await (await s.fetch(`${base()}/lib/1.0-SNAPSHOT/maven-metadata.xml`)).text();
    expect(snapshotXml).toContain('<buildNumber>2</buildNumber>');
    expect(await (await s.fetch(`${base()}/lib/1.0-SNAPSHOT/maven-metadata.xml.sha1`)).text()).toBe(hash('sha1', snapshotXml));
    expect(JSON.parse(version.metadata_json).dependencies).toEqual([{ group_id: groupId, artifact_id: 'core', version: '1.0' }]);

    // The package's metadata has no release: its only version is a SNAPSHOT.
    const libXml = await (await s.fetch(`${base()}/lib/maven-metadata.xml`)).text();
    expect(libXml).toContain('<versioning><latest>1.0-SNAPSHOT</latest><versions><version>1.0-SNAPSHOT</version></versions></versioning>');

    const app = await project(
      { groupId, artifactId: 'app', version: '1.0', dependencies: `<dependency><groupId>${groupId}</groupId><artifactId>lib</artifactId><version>1.0-SNAPSHOT</version></dependency>` },
      'public class App { public static void main(String[] args) { System.out.println(Lib.hello()); } }',
    );
    await mvn(app, '-q', 'package');
    expect(existsSync(path.join(app, 'target', 'classes', 'demo', 'App.class'))).toBe(true);
    // Both came from the server: the SNAPSHOT as its newest build, the release its build needs.
    const local = path.join(M2, ...groupId.split('.'));
    expect((await readdir(path.join(local, 'lib', '1.0-SNAPSHOT'))).some((f) => /^lib-1\.0-\d{8}\.\d{6}-2\.jar$/.test(f))).toBe(true);
    expect(await readFile(path.join(local, 'core', '1.0', 'core-1.0.jar'))).toEqual(await readFile(path.join(core, 'target', 'core-1.0.jar')));
  });

  test('API v1 lists what was deployed, with the files', async () => {
    const list = await json<any[]>(await s.fetch(`/api/v1/packages/${alice.name}?type=maven&q=${groupId}`, { headers: alice.h }));
    for (const p of list) expect(matchesSchema(PackageSchema, p)).toBe(true);
    expect(list.map((p) => `${p.name}@${p.version}`).sort()).toEqual([`${groupId}:core@1.0`, `${groupId}:lib@1.0-SNAPSHOT`]);
    const files = await json<any[]>(await s.fetch(`/api/v1/packages/${alice.name}/maven/${groupId}:core/1.0/files`, { headers: alice.h }));
    for (const f of files) expect(matchesSchema(PackageFileSchema, f)).toBe(true);
    const jar = await readFile(path.join(core, 'target', 'core-1.0.jar'));
    expect(files.find((f) => f.name === 'core-1.0.jar')).toMatchObject({ Size: jar.length, sha1: hash('sha1', jar), sha256: hash('sha256', jar) });
  });
});

describe('Forgejo’s Maven answers over HTTP', () => {
  // Forgejo's own integration test (`TestPackageMaven`): its coordinates, contents and expected checksums.
  const groupId = 'com.gitea';
  const artifactId = 'test-project';
  const version = '1.0.1';
  const filename = `${groupId}:${artifactId}:${version}.jar`;
  const root = () => `/api/packages/${alice.name}/maven/com/gitea/${artifactId}`;
  const pomContent = `<?xml version="1.0"?>
<project xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <groupId>${groupId}</groupId>
  <artifactId>${artifactId}</artifactId>
  <version>${version}</version>
  <description>Test Description</description>
</project>`;

  test('upload, 409 for the same file again, checksums checked, the package metadata ignored; HEAD and GET', async () => {
    expect((await put(`${root()}/${version}/${filename}`, 'test')).status).toBe(201);
    const again = await put(`${root()}/${version}/${filename}`, 'test');
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toBe('text/plain;charset=utf-8');
    expect(await again.text()).toBe('package file already exists');
    expect((await put(`${root()}/maven-metadata.xml`, 'test')).status).toBe(200);

    const mismatch = await put(`${root()}/${version}/${filename}.sha1`, 'test');
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toBe('hash mismatch');
    expect((await put(`${root()}/${version}/${filename}.sha1`, 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3')).status).toBe(200);
    const noFile = await put(`${root()}/${version}/other.jar.sha1`, 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3');
    expect(noFile.status).toBe(404);
    expect(await noFile.text()).toBe('package file does not exist');
    expect((await put(`${root()}/9.9/${filename}.md5`, 'x')).status).toBe(404);

    const head = await s.fetch(`${root()}/${version}/${filename}`, { method: 'HEAD', headers: alice.h });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/java-archive');
    expect(head.headers.get('content-length')).toBe('4');
    expect(head.headers.get('last-modified')).toBeTruthy();
    const get = await s.fetch(`${root()}/${version}/${filename}`, { headers: alice.h });
    expect(await get.text()).toBe('test');
    // The jar is not the version's lead: its downloads do not count.
    expect((await versionRow(alice.name, `${groupId}:${artifactId}`, version))!.download_count).toBe(0);
    // Names match case.
    expect((await s.fetch(`${root()}/${version}/${filename.toUpperCase()}`)).status).toBe(404);
  });

  test('the POM sets the metadata; the generated maven-metadata.xml and its checksums are Forgejo’s to the byte', async () => {
    expect((await put(`${root()}/${version}/${filename}.pom`, pomContent)).status).toBe(201);
    const row = (await versionRow(alice.name, `${groupId}:${artifactId}`, version))!;
    expect(JSON.parse(row.metadata_json)).toEqual({ group_id: groupId, artifact_id: artifactId, description: 'Test Description' });
    const pom = await s.fetch(`${root()}/${version}/${filename}.pom`);
    expect(pom.headers.get('content-type')).toBe('text/xml');
    expect(await pom.text()).toBe(pomContent);
    expect((await versionRow(alice.name, `${groupId}:${artifactId}`, version))!.download_count).toBe(1);

    for (const [key, checksum] of Object.entries({
      md5: '098f6bcd4621d373cade4e832627b4f6',
      sha1: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
      sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      sha512: 'ee26b0dd4af7e749aa1a8ee3c10ae9923f618980772e473f8819a5d4940e0db27ac185f8a0e1d5f84f88bc887fd67b143732c304cc5fa9ad8e6f57f50028a8ff',
    })) {
      expect(await (await s.fetch(`${root()}/${version}/${filename}.${key}`)).text()).toBe(checksum);
    }
    expect((await s.fetch(`${root()}/1.2.3/${filename}`)).status).toBe(404);

    const metadata = await s.fetch(`${root()}/maven-metadata.xml`);
    const expected =
      '<?xml version="1.0" encoding="UTF-8"?>\n<metadata><groupId>com.gitea</groupId><artifactId>test-project</artifactId><versioning><release>1.0.1</release><latest>1.0.1</latest><versions><version>1.0.1</version></versions></versioning></metadata>';
    expect(metadata.headers.get('content-type')).toBe('text/xml');
    expect(metadata.headers.get('content-length')).toBe(String(expected.length));
    expect(metadata.headers.get('last-modified')).toBeTruthy();
    expect(await metadata.text()).toBe(expected);
    for (const [key, checksum] of Object.entries({
      md5: '6bee0cebaaa686d658adf3e7e16371a0',
      sha1: '8696abce499fe84d9ea93e5492abe7147e195b6c',
      sha256: '3f48322f81c4b2c3bb8649ae1e5c9801476162b520e1c2734ac06b2c06143208',
      sha512: 'cb075aa2e2ef1a83cdc14dd1e08c505b72d633399b39e73a21f00f0deecb39a3e2c79f157c1163f8a3854828750706e0dec3a0f5e4778e91f8ec2cf351a855f2',
    })) {
      expect(await (await s.fetch(`${root()}/maven-metadata.xml.${key}`)).text()).toBe(checksum);
    }
  });

  test('a SNAPSHOT’s maven-metadata.xml is stored and replaced; the package metadata lists it after the release', async () => {
    const snapshot = `${version}-SNAPSHOT`;
    expect((await put(`${root()}/${snapshot}/${filename}`, 'test')).status).toBe(201);
    expect((await put(`${root()}/${snapshot}/maven-metadata.xml`, 'first')).status).toBe(201);
    expect((await put(`${root()}/${snapshot}/maven-metadata.xml`, 'test-overwrite')).status).toBe(201);
    expect(await (await s.fetch(`${root()}/${snapshot}/maven-metadata.xml`)).text()).toBe('test-overwrite');
    expect(await (await s.fetch(`${root()}/${snapshot}/maven-metadata.xml.md5`)).text()).toBe(hash('md5', 'test-overwrite'));
    const row = (await versionRow(alice.name, `${groupId}:${artifactId}`, snapshot))!;
    expect(await fileNames(row.id)).toEqual([filename, 'maven-metadata.xml']);
    // The replaced bytes went with the file that had them.
    expect(existsSync(blobPath(hash('sha256', 'first')))).toBe(false);
    expect(await db().selectFrom('package_blob').select('id').where('hash_sha256', '=', hash('sha256', 'first')).execute()).toHaveLength(0);
    expect(existsSync(blobPath(hash('sha256', 'test-overwrite')))).toBe(true);

    const xml = await (await s.fetch(`${root()}/maven-metadata.xml`)).text();
    expect(xml).toContain(`<release>1.0.1</release><latest>${snapshot}</latest><versions><version>1.0.1</version><version>${snapshot}</version></versions>`);
  });

  test('who may write: anonymous and another user are 401; a private organization is invisible to others', async () => {
    const name = `/api/packages/${alice.name}/maven/org/guard/thing/1.0/thing-1.0.jar`;
    const anonymous = await put(name, 'x', {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
    expect((await put(name, 'x', bob.h)).status).toBe(401);
    expect((await put(name, 'x', { authorization: `Basic ${Buffer.from(`${alice.name}:wrong`).toString('base64')}` })).status).toBe(401);
    expect(await db().selectFrom('package').select('id').where('name', '=', 'org.guard:thing').execute()).toHaveLength(0);
    // Basic with the token, as settings.xml gives it, writes.
    expect((await put(name, 'x', basic(alice))).status).toBe(201);

    const org = uniq('morg');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org, visibility: 'private' }, alice.h))).status).toBe(201);
    const secret = `/api/packages/${org}/maven/org/secret/thing/1.0/thing-1.0.jar`;
    expect((await put(secret, 'secret', alice.h)).status).toBe(201);
    expect(await (await s.fetch(secret, { headers: alice.h })).text()).toBe('secret');
    expect((await s.fetch(secret)).status).toBe(401);
    expect((await s.fetch(secret, { headers: bob.h })).status).toBe(401);
    expect((await s.fetch(`/api/packages/${org}/maven/org/secret/thing/maven-metadata.xml`, { headers: bob.h })).status).toBe(401);
    expect((await put(secret.replace('thing-1.0.jar', 'other.jar'), 'x', bob.h)).status).toBe(401);
  });

  test('bad paths are 400; unknown packages 404', async () => {
    for (const bad of ['x.jar', 'a/x.jar', 'a/1.0/x.jar', 'a/b:c/1.0/x.jar', 'a/b/1*0/x.jar', 'a/b/../1.0/x.jar', 'a/b//1.0/x.jar', 'a/b/1.0/']) {
      const res = await put(`/api/packages/${alice.name}/maven/${bad}`, 'x');
      expect(res.status, bad).toBe(400);
      expect(await res.text(), bad).toBe('request parameters are invalid');
    }
    expect((await s.fetch(`/api/packages/${alice.name}/maven/a/b%3Ac/maven-metadata.xml`)).status).toBe(400);
    const none = await s.fetch(`/api/packages/${alice.name}/maven/org/none/${uniq('x')}/maven-metadata.xml`);
    expect(none.status).toBe(404);
    expect(await none.text()).toBe('package does not exist');
    expect((await s.fetch(`/api/packages/${uniq('nobody')}/maven/a/b/1.0/b-1.0.jar`)).status).toBe(404);
  });

  test('a POM that does not parse is 400 and stores nothing', async () => {
    for (const [pom, reason] of [
      ['', 'EOF'],
      ['<?xml version="1.0"?><notaproject/>', 'expected element type <project> but have <notaproject>'],
      ['<project><groupId>g</artifactId></project>', 'element <groupId> closed by </artifactId>'],
      ['<project><groupId>g&bogus;</groupId></project>', 'invalid character entity &bogus;'],
      ['<project><groupId>g</groupId>', 'unexpected EOF'],
    ] as const) {
      const res = await put(`/api/packages/${alice.name}/maven/org/badpom/thing/1.0/thing-1.0.pom`, pom);
      expect(res.status, pom).toBe(400);
      expect(await res.text(), pom).toContain(reason);
    }
    expect(await db().selectFrom('package').select('id').where('name', '=', 'org.badpom:thing').execute()).toHaveLength(0);
  });

  test('a file past LIMIT_SIZE_MAVEN is 403 and leaves no package nor blob', async () => {
    const big = randomBytes(LIMIT + 1);
    const res = await put(`/api/packages/${alice.name}/maven/org/big/thing/1.0/thing-1.0.jar`, big);
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('maximum allowed package type size exceeded');
    expect(await db().selectFrom('package').select('id').where('name', '=', 'org.big:thing').execute()).toHaveLength(0);
    expect(existsSync(blobPath(hash('sha256', big)))).toBe(false);
    expect((await put(`/api/packages/${alice.name}/maven/org/big/thing/1.0/thing-1.0.jar`, randomBytes(LIMIT))).status).toBe(201);
  });
});
