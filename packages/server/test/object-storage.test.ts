/**
 * An installation whose files live in S3-compatible object storage (`[storage] STORAGE_TYPE = minio`, against the
 * SeaweedFS `.ci/run` starts; skipped, saying why, without it): attachments (with ranges), release assets, user and
 * repository avatars and package files go to the bucket and come back; `SERVE_DIRECT` redirects downloads to a
 * presigned URL a client follows; and when the storage is gone (a closed port) or silent (a port that never answers),
 * uploads answer 503 and leave no row, downloads 503 rather than hang, and all works again once it is back.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { attachmentBlobKey, identiconPng, packageBlobKey } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { FaultProxy, S3_SKIP_REASON, TEST_BUCKET, TEST_S3, s3Storage, testS3Client } from '../../../test/support/s3';
import { account, json, uniq, type Account } from './helpers';

const SKIP = S3_SKIP_REASON !== undefined;
const because = S3_SKIP_REASON ? ` (skipped: ${S3_SKIP_REASON})` : '';

function pngOf(seed: string): Buffer {
  return Buffer.from(identiconPng(createHash('md5').update(seed).digest('hex')));
}

function form(name: string, content: Uint8Array | string): FormData {
  const data = new FormData();
  data.append('attachment', new Blob([content]), name);
  return data;
}

/** An npm publish document for `tarball` (any bytes: the registry checks them against the integrity only). */
function npmDocument(name: string, version: string, tarball: Buffer) {
  const file = `${name}-${version}.tgz`;
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  return {
    _id: name,
    name,
    'dist-tags': { latest: version },
    versions: { [version]: { name, version, dist: { integrity, shasum: createHash('sha1').update(tarball).digest('hex'), tarball: `http://x/${file}` } } },
    _attachments: { [file]: { content_type: 'application/octet-stream', data: tarball.toString('base64'), length: tarball.length } },
  };
}

/** What one account made on a server: a repository with a commit, an issue and a release. */
interface Fixture {
  who: Account;
  repo: string;
  issue: number;
  release: number;
}

async function fixture(s: TestServer, prefix: string, options: { private?: boolean } = {}): Promise<Fixture> {
  const who = await account(s, prefix);
  const name = uniq('repo');
  expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true, private: options.private ?? false }, who.h))).status).toBe(201);
  const repo = `${who.name}/${name}`;
  const issue = await json(await s.fetch(`/api/v1/repos/${repo}/issues`, jsonInit('POST', { title: 'files' }, who.h)));
  const release = await json(await s.fetch(`/api/v1/repos/${repo}/releases`, jsonInit('POST', { tag_name: 'v1.0', name: 'one' }, who.h)));
  expect(release.id).toBeGreaterThan(0);
  return { who, repo, issue: issue.number, release: release.id };
}

const uploadIssueFile = (s: TestServer, f: Fixture, name: string, content: Uint8Array | string) =>
  s.fetch(`/api/v1/repos/${f.repo}/issues/${f.issue}/assets`, { method: 'POST', headers: f.who.h, body: form(name, content) });
const uploadReleaseFile = (s: TestServer, f: Fixture, name: string, content: Uint8Array | string) =>
  s.fetch(`/api/v1/repos/${f.repo}/releases/${f.release}/assets?name=${name}`, { method: 'POST', headers: f.who.h, body: form(name, content) });
const issueFiles = async (s: TestServer, f: Fixture) => json<{ uuid: string }[]>(await s.fetch(`/api/v1/repos/${f.repo}/issues/${f.issue}/assets`, { headers: f.who.h }));
const releaseFiles = async (s: TestServer, f: Fixture) => json<{ uuid: string }[]>(await s.fetch(`/api/v1/repos/${f.repo}/releases/${f.release}/assets`, { headers: f.who.h }));
const putGeneric = (s: TestServer, f: Fixture, pkg: string, version: string, file: string, body: Uint8Array | string) =>
  s.fetch(`/api/packages/${f.who.name}/generic/${pkg}/${version}/${file}`, { method: 'PUT', headers: f.who.h, body });
