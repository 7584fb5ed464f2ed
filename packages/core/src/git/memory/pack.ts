/**
 * git's pack format (version 2), read and written here with node's zlib. isomorphic-git's `indexPack` and
 * `packObjects` did this first; over memfs they inflate through pako and re-resolve every delta chain per object,
 * which made a 1,000-commit push take over a minute and a clone of it 28 times the native server's time
 * (bench/in-memory.mjs). A received pack is unpacked into loose objects (as git's `unpack-objects`); a sent pack
 * holds whole objects, no deltas.
 */
import { createHash } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import type { GitObjectType } from '../backend.js';
import type { RawObject } from './objects.js';

const TYPE_CODES: Record<GitObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };
const CODE_TYPES = new Map<number, GitObjectType>([
  [1, 'commit'],
  [2, 'tree'],
  [3, 'blob'],
  [4, 'tag'],
]);
const OFS_DELTA = 6;
const REF_DELTA = 7;

/** A pack that cannot be read: its text is what the client sees after `unpack`. */
export class PackError extends Error {}

export function objectId(type: GitObjectType, content: Buffer): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** A pack of whole objects, in the order given, with its SHA-1 trailer. */
export function writePack(objects: readonly RawObject[]): Buffer {
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(objects.length, 8);
  const parts: Buffer[] = [header];
  for (const object of objects) {
    let size = object.content.length;
    const bytes = [(TYPE_CODES[object.type] << 4) | (size & 0x0f)];
    size >>>= 4;
    while (size > 0) {
      bytes[bytes.length - 1]! |= 0x80;
      bytes.push(size & 0x7f);
      size >>>= 7;
    }
    // Level 1: on loopback, zlib's time matters more than the bytes.
    parts.push(Buffer.from(bytes), deflateSync(object.content, { level: 1 }));
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

/** Applies a git delta to its base. */
function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let at = 0;
  const varint = () => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      if (at >= delta.length) throw new PackError('truncated delta');
      byte = delta[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  if (varint() !== base.length) throw new PackError('delta base size mismatch');
  const target = Buffer.alloc(varint());
  let out = 0;
  while (at < delta.length) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let i = 0; i < 4; i++) if (op & (1 << i)) offset += delta[at++]! * 2 ** (8 * i);
      for (let i = 0; i < 3; i++) if (op & (0x10 << i)) size += delta[at++]! * 2 ** (8 * i);
      if (size === 0) size = 0x10000;
      if (offset + size > base.length || out + size > target.length) throw new PackError('delta copies out of range');
      base.copy(target, out, offset, offset + size);
      out += size;
    } else if (op > 0) {
      if (at + op > delta.length || out + op > target.length) throw new PackError('delta inserts out of range');
      delta.copy(target, out, at, at + op);
      at += op;
      out += op;
    } else throw new PackError('delta opcode 0');
  }
  if (out !== target.length) throw new PackError('delta result size mismatch');
  return target;
}

interface Entry {
  offset: number;
  type: GitObjectType;
  content: Buffer;
  id: string;
}

/**
 * Every object of a pack, deltas resolved (a REF_DELTA's base may be outside the pack: `external` reads it). Throws
 * PackError with git-like words for anything malformed: bad signature, truncation, a wrong checksum, a missing base.
 */
export async function readPack(pack: Buffer, external: (id: string) => Promise<RawObject | undefined>): Promise<Entry[]> {
  if (pack.length < 32 || pack.toString('latin1', 0, 4) !== 'PACK') throw new PackError('protocol error (pack signature mismatch detected)');
  const version = pack.readUInt32BE(4);
  if (version !== 2 && version !== 3) throw new PackError(`protocol error (pack version ${version} unsupported)`);
  const count = pack.readUInt32BE(8);
  const trailer = pack.length - 20;
  if (!createHash('sha1').update(pack.subarray(0, trailer)).digest().equals(pack.subarray(trailer))) throw new PackError('pack is corrupted (SHA1 mismatch)');
  const byOffset = new Map<number, Entry>();
  const byId = new Map<string, Entry>();
  const pendingRef: { offset: number; base: string; delta: Buffer }[] = [];
  let at = 12;
  for (let n = 0; n < count; n++) {
    const offset = at;
    if (at >= trailer) throw new PackError('pack has junk at the end or is truncated');
    let byte = pack[at++]!;
    const code = (byte >> 4) & 7;
    while (byte & 0x80) {
      if (at >= trailer) throw new PackError('truncated object header');
      byte = pack[at++]!;
    }
    let baseOffset: number | undefined;
    let baseId: string | undefined;
    if (code === OFS_DELTA) {
      byte = pack[at++]!;
      let distance = byte & 0x7f;
      while (byte & 0x80) {
        byte = pack[at++]!;
        distance = (distance + 1) * 128 + (byte & 0x7f);
      }
      baseOffset = offset - distance;
    } else if (code === REF_DELTA) {
      baseId = pack.toString('hex', at, at + 20);
      at += 20;
    } else if (!CODE_TYPES.has(code)) throw new PackError(`bad object type ${code}`);
    let data: Buffer;
    try {
      const inflated = inflateSync(pack.subarray(at, trailer), { info: true }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
      data = inflated.buffer;
      at += inflated.engine.bytesWritten;
    } catch {
      throw new PackError('inflate returned an error: the pack is corrupt');
    }
    const add = (type: GitObjectType, content: Buffer) => {
      const entry: Entry = { offset, type, content, id: objectId(type, content) };
      byOffset.set(offset, entry);
      byId.set(entry.id, entry);
    };
    if (baseOffset !== undefined) {
      const base = byOffset.get(baseOffset);
      if (!base) throw new PackError('delta base offset is out of bound');
      add(base.type, applyDelta(base.content, data));
    } else if (baseId !== undefined) {
      const base = byId.get(baseId);
      if (base) add(base.type, applyDelta(base.content, data));
      else pendingRef.push({ offset, base: baseId, delta: data });
    } else add(CODE_TYPES.get(code)!, data);
  }
  if (at !== trailer) throw new PackError('pack has junk at the end');
  // REF_DELTAs whose base came later in the pack, or lives in the repository (a thin pack).
  let progress = true;
  while (pendingRef.length > 0 && progress) {
    progress = false;
    for (let i = 0; i < pendingRef.length; i++) {
      const { offset, base: baseId, delta } = pendingRef[i]!;
      const base = byId.get(baseId) ?? (await external(baseId));
      if (!base) continue;
      const content = applyDelta(base.content, delta);
      const entry: Entry = { offset, type: base.type, content, id: objectId(base.type, content) };
      byOffset.set(offset, entry);
      byId.set(entry.id, entry);
      pendingRef.splice(i--, 1);
      progress = true;
    }
  }
  if (pendingRef.length > 0) throw new PackError(`pack has ${pendingRef.length} unresolved deltas`);
  return [...byOffset.values()];
}
