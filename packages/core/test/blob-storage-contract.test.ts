/**
 * One contract for every blob storage, run against a local folder and against a real S3-compatible server (the
 * SeaweedFS `.ci/run` starts; skipped, saying so, without one): what is written is read back whole or in ranges,
 * a write is all-or-nothing (a limit passed or a source failing midway leaves nothing, no unfinished multipart upload
 * either), listing pages through every key under a prefix, and `cleanup` removes what interrupted writes left aside.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { BlobTooLargeError, LocalBlobStorage, ObjectBlobStorage, loadSettings, resolveBlobStorages, type BlobStorage } from '@repohost/core';
import { S3_SKIP_REASON, s3Storage, testS3Client } from '../../../test/support/s3';

/** What the contract needs of a storage besides the interface: a way to leave a write aside, and to count those. */
interface Subject {
  storage: BlobStorage;
  /** Leaves what an interrupted write would (a temporary file, an unfinished multipart upload), aged `ageMs`. */
  leaveAside(ageMs: number): Promise<void>;
  /** How many of those are left. */
  leftAside(): Promise<number>;
  /** Stores an object no key could name, beside the blobs (a folder marker, a hidden file). */
  strayObject(): Promise<void>;
  close(): Promise<void>;
}

async function localSubject(): Promise<Subject> {
  const root = await mkdtemp(path.join(tmpdir(), 'repohost-blob-contract-'));
  const aside = path.join(root, '.tmp');
  return {
    storage: new LocalBlobStorage(root),
    async leaveAside(ageMs) {
      await mkdir(aside, { recursive: true });
      const file = path.join(aside, `left-${randomBytes(4).toString('hex')}`);
      await writeFile(file, 'half a blob');
      const when = new Date(Date.now() - ageMs);
      await utimes(file, when, when);
    },
    leftAside: async () => (await readdir(aside).catch(() => [])).length,
    strayObject: async () => writeFile(path.join(root, '.hidden'), 'not a blob'),
    close: () => rm(root, { recursive: true, force: true }),
  };
}

async function s3Subject(): Promise<Subject> {
  const settings = loadSettings({ workPath: tmpdir(), overrides: { storage: s3Storage({ serveDirect: true }) } });
  const config = resolveBlobStorages(settings).attachments;
  if (config.type !== 'minio') throw new Error('expected object storage');
  const storage = new ObjectBlobStorage(config, 'attachments');
  await storage.ensureBucket();
  const client: S3Client = testS3Client();
  const uploads = async () =>
    (await client.send(new ListMultipartUploadsCommand({ Bucket: config.bucket, Prefix: config.basePath }))).Uploads ?? [];
  return {
    storage,
    async leaveAside(ageMs) {
      // S3 says when an upload began; one begun now stands for a young one, and "older than 0" takes it.
      expect(ageMs === 0 || ageMs > 1000).toBe(true);
      await client.send(new CreateMultipartUploadCommand({ Bucket: config.bucket, Key: `${config.basePath}left/${randomBytes(4).toString('hex')}` }));
    },
    leftAside: async () => (await uploads()).length,
    strayObject: async () => {
      await client.send(new PutObjectCommand({ Bucket: config.bucket, Key: `${config.basePath}folder/`, Body: 'marker' }));
    },
    close: async () => {
      client.destroy();
      await storage.close();
    },
  };
}