const userAvatarUrl = async (s: TestServer, f: Fixture): Promise<string> => (await json(await s.fetch('/api/v1/user', { headers: f.who.h }))).avatar_url;
const repoAvatarUrl = async (s: TestServer, f: Fixture): Promise<string> => (await json(await s.fetch(`/api/v1/repos/${f.repo}`, { headers: f.who.h }))).avatar_url;

describe.skipIf(SKIP)(`an installation on object storage${because}`, () => {
  let s: TestServer;
  let f: Fixture;
  let client: S3Client;
  let base: string;

  const objectExists = async (key: string) =>
    client.send(new HeadObjectCommand({ Bucket: TEST_BUCKET, Key: key })).then(
      () => true,
      (error: { $metadata?: { httpStatusCode?: number } }) => {
        if (error.$metadata?.httpStatusCode === 404) return false;
        throw error;
      },
    );

  beforeAll(async () => {
    const storage = s3Storage();
    base = storage.MINIO_BASE_PATH;
    s = await startTestServer({ storage });
    client = testS3Client();
    f = await fixture(s, 'objects');
  });
  afterAll(async () => {
    client?.destroy();
    await s?.cleanup();
  });

  test('an issue attachment goes to the bucket and comes back whole and in ranges; deleting it removes the object', async () => {
    const content = randomBytes(300_000);
    const res = await uploadIssueFile(s, f, 'data.zip', content);
    expect(res.status).toBe(201);
    const attachment = await json(res);
    const key = `${base}attachments/${attachmentBlobKey(attachment.uuid)}`;
    expect(await objectExists(key)).toBe(true);
    // Nothing on local disk.
    expect(existsSync(path.join(s.host.settings.server.APP_DATA_PATH, 'attachments'))).toBe(false);

    const whole = await fetch(attachment.browser_download_url, { headers: f.who.h });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(content.length));
    expect(Buffer.from(await whole.arrayBuffer()).equals(content)).toBe(true);

    const part = await fetch(attachment.browser_download_url, { headers: { ...f.who.h, range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${content.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(content.subarray(1000, 2000))).toBe(true);
    const tail = await fetch(attachment.browser_download_url, { headers: { ...f.who.h, range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(content.subarray(content.length - 10))).toBe(true);

    const removed = await s.fetch(`/api/v1/repos/${f.repo}/issues/${f.issue}/assets/${attachment.id}`, { method: 'DELETE', headers: f.who.h });
    expect(removed.status).toBe(204);
    expect(await objectExists(key)).toBe(false);
    expect((await fetch(attachment.browser_download_url, { headers: f.who.h })).status).toBe(404);
  });

  test('a release asset is stored in the bucket and downloaded from it', async () => {
    const res = await uploadReleaseFile(s, f, 'notes.txt', 'release notes, stored remotely');
    expect(res.status).toBe(201);
    const asset = await json(res);
    expect(await objectExists(`${base}attachments/${attachmentBlobKey(asset.uuid)}`)).toBe(true);
    const download = await fetch(asset.browser_download_url, { headers: f.who.h });
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('release notes, stored remotely');
  });

  test('user and repository avatars are objects under avatars/ and repo-avatars/, served and removed', async () => {
    const image = pngOf('user');
    expect((await s.fetch('/api/v1/user/avatar', jsonInit('POST', { image: image.toString('base64') }, f.who.h))).status).toBe(204);
    const hash = createHash('sha256').update(image).digest('hex');
    const url = await userAvatarUrl(s, f);
    expect(url).toBe(`${s.url}avatars/${hash}`);
    expect(await objectExists(`${base}avatars/${hash}`)).toBe(true);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
    expect((await s.fetch('/api/v1/user/avatar', { method: 'DELETE', headers: f.who.h })).status).toBe(204);
    expect(await objectExists(`${base}avatars/${hash}`)).toBe(false);
    expect((await fetch(url)).status).toBe(404);

    const repoImage = pngOf('repo');
    expect((await s.fetch(`/api/v1/repos/${f.repo}/avatar`, jsonInit('POST', { image: repoImage.toString('base64') }, f.who.h))).status).toBe(204);
    const repoUrl = await repoAvatarUrl(s, f);
    const name = repoUrl.split('/').pop()!;
    expect(await objectExists(`${base}repo-avatars/${name}`)).toBe(true);
    expect(Buffer.from(await (await fetch(repoUrl)).arrayBuffer()).equals(repoImage)).toBe(true);
    expect((await s.fetch(`/api/v1/repos/${f.repo}/avatar`, { method: 'DELETE', headers: f.who.h })).status).toBe(204);
    expect(await objectExists(`${base}repo-avatars/${name}`)).toBe(false);
  });

  test('generic and npm package files are objects named by their sha256, downloaded whole and in ranges', async () => {
    const content = randomBytes(70_000);
    expect((await putGeneric(s, f, 'tool', '1.0.0', 'tool.bin', content)).status).toBe(201);
    const sha = createHash('sha256').update(content).digest('hex');
    expect(await objectExists(`${base}packages/${packageBlobKey(sha)}`)).toBe(true);
    const url = `/api/packages/${f.who.name}/generic/tool/1.0.0/tool.bin`;
    const whole = await s.fetch(url, { headers: f.who.h });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(content)).toBe(true);
    const part = await s.fetch(url, { headers: { ...f.who.h, range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(content.subarray(10, 20))).toBe(true);

    const tarball = randomBytes(500);
    const name = uniq('pkg');
    expect((await s.fetch(`/api/packages/${f.who.name}/npm/${name}`, jsonInit('PUT', npmDocument(name, '1.0.0', tarball), f.who.h))).status).toBe(201);
    const tgz = await s.fetch(`/api/packages/${f.who.name}/npm/${name}/-/1.0.0/${name}-1.0.0.tgz`, { headers: f.who.h });
    expect(tgz.status).toBe(200);
    expect(Buffer.from(await tgz.arrayBuffer()).equals(tarball)).toBe(true);

    expect((await s.fetch(url, { method: 'DELETE', headers: f.who.h })).status).toBe(204);
    expect(await objectExists(`${base}packages/${packageBlobKey(sha)}`)).toBe(false);
  });

  test('the host\'s start-up sweep leaves the bucket\'s blobs that rows name', async () => {
    const res = await uploadIssueFile(s, f, 'kept.txt', 'kept');
    const attachment = await json(res);
    expect(await s.host.attachments.reconcile()).toBe(0);
    const listed = await client.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET, Prefix: `${base}attachments/` }));
    expect(listed.Contents?.map((object) => object.Key)).toContain(`${base}attachments/${attachmentBlobKey(attachment.uuid)}`);
  });
});

describe.skipIf(SKIP)(`SERVE_DIRECT${because}`, () => {
  let s: TestServer;
  let f: Fixture;

  beforeAll(async () => {
    s = await startTestServer({ storage: s3Storage({ serveDirect: true }) });
    f = await fixture(s, 'direct', { private: true });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('an attachment download redirects to a presigned URL of the object, which a client follows; it counts', async () => {
    const content = randomBytes(5000);
    const attachment = await json(await uploadIssueFile(s, f, 'report.zip', content));
    const redirect = await fetch(attachment.browser_download_url, { headers: f.who.h, redirect: 'manual' });
    expect(redirect.status).toBe(303);
    const location = redirect.headers.get('location')!;
    expect(location.startsWith(`http://${TEST_S3.endpoint}/`)).toBe(true);
    expect(location).toContain('X-Amz-Signature=');
    const followed = await fetch(attachment.browser_download_url, { headers: f.who.h });
    expect(followed.status).toBe(200);
    expect(followed.url).not.toBe(attachment.browser_download_url);
    expect(followed.headers.get('content-disposition')).toBe('attachment; filename="report.zip"');
    expect(Buffer.from(await followed.arrayBuffer()).equals(content)).toBe(true);
    const counted = await json(await s.fetch(`/api/v1/repos/${f.repo}/issues/${f.issue}/assets/${attachment.id}`, { headers: f.who.h }));
    expect(counted.download_count).toBe(2);
    // Who may not read it (the repository is private) is not sent anywhere.
    expect((await fetch(attachment.browser_download_url, { redirect: 'manual' })).status).toBe(404);
  });

  test('a package file download redirects too', async () => {
    expect((await putGeneric(s, f, 'direct', '2.0.0', 'file.txt', 'served by the bucket')).status).toBe(201);
    const url = `/api/packages/${f.who.name}/generic/direct/2.0.0/file.txt`;
    const redirect = await s.fetch(url, { headers: f.who.h, redirect: 'manual' });
    expect(redirect.status).toBe(303);
    const followed = await s.fetch(url, { headers: f.who.h });
    expect(followed.status).toBe(200);
    expect(await followed.text()).toBe('served by the bucket');
  });
});

describe.skipIf(SKIP)(`object storage faults${because}`, () => {
  let s: TestServer;
  let f: Fixture;
  let proxy: FaultProxy;
  /** Stored while the storage answered. */
  let stored: { attachmentUrl: string; avatarUrl: string; packageUrl: string };

  beforeAll(async () => {
    proxy = await FaultProxy.start(TEST_S3.endpoint);
    s = await startTestServer({ storage: s3Storage({ endpoint: proxy.endpoint, connectTimeout: 2, requestTimeout: 2 }) });
    f = await fixture(s, 'faults');
    const attachment = await json(await uploadIssueFile(s, f, 'before.txt', 'stored before'));
    expect((await s.fetch('/api/v1/user/avatar', jsonInit('POST', { image: pngOf('faults').toString('base64') }, f.who.h))).status).toBe(204);
    expect((await putGeneric(s, f, 'kept', '1.0.0', 'kept.txt', 'kept')).status).toBe(201);
    stored = { attachmentUrl: attachment.browser_download_url, avatarUrl: await userAvatarUrl(s, f), packageUrl: `/api/packages/${f.who.name}/generic/kept/1.0.0/kept.txt` };
  });
  afterAll(async () => {
    await s?.cleanup();
    await proxy?.close();
  });

  /** Every upload fails with 503 (Retry-After) and leaves no row; every download answers 503. */
  async function expectOutage(): Promise<void> {
    const before = { issue: (await issueFiles(s, f)).length, release: (await releaseFiles(s, f)).length, avatar: await userAvatarUrl(s, f), repoAvatar: await repoAvatarUrl(s, f) };
    const npmName = uniq('lostpkg');
    // At once: each waits out the timeouts on its own.
    const [issueUpload, releaseUpload, generic, npm, avatar, repoAvatar, attachment, avatarImage, packageFile] = await Promise.all([
      uploadIssueFile(s, f, 'lost.txt', 'never stored'),
      uploadReleaseFile(s, f, 'lost.txt', 'never stored'),
      putGeneric(s, f, 'lost', '1.0.0', 'lost.bin', 'never stored'),
      s.fetch(`/api/packages/${f.who.name}/npm/${npmName}`, jsonInit('PUT', npmDocument(npmName, '1.0.0', randomBytes(100)), f.who.h)),
      s.fetch('/api/v1/user/avatar', jsonInit('POST', { image: pngOf(uniq()).toString('base64') }, f.who.h)),
      s.fetch(`/api/v1/repos/${f.repo}/avatar`, jsonInit('POST', { image: pngOf(uniq()).toString('base64') }, f.who.h)),
      fetch(stored.attachmentUrl, { headers: f.who.h }),
      fetch(stored.avatarUrl),
      s.fetch(stored.packageUrl, { headers: f.who.h }),
    ]);

    expect(issueUpload.status).toBe(503);
    expect(Number(issueUpload.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await json(issueUpload)).message).toMatch(/^attachments storage (is unreachable|did not answer in time)/);
    expect((await issueFiles(s, f)).length).toBe(before.issue);

    expect(releaseUpload.status).toBe(503);
    expect((await releaseFiles(s, f)).length).toBe(before.release);

    expect(generic.status).toBe(503);
    expect(generic.headers.get('retry-after')).not.toBeNull();
    expect(await generic.text()).toMatch(/^packages storage (is unreachable|did not answer in time)/);
    expect((await s.fetch(`/api/v1/packages/${f.who.name}/generic/lost/1.0.0`, { headers: f.who.h })).status).toBe(404);

    expect(npm.status).toBe(503);
    expect((await s.fetch(`/api/packages/${f.who.name}/npm/${npmName}`, { headers: f.who.h })).status).toBe(404);

    expect(avatar.status).toBe(503);
    expect(await userAvatarUrl(s, f)).toBe(before.avatar);
    expect(repoAvatar.status).toBe(503);
    expect(await repoAvatarUrl(s, f)).toBe(before.repoAvatar);

    expect(attachment.status).toBe(503);
    expect(attachment.headers.get('retry-after')).not.toBeNull();
    expect(avatarImage.status).toBe(503);
    expect(packageFile.status).toBe(503);
  }

  /** Back to normal without a restart. */
  async function expectRecovered(): Promise<void> {
    await proxy.pass();
    const attachment = await fetch(stored.attachmentUrl, { headers: f.who.h });
    expect(attachment.status).toBe(200);
    expect(await attachment.text()).toBe('stored before');
    expect((await uploadIssueFile(s, f, 'after.txt', 'stored after')).status).toBe(201);
  }

  test('the storage\'s port closed: uploads 503 and no row, downloads 503; then it comes back', async () => {
    await proxy.refuse();
    await expectOutage();
    await expectRecovered();
  }, 180_000);

  test('a storage that accepts connections and never answers: 503 once the timeouts pass, not a hang', async () => {
    await proxy.hang();
    await expectOutage();
    await expectRecovered();
  }, 300_000);
});

describe('local storage keeps the folders and names avatars always had', () => {
  let s: TestServer;
  let f: Fixture;

  beforeAll(async () => {
    s = await startTestServer({ picture: { AVATAR_UPLOAD_PATH: 'legacy/avatars' }, 'repo-avatar': { PATH: 'legacy/repo-avatars' } });
    f = await fixture(s, 'legacy');
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('[picture] AVATAR_UPLOAD_PATH and [repo-avatar] PATH, relative to the work path, hold the files by hash', async () => {
    const image = pngOf('legacy-user');
    expect((await s.fetch('/api/v1/user/avatar', jsonInit('POST', { image: image.toString('base64') }, f.who.h))).status).toBe(204);
    const hash = createHash('sha256').update(image).digest('hex');
    expect(existsSync(path.join(s.workPath, 'legacy', 'avatars', hash))).toBe(true);
    expect(s.host.userAvatars.folder).toBe(path.join(s.workPath, 'legacy', 'avatars'));

    expect((await s.fetch(`/api/v1/repos/${f.repo}/avatar`, jsonInit('POST', { image: pngOf('legacy-repo').toString('base64') }, f.who.h))).status).toBe(204);
    const name = (await repoAvatarUrl(s, f)).split('/').pop()!;
    expect(existsSync(path.join(s.workPath, 'legacy', 'repo-avatars', name))).toBe(true);
    expect(Buffer.from(await (await fetch(`${s.url}repo-avatars/${name}`)).arrayBuffer()).equals(pngOf('legacy-repo'))).toBe(true);
  });
});
