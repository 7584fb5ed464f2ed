/**
 * Package index work off the event loop: one worker thread (the shared pool, `workers/`), started on first use and
 * ended when idle. Small inputs are done in place, where a thread's round trip would cost more than the work.
 */
import { UnavailableError } from '../errors.js';
import { OffloadBudgetError, OffloadMemoryError, OffloadPool } from '../workers/index.js';
import { buildHelmIndex, type HelmIndexInput } from './helm-index.js';
import { fileDigests, type FileDigests, type PackageTask, type PackageTaskResult } from './package-worker.js';

/** Milliseconds one index may take, queue wait included. */
const BUDGET_MS = 60_000;
/** Below these, the work takes well under a millisecond: done on the event loop. */
const SMALL_INDEX_VERSIONS = 50;
const SMALL_FILE_BYTES = 256 * 1024;

export class PackageWorkers {
  private readonly pool = new OffloadPool<PackageTask, PackageTaskResult>({
    worker: { base: import.meta.url, built: './package-worker.js', source: './package-worker.dev.mjs' },
    threads: 1,
    queuePerThread: 64,
    // An index of every version of a large owner, and its text, fit many times over.
    heapMb: 512,
    busyMessage: 'too many package indexes are being written, try again shortly',
  });

  /** The Helm repository index (`helm-index.ts`). */
  async helmIndex(input: HelmIndexInput): Promise<string> {
    if (input.versions.length <= SMALL_INDEX_VERSIONS) return buildHelmIndex(input);
    return (await this.run({ kind: 'helm-index', input })) as string;
  }

  /** A file's size and digests (md5, sha1, sha256, sha512). */
  async digests(bytes: Uint8Array): Promise<FileDigests> {
    if (bytes.length <= SMALL_FILE_BYTES) return fileDigests(bytes);
    return (await this.run({ kind: 'digests', bytes })) as FileDigests;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async run(task: PackageTask): Promise<PackageTaskResult> {
    try {
      return await this.pool.run(task, BUDGET_MS);
    } catch (error) {
      // Neither happens for an index of what the registry's limits let in; a 503 lets the client come back.
      if (error instanceof OffloadBudgetError || error instanceof OffloadMemoryError) throw new UnavailableError(`writing the package index ${error.message}`, 5);
      throw error;
    }
  }
}
