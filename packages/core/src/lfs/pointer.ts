/**
 * LFS pointers and oids: what a pointer file in git says (`version …/spec/v1`, `oid sha256:…`, `size …`), and the
 * checks Forgejo's `Pointer.IsValid` makes.
 */

/** An object as the LFS API names it. */
export interface LfsPointer {
  oid: string;
  size: number;
}

/** Pointer files are small: a blob larger than this is never one (Forgejo's `blobSizeCutoff`). */
export const POINTER_MAX_BYTES = 1024;
const SPEC_LINE = 'version https://git-lfs.github.com/spec/v1';
const OID = /^[a-f0-9]{64}$/;
const SIZE = /^\d{1,16}$/;

/** A well-formed SHA-256 oid: 64 lower-case hex digits. */
export function isValidOid(oid: string): boolean {
  return oid.length === 64 && OID.test(oid);
}

/** Forgejo's `Pointer.IsValid`: a valid oid and a size that is not negative. */
export function isValidPointer(pointer: LfsPointer): boolean {
  return isValidOid(pointer.oid) && Number.isSafeInteger(pointer.size) && pointer.size >= 0;
}

/** Where the object's bytes live in the `lfs` blob space: `ab/cd/efgh…`, as Forgejo's `RelativePath`. */
export function blobKeyOf(oid: string): string {
  return `${oid.slice(0, 2)}/${oid.slice(2, 4)}/${oid.slice(4)}`;
}

/** The pointer a blob's content is, or undefined when it is not one (Forgejo's `ReadPointerFromBuffer`). */
export function parsePointer(content: Uint8Array): LfsPointer | undefined {
  if (content.byteLength > POINTER_MAX_BYTES) return undefined;
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
  if (!text.startsWith(SPEC_LINE)) return undefined;
  let oid: string | undefined;
  let size: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('oid sha256:')) oid = line.slice('oid sha256:'.length);
    else if (line.startsWith('size ')) {
      const digits = line.slice('size '.length);
      if (!SIZE.test(digits)) return undefined;
      size = Number(digits);
    }
  }
  if (oid === undefined || size === undefined) return undefined;
  const pointer = { oid, size };
  return isValidPointer(pointer) ? pointer : undefined;
}

/** A lock's path as Forgejo cleans it (`util.PathJoinRel`): relative, no empty, `.` or `..` segments. */
export function cleanLockPath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments.join('/');
}
