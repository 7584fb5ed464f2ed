/**
 * The worker thread package indexes are written in (`workers.ts` runs it): a Helm repository's `index.yaml` and the
 * digests of a Debian repository's index files, work that grows with an owner's packages and would otherwise hold
 * the event loop for as long. Pure functions of what they are given.
 */
import { createHash } from 'node:crypto';
import { buildHelmIndex, type HelmIndexInput } from './helm-index.js';

/** A file's size and digests, as a package blob keeps them. */
export interface FileDigests {
  size: number;
  hash_md5: string;
  hash_sha1: string;
  hash_sha256: string;
  hash_sha512: string;
}

export type PackageTask = { kind: 'helm-index'; input: HelmIndexInput } | { kind: 'digests'; bytes: Uint8Array };
export type PackageTaskResult = string | FileDigests;

export function fileDigests(bytes: Uint8Array): FileDigests {
  const of = (algorithm: string) => createHash(algorithm).update(bytes).digest('hex');
  return { size: bytes.length, hash_md5: of('md5'), hash_sha1: of('sha1'), hash_sha256: of('sha256'), hash_sha512: of('sha512') };
}

export default function runPackageTask(task: PackageTask): PackageTaskResult {
  return task.kind === 'helm-index' ? buildHelmIndex(task.input) : fileDigests(task.bytes);
}
