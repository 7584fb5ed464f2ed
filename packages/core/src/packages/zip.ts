/**
 * Reading a package zip that waits in a file (a spooled upload), as Go's `archive/zip` reads it for Forgejo: the
 * central directory from the end of the file (zip64 too), entries one at a time, an entry's bytes (stored or
 * deflated) up to a limit. Nothing is held whole in memory. Shared by the formats whose uploads are zips (Go,
 * Composer).
 */
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
import { BadRequestError } from '../errors.js';

/** Go's `zip.ErrFormat` and `zip.ErrAlgorithm` (Forgejo answers them 500; a client's bad zip is a 400 here). */
export const ZIP_NOT_VALID = 'zip: not a valid zip file';
export const ZIP_ALGORITHM = 'zip: unsupported compression algorithm';

/** Reads a file at positions through one 64 KiB window: a central directory of many entries takes few reads. */
export class ZipCursor {
  private window = Buffer.alloc(0);
  private start = 0;

  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  async bytes(at: number, length: number): Promise<Buffer> {
    if (at < 0 || at + length > this.size) throw new BadRequestError(ZIP_NOT_VALID);
    if (at >= this.start && at + length <= this.start + this.window.length) return this.window.subarray(at - this.start, at - this.start + length);
    const span = Math.min(Math.max(length, 64 * 1024), this.size - at);
    const buffer = Buffer.alloc(span);
    const { bytesRead } = await this.handle.read(buffer, 0, span, at);
    if (bytesRead < length) throw new BadRequestError(ZIP_NOT_VALID);
    this.window = buffer.subarray(0, bytesRead);
    this.start = at;
    return this.window.subarray(0, length);
  }
}

/** A central directory entry: what reading its bytes needs. */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
}

/** An open zip file: its path (entries are streamed from it) and a cursor over it. */
export interface OpenZip {
  file: string;
  cursor: ZipCursor;
}

/** Opens `file` for `read`, closing it afterwards whatever `read` does. */
export async function withZip<T>(file: string, read: (zip: OpenZip) => Promise<T>): Promise<T> {
  const handle = await open(file, 'r');
  try {
    return await read({ file, cursor: new ZipCursor(handle, (await handle.stat()).size) });
  } finally {
    await handle.close();
  }
}

/** The end of the central directory (zip64's when the classic record says so): where it is and how many entries. */
async function centralDirectory(cursor: ZipCursor): Promise<{ offset: number; count: number }> {
  if (cursor.size < 22) throw new BadRequestError(ZIP_NOT_VALID);
  const tailLength = Math.min(cursor.size, 22 + 0xffff);
  const tail = Buffer.from(await cursor.bytes(cursor.size - tailLength, tailLength));
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new BadRequestError(ZIP_NOT_VALID);
  let count = tail.readUInt16LE(at + 10);
  let offset = tail.readUInt32LE(at + 16);
  if ((count === 0xffff || offset === 0xffffffff) && at >= 20 && tail.readUInt32LE(at - 20) === 0x07064b50) {
    const record = Number(tail.readBigUInt64LE(at - 20 + 8));
    const zip64 = await cursor.bytes(record, 56);
    if (zip64.readUInt32LE(0) !== 0x06064b50) throw new BadRequestError(ZIP_NOT_VALID);
    count = Number(zip64.readBigUInt64LE(32));
    offset = Number(zip64.readBigUInt64LE(48));
  }
  if (offset > cursor.size) throw new BadRequestError(ZIP_NOT_VALID);
  return { offset, count };
}

/** The central directory's entries in order, one at a time (a zip of many files is not held in memory). */
export async function* zipEntries(cursor: ZipCursor): AsyncIterable<ZipEntry> {
  const { offset, count } = await centralDirectory(cursor);
  let at = offset;
  for (let n = 0; n < count; n++) {
    const header = Buffer.from(await cursor.bytes(at, 46));
    if (header.readUInt32LE(0) !== 0x02014b50) throw new BadRequestError(ZIP_NOT_VALID);
    const nameLength = header.readUInt16LE(28);
    const extraLength = header.readUInt16LE(30);
    const commentLength = header.readUInt16LE(32);
    const entry: ZipEntry = {
      name: (await cursor.bytes(at + 46, nameLength)).toString('utf8'),
      method: header.readUInt16LE(10),
      compressedSize: header.readUInt32LE(20),
      uncompressedSize: header.readUInt32LE(24),
      localOffset: header.readUInt32LE(42),
    };
    // Zip64's extra field carries the sizes and offset the header marks 0xffffffff, in that order.
    const extra = Buffer.from(await cursor.bytes(at + 46 + nameLength, extraLength));
    for (let e = 0; e + 4 <= extra.length; ) {
      const id = extra.readUInt16LE(e);
      const size = extra.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let f = e + 4;
        const take = () => {
          if (f + 8 > e + 4 + size) throw new BadRequestError(ZIP_NOT_VALID);
          const value = Number(extra.readBigUInt64LE(f));
          f += 8;
          return value;
        };
        if (entry.uncompressedSize === 0xffffffff) entry.uncompressedSize = take();
        if (entry.compressedSize === 0xffffffff) entry.compressedSize = take();
        if (entry.localOffset === 0xffffffff) entry.localOffset = take();
      }
      e += 4 + size;
    }
    yield entry;
    at += 46 + nameLength + extraLength + commentLength;
  }
}

/** An entry's bytes (stored or deflated), at most `limit` of them (Go's `io.LimitedReader`: the rest is dropped). */
export async function readZipEntry({ file, cursor }: OpenZip, entry: ZipEntry, limit: number): Promise<Buffer> {
  const local = Buffer.from(await cursor.bytes(entry.localOffset, 30));
  if (local.readUInt32LE(0) !== 0x04034b50) throw new BadRequestError(ZIP_NOT_VALID);
  const start = entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (entry.compressedSize === 0) return Buffer.alloc(0);
  if (start + entry.compressedSize > cursor.size) throw new BadRequestError(ZIP_NOT_VALID);
  if (entry.method !== 0 && entry.method !== 8) throw new BadRequestError(ZIP_ALGORITHM);
  const raw = createReadStream(file, { start, end: start + entry.compressedSize - 1 });
  const source = entry.method === 8 ? raw.pipe(createInflateRaw()) : raw;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
  } catch {
    throw new BadRequestError('zip: corrupt deflate data');
  } finally {
    raw.destroy();
    source.destroy();
  }
  return Buffer.concat(chunks).subarray(0, limit);
}

/** Go's `path.Dir` for a zip entry's name (the entries are `/`-separated; a name without one is in `.`). */
export function zipEntryDir(name: string): string {
  let end = name.length;
  while (end > 1 && name[end - 1] === '/') end--;
  const slash = name.lastIndexOf('/', end - 1);
  if (slash < 0) return '.';
  if (slash === 0) return '/';
  return name.slice(0, slash);
}

/** Go's `path.Base` for a zip entry's name. */
export function zipEntryBase(name: string): string {
  let end = name.length;
  while (end > 1 && name[end - 1] === '/') end--;
  return name.slice(name.lastIndexOf('/', end - 1) + 1, end);
}
