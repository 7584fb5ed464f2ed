/**
 * The blob storage attachments (and later release assets and packages) keep their bytes in: all-or-nothing writes,
 * the size limit enforced while the bytes stream, temporary files removed on failure and by `cleanup()`.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { mkdtemp, readdir, rm, utimes, writeFile, mkdir } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { BlobTooLargeError, LocalBlobStorage } from '@repohost/core';

let root: string;
let blobs: LocalBlobStorage;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'repohost-blobs-'));
  blobs = new LocalBlobStorage(root);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function* chunks(...parts: (string | Uint8Array)[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? Buffer.from(part) : part;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

async function temporaryFiles(): Promise<string[]> {
  return readdir(path.join(root, '.tmp')).catch(() => []);
}

describe('LocalBlobStorage', () => {
  test('put, get, exists, delete', async () => {
    expect(await blobs.exists('a/b/abc')).toBe(false);
    expect(await blobs.get('a/b/abc')).toBeUndefined();
    const result = await blobs.put('a/b/abc', chunks('hello ', 'world'), { sha256: true });
    expect(result).toEqual({ size: 11, sha256: createHash('sha256').update('hello world').digest('hex') });
    expect(await blobs.exists('a/b/abc')).toBe(true);
    const blob = await blobs.get('a/b/abc');
    expect(blob?.size).toBe(11);
    expect((await readAll(blob!.stream)).toString()).toBe('hello world');
    expect(await temporaryFiles()).toEqual([]);
    await blobs.delete('a/b/abc');
    await blobs.delete('a/b/abc');
    expect(await blobs.exists('a/b/abc')).toBe(false);
  });

  test('a Node stream and a web stream are sources too; an empty blob is a blob', async () => {
    await blobs.put('node', Readable.from([Buffer.from('x'.repeat(100_000))]));
    expect((await blobs.get('node'))?.size).toBe(100_000);
    await blobs.put('web', new Blob(['web bytes']).stream() as unknown as AsyncIterable<Uint8Array>);
    expect((await readAll((await blobs.get('web'))!.stream)).toString()).toBe('web bytes');
    await blobs.put('empty', chunks());
    expect((await blobs.get('empty'))?.size).toBe(0);
  });

  test('past the limit the write stops, nothing is stored and the rest of the source is not read', async () => {
    let pulled = 0;
    async function* endless(): AsyncIterable<Uint8Array> {
      for (;;) {
        pulled++;
        yield Buffer.alloc(1000);
      }
    }
    await expect(blobs.put('big', endless(), { maxBytes: 4500 })).rejects.toBeInstanceOf(BlobTooLargeError);
    // Its own kind (the server's 413 without a quota's account), not a quota refusal.
    await expect(blobs.put('big', endless(), { maxBytes: 4500 })).rejects.toMatchObject({ kind: 'payload_too_large', limit: 4500 });
    pulled -= 5;
    expect(pulled).toBe(5);
    expect(await blobs.exists('big')).toBe(false);
    expect(await temporaryFiles()).toEqual([]);
    // Exactly at the limit is fine.
    expect(await blobs.put('exact', chunks(Buffer.alloc(4500)), { maxBytes: 4500 })).toEqual({ size: 4500 });
  });

  test('a failing source leaves nothing, and an existing blob stays as it was', async () => {
    await blobs.put('k', chunks('old'));
    async function* failing(): AsyncIterable<Uint8Array> {
      yield Buffer.from('new');
      throw new Error('client went away');
    }
    await expect(blobs.put('k', failing())).rejects.toThrow('client went away');
    expect((await readAll((await blobs.get('k'))!.stream)).toString()).toBe('old');
    expect(await temporaryFiles()).toEqual([]);
  });

  test('keys are plain relative paths', async () => {
    for (const key of ['', '../x', 'a/../b', '/abs', '.hidden', 'a//b', 'a/.tmp/x', 'a\\b']) {
      await expect(blobs.put(key, chunks('x')), key).rejects.toThrow(/invalid blob key/);
      await expect(blobs.get(key), key).rejects.toThrow(/invalid blob key/);
    }
  });

  test('list walks every blob (temporary files excluded); cleanup removes what interrupted writes left', async () => {
    await blobs.put('a/b/one', chunks('1'));
    await blobs.put('c/d/two', chunks('2'));
    await mkdir(path.join(root, '.tmp'), { recursive: true });
    await writeFile(path.join(root, '.tmp', 'left-by-a-crash'), 'partial');
    await writeFile(path.join(root, '.tmp', 'in-progress'), 'partial');
    const old = new Date(Date.now() - 2 * 3600_000);
    await utimes(path.join(root, '.tmp', 'left-by-a-crash'), old, old);
    const keys: string[] = [];
    for await (const blob of blobs.list()) keys.push(blob.key);
    expect(keys.sort()).toEqual(['a/b/one', 'c/d/two']);
    const under: string[] = [];
    for await (const blob of blobs.list('a')) under.push(blob.key);
    expect(under).toEqual(['a/b/one']);
    expect(await blobs.cleanup({ olderThanMs: 3600_000 })).toBe(1);
    expect(await temporaryFiles()).toEqual(['in-progress']);
    expect(await blobs.cleanup()).toBe(1);
    expect(await temporaryFiles()).toEqual([]);
  });
});
