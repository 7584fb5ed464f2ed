/** What the service and the remote fetch share about objects' bytes: where they live, and how they are checked. */
import { createHash } from 'node:crypto';
import type { BlobSpace } from '../blobs/index.js';
import { ValidationError } from '../errors.js';
import type { LfsPointer } from './pointer.js';

/** The blob space of LFS objects: `[lfs]` storage settings (`blobs/config.ts` resolves them as the `lfs` kind). */
export const LFS_SPACE: BlobSpace = 'lfs';

export const SIZE_MISMATCH = 'content size does not match';
export const HASH_MISMATCH = 'content hash does not match OID';

/**
 * Passes the bytes on while hashing and counting them; fails (so that nothing is stored) as soon as there are more
 * than the pointer's size, and at the end when there were fewer or their SHA-256 is not the oid.
 */
export async function* verifiedBytes(body: AsyncIterable<Uint8Array>, pointer: LfsPointer): AsyncGenerator<Uint8Array> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > pointer.size) throw new ValidationError('', SIZE_MISMATCH);
    hash.update(chunk);
    yield chunk;
  }
  if (size !== pointer.size) throw new ValidationError('', SIZE_MISMATCH);
  if (hash.digest('hex') !== pointer.oid) throw new ValidationError('', HASH_MISMATCH);
}
