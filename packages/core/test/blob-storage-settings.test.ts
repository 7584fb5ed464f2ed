/**
 * Where each kind of file lives, read from the settings as Forgejo reads them (`[storage]`, each kind's section,
 * `[storage.NAME]`), with RepoHost's older keys keeping the folders they always named; and what start-up does with
 * object storage: a missing bucket is made, an unreachable or silent storage stops the start with one line.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { ConfigError, RepoHost, loadSettings, resolveBlobStorages, type LoadSettingsOptions, type ObjectStorageConfig, type StorageConfig } from '@repohost/core';
import { openTestHost } from '@repohost/test-support';
import { S3_SKIP_REASON, freshBucket, s3Storage, testS3Client } from '../../../test/support/s3';

const WORK = '/srv/forge';
const DATA = '/srv/forge/data';

function resolve(configText: string, options: Omit<LoadSettingsOptions, 'configText'> = {}): Record<string, StorageConfig> {
  return resolveBlobStorages(loadSettings({ workPath: WORK, configText, ...options }));
}

function local(configText: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(resolve(configText)).map(([kind, config]) => {
      expect(config.type, kind).toBe('local');
      return [kind, config.type === 'local' ? config.path : ''];
    }),
  );
}

function object(config: StorageConfig | undefined): ObjectStorageConfig {
  expect(config?.type).toBe('minio');
  return config as ObjectStorageConfig;
}

describe('local storage paths', () => {
  test('by default each kind has its folder in the data folder, named as Forgejo names it', () => {
    expect(local('')).toEqual({
      attachments: `${DATA}/attachments`,
      avatars: `${DATA}/avatars`,
      'repo-avatars': `${DATA}/repo-avatars`,
      packages: `${DATA}/packages`,
      lfs: `${DATA}/lfs`,
      actions_artifacts: `${DATA}/actions_artifacts`,
    });
  });

  test('[storage] PATH holds every kind\'s folder; relative to the data folder', () => {
    expect(local('[storage]\nSTORAGE_TYPE = local\nPATH = /data/gitea\n')).toMatchObject({ attachments: '/data/gitea/attachments', avatars: '/data/gitea/avatars', lfs: '/data/gitea/lfs' });
    expect(local('[storage]\nPATH = storages\n')).toMatchObject({ packages: `${DATA}/storages/packages`, 'repo-avatars': `${DATA}/storages/repo-avatars` });
  });

  test('a kind\'s PATH replaces its folder: absolute, or relative to [storage] PATH', () => {
    const paths = local('[storage]\nPATH = /data/gitea\n[packages]\nPATH = /elsewhere/pkgs\n[attachment]\nPATH = files\n[actions.artifacts]\n');
    expect(paths).toMatchObject({ packages: '/elsewhere/pkgs', attachments: '/data/gitea/files', actions_artifacts: '/data/gitea/actions_artifacts', lfs: '/data/gitea/lfs' });
  });

  test('[storage.<kind>] with a path is that kind\'s; the kind\'s own PATH still wins', () => {
    expect(local('[storage.lfs]\nSTORAGE_TYPE = local\nPATH = /big/lfs\n')).toMatchObject({ lfs: '/big/lfs', attachments: `${DATA}/attachments` });
    expect(local('[storage.lfs]\nPATH = lfs-objects\n')).toMatchObject({ lfs: `${DATA}/lfs-objects` });
    expect(local('[storage.lfs]\nPATH = /big/lfs\n[lfs]\nPATH = /bigger/lfs\n')).toMatchObject({ lfs: '/bigger/lfs' });
    // Neither type nor path: the defaults.
    expect(local('[storage.lfs]\n')).toMatchObject({ lfs: `${DATA}/lfs` });
  });

  test('a kind that says STORAGE_TYPE = local itself takes its PATH from the data folder', () => {
    expect(local('[packages]\nSTORAGE_TYPE = local\nPATH = pkgs\n')).toMatchObject({ packages: `${DATA}/pkgs` });
  });

  test('RepoHost\'s older keys keep their folders: AVATAR_UPLOAD_PATH and [repo-avatar] PATH from the work path', () => {
    expect(local('[picture]\nAVATAR_UPLOAD_PATH = custom/avatars\n[repo-avatar]\nPATH = custom/repo-avatars\n')).toMatchObject({
      avatars: `${WORK}/custom/avatars`,
      'repo-avatars': `${WORK}/custom/repo-avatars`,
    });
    expect(local('[picture]\nAVATAR_UPLOAD_PATH = /abs/avatars\n')).toMatchObject({ avatars: '/abs/avatars' });
    // Forgejo's own keys: [avatar] PATH and REPOSITORY_AVATAR_UPLOAD_PATH, from the data folder.
    expect(local('[avatar]\nPATH = av\n[picture]\nREPOSITORY_AVATAR_UPLOAD_PATH = rav\n')).toMatchObject({ avatars: `${DATA}/av`, 'repo-avatars': `${DATA}/rav` });
    // The deprecated [server] LFS_CONTENT_PATH is [lfs] PATH's default.
    expect(local('[server]\nLFS_CONTENT_PATH = /old/lfs\n')).toMatchObject({ lfs: '/old/lfs' });
  });
});

describe('object storage', () => {
  const minio = '[storage]\nSTORAGE_TYPE = minio\nMINIO_ENDPOINT = s3.example.org:9000\nMINIO_ACCESS_KEY_ID = key\nMINIO_SECRET_ACCESS_KEY = secret\nMINIO_BUCKET = forge\n';

  test('[storage] on minio puts every kind in its bucket under a prefix named after the kind', () => {
    const all = resolve(minio);
    expect(object(all.attachments)).toEqual({
      type: 'minio',
      section: 'storage',
      endpoint: 's3.example.org:9000',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      bucket: 'forge',
      bucketLookup: 'auto',
      location: 'us-east-1',
      basePath: 'attachments/',
      useSSL: false,
      insecureSkipVerify: false,
      serveDirect: false,
      connectTimeoutMs: 5000,
      requestTimeoutMs: 30000,
    });
    expect(['avatars', 'repo-avatars', 'packages', 'lfs', 'actions_artifacts'].map((kind) => object(all[kind]).basePath)).toEqual([
      'avatars/',
      'repo-avatars/',
      'packages/',
      'lfs/',
      'actions_artifacts/',
    ]);
  });

  test('Forgejo\'s defaults when [storage] only says minio', () => {
    const packages = object(resolve('[storage]\nSTORAGE_TYPE = minio\n').packages);
    expect(packages).toMatchObject({ endpoint: 'localhost:9000', bucket: 'gitea', location: 'us-east-1', basePath: 'packages/', accessKeyId: '' });
  });

  test('MINIO_BASE_PATH of [storage] prefixes every kind; a kind may set its own, its bucket and SERVE_DIRECT', () => {
    const all = resolve(`${minio}MINIO_BASE_PATH = /prefix\n[lfs]\nMINIO_BASE_PATH = /lfs\n[attachment]\nMINIO_BUCKET = forge-attachments\nSERVE_DIRECT = true\n`);
    expect(object(all['repo-avatars']).basePath).toBe('prefix/repo-avatars/');
    expect(object(all.lfs).basePath).toBe('lfs/');
    expect(object(all.attachments)).toMatchObject({ bucket: 'forge-attachments', basePath: 'prefix/attachments/', serveDirect: true });
    expect(object(all.packages)).toMatchObject({ bucket: 'forge', serveDirect: false });
  });

  test('[storage.NAME] inherits [storage]\'s keys; a kind names it with STORAGE_TYPE = NAME', () => {
    const all = resolve(`${minio}MINIO_BASE_PATH = /prefix\n[storage.lfs]\nMINIO_BASE_PATH = /big\n`);
    expect(object(all.lfs)).toMatchObject({ accessKeyId: 'key', bucket: 'forge', basePath: 'big/' });
    const named = resolve('[attachment]\nSTORAGE_TYPE = shared\n[storage.shared]\nSTORAGE_TYPE = minio\nMINIO_BUCKET = shared-bucket\nMINIO_USE_SSL = true\n');
    expect(object(named.attachments)).toMatchObject({ section: 'storage.shared', bucket: 'shared-bucket', basePath: 'attachments/', useSSL: true });
    expect(named.packages?.type).toBe('local');
  });

  test('avatars follow [picture] AVATAR_STORAGE_TYPE, repository avatars REPOSITORY_AVATAR_STORAGE_TYPE', () => {
    const all = resolve('[picture]\nAVATAR_STORAGE_TYPE = minio\n[storage.minio]\nMINIO_ENDPOINT = 10.0.0.5:9000\nMINIO_BUCKET = pictures\n');
    expect(object(all.avatars)).toMatchObject({ endpoint: '10.0.0.5:9000', bucket: 'pictures', basePath: 'avatars/' });
    expect(all['repo-avatars']?.type).toBe('local');
  });

  test('a kind that says minio itself holds its own keys (the rest from [storage])', () => {
    const all = resolve('[storage]\nMINIO_ACCESS_KEY_ID = shared-key\n[packages]\nSTORAGE_TYPE = minio\nMINIO_ENDPOINT = [::1]:9000\nMINIO_BUCKET = pkgs\nSERVE_DIRECT = yes\n');
    expect(object(all.packages)).toMatchObject({ section: 'packages', endpoint: '[::1]:9000', bucket: 'pkgs', accessKeyId: 'shared-key', basePath: 'packages/', serveDirect: true });
    expect(all.attachments?.type).toBe('local');
  });

  test('the environment sets them as app.ini does (FORGEJO__STORAGE__…, FORGEJO__STORAGE_0X2E_LFS__…)', () => {
    const all = resolveBlobStorages(
      loadSettings({
        workPath: WORK,
        env: {
          FORGEJO__STORAGE__STORAGE_TYPE: 'minio',
          FORGEJO__STORAGE__MINIO_ENDPOINT: 'minio:9000',
          FORGEJO__STORAGE__MINIO_REQUEST_TIMEOUT: '7',
          FORGEJO__STORAGE_0X2E_LFS__MINIO_BUCKET: 'lfs-bucket',
        },
      }),
    );
    expect(object(all.lfs)).toMatchObject({ endpoint: 'minio:9000', bucket: 'lfs-bucket', requestTimeoutMs: 7000 });
    expect(object(all.attachments)).toMatchObject({ bucket: 'gitea' });
  });

  test('settings that make no sense are refused at once, naming the key', () => {
    const refused = (text: string) => {
      try {
        resolve(text);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error(`accepted: ${text}`);
    };
    expect(refused('[attachment]\nSTORAGE_TYPE = my_storage\n')).toBe('[attachment] STORAGE_TYPE: "my_storage" is neither local, minio nor a [storage.my_storage] section');
    expect(refused('[attachment]\nSTORAGE_TYPE = my_storage\n[storage.my_storage]\nPATH = x\n')).toBe('[storage.my_storage] STORAGE_TYPE: missing (local or minio)');
    expect(refused('[attachment]\nSTORAGE_TYPE = my_storage\n[storage.my_storage]\nSTORAGE_TYPE = ftp\n')).toBe('[storage.my_storage] STORAGE_TYPE: "ftp" is not supported (local, minio)');
    expect(refused('[picture]\nAVATAR_STORAGE_TYPE = nowhere\n')).toMatch(/^\[picture\] AVATAR_STORAGE_TYPE: "nowhere"/);
    expect(refused('[storage]\nSTORAGE_TYPE = cloud\n')).toMatch(/^\[storage\] STORAGE_TYPE: "cloud" is not supported/);
    expect(refused(`${minio}[attachment]\nSERVE_DIRECT = maybe\n`)).toBe('[attachment] SERVE_DIRECT: "maybe" is not a boolean');
    expect(refused('[storage]\nSTORAGE_TYPE = minio\nMINIO_ENDPOINT = http://s3.example.org\n')).toMatch(/^\[storage\] MINIO_ENDPOINT: "http:\/\/s3\.example\.org" is not host:port/);
    expect(refused('[storage]\nSTORAGE_TYPE = minio\nMINIO_BUCKET = Not_A_Bucket\n')).toMatch(/"Not_A_Bucket" is not a bucket name/);
    expect(refused('[storage]\nSTORAGE_TYPE = minio\nMINIO_BUCKET_LOOKUP = sideways\n')).toMatch(/MINIO_BUCKET_LOOKUP: "sideways"/);
    expect(refused('[storage]\nSTORAGE_TYPE = minio\n[packages]\nMINIO_BASE_PATH = ../escape\n')).toMatch(/may not contain "\.\."/);
    expect(refused('[storage.lfs]\nSTORAGE_TYPE = minio\nMINIO_REQUEST_TIMEOUT = 0\n')).toBe('[storage.lfs] MINIO_REQUEST_TIMEOUT: must be a whole number of seconds, at least 1');
    // The table's own checks: [storage] keys are typed.
    expect(() => loadSettings({ workPath: WORK, configText: '[storage]\nMINIO_USE_SSL = often\n' })).toThrow(ConfigError);
  });
});

/** A TCP server that accepts connections and never answers. */
async function silentServer(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.resume();
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `127.0.0.1:${(server.address() as { port: number }).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

describe('start-up with object storage', () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  async function openWith(storage: Record<string, unknown>): Promise<unknown> {
    const workPath = await mkdtemp(path.join(tmpdir(), 'repohost-s3-start-'));
    folders.push(workPath);
    const settings = loadSettings({ workPath, overrides: { database: { PATH: ':memory:' }, security: { SECRET_KEY: 'k'.repeat(32) }, storage } });
    try {
      const host = await RepoHost.open({ settings });
      await host.close();
      return undefined;
    } catch (error) {
      return error;
    }
  }

  test('a storage on a closed port stops the start with one line naming the space, bucket and reason', async () => {
    const endpoint = await closedPort();
    const error = await openWith({ STORAGE_TYPE: 'minio', MINIO_ENDPOINT: endpoint, MINIO_ACCESS_KEY_ID: 'k', MINIO_SECRET_ACCESS_KEY: 's', MINIO_CONNECT_TIMEOUT: 2, MINIO_REQUEST_TIMEOUT: 2 });
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(new RegExp(`^\\[storage\\] object storage of attachments: bucket "gitea" at ${endpoint.replaceAll('.', '\\.')}: .*ECONNREFUSED`));
  });

  test('a storage that accepts connections and never answers stops the start once the timeouts pass', async () => {
    const silent = await silentServer();
    try {
      const error = await openWith({ STORAGE_TYPE: 'minio', MINIO_ENDPOINT: silent.endpoint, MINIO_ACCESS_KEY_ID: 'k', MINIO_SECRET_ACCESS_KEY: 's', MINIO_CONNECT_TIMEOUT: 1, MINIO_REQUEST_TIMEOUT: 1 });
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(
        /^\[storage\] object storage of attachments: bucket "gitea" at 127\.0\.0\.1:\d+: no answer within the timeouts \(MINIO_CONNECT_TIMEOUT 1 s, MINIO_REQUEST_TIMEOUT 1 s\)$/,
      );
    } finally {
      await silent.close();
    }
  });

  test('settings that do not resolve stop the start', async () => {
    expect(await openWith({ STORAGE_TYPE: 'tape' })).toBeInstanceOf(ConfigError);
  });

  test.skipIf(S3_SKIP_REASON !== undefined)(`a bucket that does not exist is made at start${S3_SKIP_REASON ? ` (skipped: ${S3_SKIP_REASON})` : ''}`, async () => {
    const bucket = freshBucket();
    const client = testS3Client();
    try {
      await expect(client.send(new HeadBucketCommand({ Bucket: bucket }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
      const opened = await openTestHost({ storage: s3Storage({ bucket }) });
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
        // A second host on the same bucket finds it there.
        const second = await openTestHost({ storage: s3Storage({ bucket }) });
        await second.cleanup();
      } finally {
        await opened.cleanup();
      }
    } finally {
      client.destroy();
    }
  });

  test.skipIf(S3_SKIP_REASON !== undefined)(`wrong keys stop the start with the storage's refusal${S3_SKIP_REASON ? ` (skipped: ${S3_SKIP_REASON})` : ''}`, async () => {
    const storage = { ...s3Storage(), MINIO_SECRET_ACCESS_KEY: 'not-the-secret' };
    const error = await openWith(storage);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^\[storage\] object storage of attachments: bucket "[a-z0-9-]+" at [^:]+:\d+: .*\(HTTP 403\)$/);
  });
});
