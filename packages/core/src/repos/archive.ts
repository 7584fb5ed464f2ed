/**
 * Archives of a repository at a ref (`GET /repos/{owner}/{repo}/archive/{ref}.zip|.tar.gz|.bundle`), streamed
 * from git as it writes them: nothing is buffered or stored, and git stops when the client goes away.
 */
import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import { BadRequestError, NotFoundError } from '../errors.js';
import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { ConcurrencyLimit } from '../git/index.js';
import type { ArchiveFormat } from '../git/index.js';
import { repoKey, type RepoAccess } from './service.js';

/** The formats by the suffix that asks for them, longest first so that `.tar.gz` is not read as `.gz`. */
const SUFFIXES: readonly (readonly [string, ArchiveFormat])[] = [
  ['.tar.gz', 'tar.gz'],
  ['.bundle', 'bundle'],
  ['.zip', 'zip'],
];

const CONTENT_TYPES: Readonly<Record<ArchiveFormat, string>> = {
  zip: 'application/zip',
  'tar.gz': 'application/gzip',
  bundle: 'application/octet-stream',
};

export interface RepoArchive {
  /** The archive's bytes as git writes them; read it to the end or destroy it. */
  output: Readable;
  /** Settles when git has exited (rejects if it failed or was stopped). */
  done: Promise<void>;
  format: ArchiveFormat;
  contentType: string;
  /** The commit archived. */
  commit: string;
  /** The download's name, as Forgejo gives it: `<repo>-<ref with / as ->.<format>`. */
  fileName: string;
}

export class RepoArchiveService {
  /** Slots for archive processes, held from start until git exits, so downloads cannot fork without end. */
  private readonly slots: ConcurrencyLimit;

  constructor(private readonly ctx: CoreContext) {
    const { GIT_MAX_SERVICES, GIT_SERVICE_QUEUE_TIMEOUT } = ctx.settings.repohost;
    this.slots = new ConcurrencyLimit(GIT_MAX_SERVICES > 0 ? GIT_MAX_SERVICES : 4 * availableParallelism(), Math.max(0, GIT_SERVICE_QUEUE_TIMEOUT) * 1000);
  }

  /**
   * Starts an archive of `access` at the ref `request` names with its format's suffix (`main.zip`,
   * `v1.0.tar.gz`, a commit id with `.bundle`). An unknown suffix is a bad request; a ref that names no commit
   * (an empty repository has none) is NotFound.
   */
  async open(_actor: Actor, access: RepoAccess, request: string, options: { signal?: AbortSignal } = {}): Promise<RepoArchive> {
    const match = SUFFIXES.find(([suffix]) => request.endsWith(suffix));
    if (!match) throw new BadRequestError(`unknown format: ${request}`);
    const [suffix, format] = match;
    const ref = request.slice(0, -suffix.length);
    const key = repoKey(access.owner, access.repo);
    const commit = ref === '' ? undefined : await this.ctx.git.resolveCommit(key, ref);
    if (commit === undefined) throw new NotFoundError(`unrecognized repository reference: ${ref}`);
    const release = await this.slots.acquire(options.signal);
    try {
      const stream = await this.ctx.git.archive(key, { commit, format, prefix: `${access.repo.lower_name}/`, signal: options.signal });
      stream.done.then(release, release);
      return {
        output: stream.output,
        done: stream.done,
        format,
        contentType: CONTENT_TYPES[format],
        commit,
        fileName: `${access.repo.name}-${ref.replaceAll('/', '-')}.${format}`,
      };
    } catch (error) {
      release();
      throw error;
    }
  }
}