async function* chunks(...parts: (string | Uint8Array)[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? Buffer.from(part) : part;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** The blob's size, its stream closed unread. */
async function sizeOf(storage: BlobStorage, key: string): Promise<number | undefined> {
  const blob = await storage.get(key);
  blob?.stream.destroy();
  return blob?.size;
}

async function bytesOf(storage: BlobStorage, key: string, range?: { start: number; end?: number }): Promise<Buffer | undefined> {
  const blob = await storage.get(key, range);
  return blob ? readAll(blob.stream) : undefined;
}

/** `size` bytes that differ from place to place (so a wrong offset shows), yielded in pieces of `piece`. */
function patterned(size: number): Buffer {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4) data.writeUInt32BE(i >>> 0, Math.min(i, size - 4));
  return data;
}

async function* piecesOf(data: Buffer, piece = 64 * 1024): AsyncIterable<Uint8Array> {
  for (let i = 0; i < data.length; i += piece) yield data.subarray(i, Math.min(data.length, i + piece));
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

const SUBJECTS: [string, () => Promise<Subject>, string | undefined][] = [
  ['local folder', localSubject, undefined],
  ['S3 (SeaweedFS)', s3Subject, S3_SKIP_REASON],
];

for (const [name, make, skip] of SUBJECTS) {
  describe.skipIf(skip !== undefined)(`blob storage contract: ${name}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let subject: Subject;
    let storage: BlobStorage;
    beforeAll(async () => {
      subject = await make();
      storage = subject.storage;
    });
    afterAll(async () => {
      await subject?.close();
    });
    afterEach(async () => {
      // No test leaves a write aside unless it means to (and cleans up after itself).
      expect(await subject.leftAside()).toBe(0);
    });

    test('put, get, exists, delete; a second put replaces the first', async () => {
      expect(await storage.exists('a/b/one')).toBe(false);
      expect(await storage.get('a/b/one')).toBeUndefined();
      const result = await storage.put('a/b/one', chunks('hello ', 'world'), { sha256: true });
      expect(result).toEqual({ size: 11, sha256: sha256('hello world') });
      expect(await storage.exists('a/b/one')).toBe(true);
      const blob = await storage.get('a/b/one');
      expect(blob?.size).toBe(11);
      expect(blob!.modifiedMs).toBeGreaterThan(Date.now() - 10 * 60_000);
      expect((await readAll(blob!.stream)).toString()).toBe('hello world');
      expect(await storage.put('a/b/one', chunks('replaced'))).toEqual({ size: 8 });
      expect((await bytesOf(storage, 'a/b/one'))?.toString()).toBe('replaced');
      await storage.delete('a/b/one');
      await storage.delete('a/b/one');
      expect(await storage.exists('a/b/one')).toBe(false);
      expect(await storage.get('a/b/one')).toBeUndefined();
    });

    test('a Node stream, a web stream and an empty source are sources too', async () => {
      await storage.put('node', Readable.from([Buffer.from('x'.repeat(100_000))]));
      expect(await sizeOf(storage, 'node')).toBe(100_000);
      await storage.put('web', new Blob(['web bytes']).stream() as unknown as AsyncIterable<Uint8Array>);
      expect((await bytesOf(storage, 'web'))?.toString()).toBe('web bytes');
      expect(await storage.put('empty', chunks(), { sha256: true })).toEqual({ size: 0, sha256: sha256('') });
      expect(await sizeOf(storage, 'empty')).toBe(0);
      expect(await bytesOf(storage, 'empty')).toEqual(Buffer.alloc(0));
    });

    test('ranges: the bytes asked for, the whole size reported, an end past the blob clamped', async () => {
      await storage.put('ranged', chunks('0123456789'));
      const part = await storage.get('ranged', { start: 2, end: 5 });
      expect(part?.size).toBe(10);
      expect((await readAll(part!.stream)).toString()).toBe('2345');
      expect((await bytesOf(storage, 'ranged', { start: 7 }))?.toString()).toBe('789');
      expect((await bytesOf(storage, 'ranged', { start: 8, end: 100 }))?.toString()).toBe('89');
      expect((await bytesOf(storage, 'ranged', { start: 9, end: 9 }))?.toString()).toBe('9');
      // Starting at the end: no bytes, the size still known.
      const none = await storage.get('ranged', { start: 10 });
      expect(none?.size).toBe(10);
      expect(await readAll(none!.stream)).toEqual(Buffer.alloc(0));
      expect(await storage.get('absent', { start: 0, end: 1 })).toBeUndefined();
    });

    test('a blob of several upload parts streams in and out whole, its hash computed on the way', async () => {
      const data = patterned(12 * 1024 * 1024 + 12345);
      const result = await storage.put('big/blob', piecesOf(data), { sha256: true, maxBytes: data.length });
      expect(result).toEqual({ size: data.length, sha256: sha256(data) });
      const whole = await bytesOf(storage, 'big/blob');
      expect(whole?.length).toBe(data.length);
      expect(whole!.equals(data)).toBe(true);
      // Across the first part's end (5 MiB).
      const start = 5 * 1024 * 1024 - 100;
      const range = await bytesOf(storage, 'big/blob', { start, end: start + 199 });
      expect(range!.equals(data.subarray(start, start + 200))).toBe(true);
      await storage.delete('big/blob');
    });

    test('past the limit the write stops: nothing stored, nothing left aside, the rest of the source unread', async () => {
      let pulled = 0;
      async function* endless(): AsyncIterable<Uint8Array> {
        for (;;) {
          pulled++;
          yield Buffer.alloc(1000);
        }
      }
      await expect(storage.put('limited', endless(), { maxBytes: 4500 })).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(pulled).toBe(5);
      expect(await storage.exists('limited')).toBe(false);
      // Exactly the limit is fine; the refusal is the server's 413 of its own.
      expect(await storage.put('limited', chunks(Buffer.alloc(4500)), { maxBytes: 4500 })).toEqual({ size: 4500 });
      await expect(storage.put('limited', chunks(Buffer.alloc(4501)), { maxBytes: 4500 })).rejects.toMatchObject({ kind: 'payload_too_large', limit: 4500 });
      // The refused write left the earlier blob as it was.
      expect(await sizeOf(storage, 'limited')).toBe(4500);
    });

    test('a limit passed after several parts went up aborts the multipart upload', async () => {
      const data = patterned(11 * 1024 * 1024);
      await expect(storage.put('over/parts', piecesOf(data), { maxBytes: 10 * 1024 * 1024 + 1 })).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(await storage.exists('over/parts')).toBe(false);
      // afterEach: no unfinished upload is left.
    });

    test('a source that fails midway leaves nothing under the key, and the old blob in place', async () => {
      await storage.put('interrupted', chunks('the old bytes'));
      async function* failing(): AsyncIterable<Uint8Array> {
        yield Buffer.alloc(6 * 1024 * 1024, 1);
        yield Buffer.alloc(1024, 2);
        throw new Error('the client went away');
      }
      await expect(storage.put('interrupted', failing())).rejects.toThrow('the client went away');
      expect((await bytesOf(storage, 'interrupted'))?.toString()).toBe('the old bytes');
      await expect(storage.put('never', failing())).rejects.toThrow('the client went away');
      expect(await storage.exists('never')).toBe(false);
    });

    test('list: every key under a prefix with when it was written, through as many pages as it takes', async () => {
      const keys = Array.from({ length: 1005 }, (_, i) => `many/${String(i).padStart(4, '0')}`);
      for (let i = 0; i < keys.length; i += 25) await Promise.all(keys.slice(i, i + 25).map((key) => storage.put(key, chunks('x'))));
      await storage.put('other/one', chunks('y'));
      await storage.put('manyfold', chunks('z'));
      await subject.strayObject();
      const listed: string[] = [];
      for await (const { key, modifiedMs } of storage.list('many')) {
        listed.push(key);
        expect(modifiedMs).toBeGreaterThan(0);
      }
      expect(listed.sort()).toEqual(keys);
      const all: string[] = [];
      for await (const { key } of storage.list()) all.push(key);
      expect(all).toEqual(expect.arrayContaining([...keys, 'other/one', 'manyfold']));
      expect(all.every((key) => !key.endsWith('/') && !key.startsWith('.'))).toBe(true);
      const none: string[] = [];
      for await (const { key } of storage.list('nothing/here')) none.push(key);
      expect(none).toEqual([]);
    });

    test('cleanup removes what interrupted writes left aside, only past the age asked for', async () => {
      await subject.leaveAside(0);
      expect(await subject.leftAside()).toBe(1);
      expect(await storage.cleanup({ olderThanMs: 60 * 60_000 })).toBe(0);
      expect(await subject.leftAside()).toBe(1);
      expect(await storage.cleanup()).toBe(1);
      expect(await subject.leftAside()).toBe(0);
    });

    test('keys that could climb out or hide are refused', async () => {
      for (const key of ['', '../x', 'a/../b', '.hidden', 'a//b', '/abs', 'a/']) {
        await expect(storage.put(key, chunks('x'))).rejects.toThrow(/invalid blob key/);
      }
    });
  });
}

describe.skipIf(S3_SKIP_REASON !== undefined)(`object storage only${S3_SKIP_REASON ? ` (skipped: ${S3_SKIP_REASON})` : ''}`, () => {
  test('SERVE_DIRECT: a presigned URL serves the bytes as a download named as asked; without it, none', async () => {
    const direct = await s3Subject();
    try {
      await direct.storage.put('served/one', chunks('served directly'));
      const url = await direct.storage.directUrl!('served/one', 'the "report".txt');
      expect(url).toMatch(/^http:\/\//);
      const res = await fetch(url!);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('served directly');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="the \\"report\\".txt"');
    } finally {
      await direct.close();
    }
    const settings = loadSettings({ workPath: tmpdir(), overrides: { storage: s3Storage() } });
    const config = resolveBlobStorages(settings).packages;
    if (config.type !== 'minio') throw new Error('expected object storage');
    const plain = new ObjectBlobStorage(config, 'packages');
    expect(await plain.directUrl('served/one', 'x')).toBeUndefined();
    await plain.close();
    expect((new LocalBlobStorage(tmpdir()) as BlobStorage).directUrl).toBeUndefined();
  });

  test('objects go under the space prefix of the bucket, named by their keys', async () => {
    const settings = loadSettings({ workPath: tmpdir(), overrides: { storage: s3Storage({ basePath: `/t-${randomBytes(4).toString('hex')}//nested/` }) } });
    const config = resolveBlobStorages(settings).packages;
    if (config.type !== 'minio') throw new Error('expected object storage');
    expect(config.basePath).toMatch(/^t-[0-9a-f]{8}\/nested\/packages\/$/);
    const storage = new ObjectBlobStorage(config, 'packages');
    const client = testS3Client();
    try {
      await storage.put('ab/cd/abcd', chunks('x'));
      const listed = await client.send(new ListObjectsV2Command({ Bucket: config.bucket, Prefix: config.basePath }));
      expect(listed.Contents?.map((object) => object.Key)).toEqual([`${config.basePath}ab/cd/abcd`]);
    } finally {
      client.destroy();
      await storage.close();
    }
  });
});
