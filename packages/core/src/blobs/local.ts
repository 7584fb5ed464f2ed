import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import {
  BlobTooLargeError,
  assertBlobKey,
  type BlobSource,
  type BlobStorage,
  type ByteRange,
  type ListedBlob,
  type PutBlobOptions,
  type PutBlobResult,
  type StoredBlob,
} from './storage.js';

/** Where writes in progress go, under the root; no key can name it (keys have no hidden segments). */
const TEMPORARY_FOLDER = '.tmp';

/**
 * Blobs as files under one folder, a key being the file's relative path. A blob is written aside under
 * `.tmp/`, flushed to disk, then renamed into place, so a reader sees the whole blob or none; a failed write
 * removes its temporary file, and `cleanup()` removes those a crash left behind.
 */
export class LocalBlobStorage implements BlobStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, source: BlobSource, options: PutBlobOptions = {}): Promise<PutBlobResult> {
    const target = this.pathOf(key);
    const limit = options.maxBytes !== undefined && options.maxBytes >= 0 ? options.maxBytes : Infinity;
    const hash = options.sha256 ? createHash('sha256') : undefined;
    const temporaryFolder = path.join(this.root, TEMPORARY_FOLDER);
    // The data folder is the server account's alone, whatever the umask: folders 0700, files 0600.
    await mkdir(temporaryFolder, { recursive: true, mode: 0o700 });
    const temporary = path.join(temporaryFolder, `${Date.now()}-${randomBytes(8).toString('hex')}`);
    const file = await open(temporary, 'wx', 0o600);
    let size = 0;
    try {
      try {
        for await (const chunk of source) {
          size += chunk.byteLength;
          if (size > limit) throw new BlobTooLargeError(limit);
          hash?.update(chunk);
          await file.write(chunk);
        }
        await file.sync();
      } finally {
        await file.close();
      }
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await rename(temporary, target);
    } catch (error) {
      await unlink(temporary).catch(() => {});
      throw error;
    }
    return hash ? { size, sha256: hash.digest('hex') } : { size };
  }

  async get(key: string, range?: ByteRange): Promise<StoredBlob | undefined> {
    let file;
    try {
      file = await open(this.pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    try {
      // Opened first, then measured: a delete racing with the read cannot make the size and the bytes disagree.
      const info = await file.stat();
      if (!info.isFile()) {
        await file.close();
        return undefined;
      }
      const stream = range ? file.createReadStream({ autoClose: true, start: range.start, end: range.end }) : file.createReadStream({ autoClose: true });
      return { size: info.size, modifiedMs: info.mtimeMs, stream };
    } catch (error) {
      await file.close().catch(() => {});
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async *list(prefix = ''): AsyncIterable<ListedBlob> {
    if (prefix !== '') assertBlobKey(prefix);
    yield* this.walk(prefix === '' ? this.root : this.pathOf(prefix), prefix);
  }

  private async *walk(folder: string, keyPrefix: string): AsyncIterable<ListedBlob> {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const key = keyPrefix === '' ? entry.name : `${keyPrefix}/${entry.name}`;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) yield* this.walk(full, key);
      else if (entry.isFile()) {
        const info = await stat(full).catch(() => undefined);
        if (info) yield { key, modifiedMs: info.mtimeMs };
      }
    }
  }

  async cleanup(options: { olderThanMs?: number } = {}): Promise<number> {
    const folder = path.join(this.root, TEMPORARY_FOLDER);
    const before = Date.now() - (options.olderThanMs ?? 0);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if (isMissing(error)) return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      const full = path.join(folder, name);
      const info = await stat(full).catch(() => undefined);
      if (!info || info.mtimeMs > before) continue;
      await rm(full, { force: true, recursive: true });
      removed++;
    }
    return removed;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
