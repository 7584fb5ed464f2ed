import { createHash } from 'node:crypto';
import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { nowUnix, isUniqueViolation } from '../storage/index.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import { isValidRefName } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import type { User } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import { CreateStatusOptionSchema, type CommitStatusSort, type CommitStatusState, type CreateStatusOption } from './schemas.js';
import { CommitStatusesStore } from './store.js';
import type { CommitStatus } from './tables.js';
import './status-listener.js';

/** Forgejo's order of badness: the worst state among the latest statuses is the commit's combined state. */
const STATE_PRIORITY: Record<CommitStatusState, number> = { error: 0, failure: 1, warning: 2, pending: 3, success: 4 };

export interface StatusesWithCreators extends Page<CommitStatus> {
  /** The accounts that reported them, by id (one query for the page). */
  creators: Map<number, User>;
}

export interface CombinedStatus extends StatusesWithCreators {
  /** The commit id the statuses belong to. */
  sha: string;
  /** The worst state among the latest statuses; '' when there are none. */
  state: CommitStatusState | '';
}

const HEX_DIGITS = /^[0-9a-f]+$/i;

/** Hex digits of a complete commit id in the repository's object format. */
function completeIdLength(access: RepoAccess): number {
  return access.repo.object_format_name === 'sha256' ? 64 : 40;
}

function isCompleteId(access: RepoAccess, text: string): boolean {
  return text.length === completeIdLength(access) && HEX_DIGITS.test(text);
}

/** Statuses name commits by their complete id: an abbreviation is refused rather than completed. */
function assertCompleteId(access: RepoAccess, sha: string): void {
  if (!isCompleteId(access, sha)) throw new ValidationError('sha', `must be the complete commit id (${completeIdLength(access)} hexadecimal digits)`);
}

/** Statuses CI systems report for commits, and the combined state they make. */
export class CommitStatusesService {
  constructor(private readonly ctx: CoreContext) {}

  /** Statuses go with their repository. Registered once per host. */
  subscribe(): void {
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => {
      await tx.store(CommitStatusesStore).deleteOfRepo(payload.repo.id);
    });
  }

  /**
   * Reports a status for a commit named by its complete id (the service description: statuses are created and read
   * by the complete SHA). Needs write access; anything else than a complete id (an abbreviation, a name) is
   * refused (422), an id of no commit is not found.
   */
  async create(actor: Actor, access: RepoAccess, sha: string, input: CreateStatusOption): Promise<{ status: CommitStatus; creator: User | undefined }> {
    if (actor.kind === 'anonymous' || unitMode(access, 'repo.code') < AccessMode.Write) throw new ForbiddenError('user should have write access to the repository code');
    const opts = acceptInput(CreateStatusOptionSchema, input);
    assertCompleteId(access, sha);
    if (!opts.state) throw new ValidationError('state', 'Required');
    const id = await this.existingCommit(access, sha);
    const context = opts.context ?? '';
    const now = nowUnix();
    const row = {
      repo_id: access.repo.id,
      state: opts.state,
      sha: id,
      target_url: opts.target_url ?? '',
      description: opts.description ?? '',
      context_hash: createHash('sha1').update(context).digest('hex'),
      context,
      creator_id: actor.kind === 'user' ? actor.user.id : 0,
      created_unix: now,
      updated_unix: now,
    };
    // Two reports for one commit at once may pick the same next index: the loser takes the one after.
    for (let attempt = 0; ; attempt++) {
      try {
        const status = await this.ctx.store(CommitStatusesStore).insertNext(row);
        // Merges scheduled for this commit wait on its checks (they report their own failures).
        await this.ctx.provider('commits.statusListener').statusReported(access.repo.id, id);
        return { status, creator: actor.kind === 'user' ? actor.user : undefined };
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 5) throw error;
      }
    }
  }

  /** The commit `sha` (a complete id) names, lower-cased; not found unless it is a commit of the repository. */
  private async existingCommit(access: RepoAccess, sha: string): Promise<string> {
    const id = sha.toLowerCase();
    // A tag object's id peels to its commit's: that is no commit id.
    if ((await this.ctx.git.resolveCommit(repoKey(access.owner, access.repo), id)) !== id) throw new NotFoundError(`object does not exist [id: ${sha}, rel_path: ]`);
    return id;
  }

  /**
   * The commit a `/commits/{ref}/…` path names: a complete commit id, else a branch, else a tag (Forgejo's order of
   * names). Anything else, an abbreviated id included, is not found.
   */
  private async commitOfRef(access: RepoAccess, ref: string): Promise<string> {
    if (ref === '') throw new ValidationError('ref', 'ref not given');
    if (isCompleteId(access, ref)) return this.existingCommit(access, ref);
    // Only exact names: a revision expression (`main~1`, `v1^`) names no ref.
    if (isValidRefName(ref)) {
      const key = repoKey(access.owner, access.repo);
      for (const namespace of ['refs/heads/', 'refs/tags/']) {
        const id = await this.ctx.git.resolveCommit(key, namespace + ref);
        if (id) return id;
      }
    }
    throw new NotFoundError(`object does not exist [id: ${ref}, rel_path: ]`);
  }

  /** A page of a commit's statuses: `target` is a complete commit id (`{ sha }`) or a branch, tag or id (`{ ref }`). */
  async list(
    _actor: Actor,
    access: RepoAccess,
    target: { sha: string } | { ref: string },
    options: Paging & { sort?: CommitStatusSort; state?: CommitStatusState } = {},
  ): Promise<StatusesWithCreators> {
    let sha: string;
    if ('sha' in target) {
      assertCompleteId(access, target.sha);
      sha = await this.existingCommit(access, target.sha);
    } else sha = await this.commitOfRef(access, target.ref);
    const page = await this.ctx.store(CommitStatusesStore).pageOf(access.repo.id, sha, clampPage(this.ctx.settings, options), options);
    return { ...page, creators: await this.creatorsOf(page.items) };
  }

  /** The latest status of each context of a commit, and the state they combine to. */
  async combined(_actor: Actor, access: RepoAccess, ref: string, paging: Paging = {}): Promise<CombinedStatus> {
    const sha = await this.commitOfRef(access, ref);
    const page = await this.ctx.store(CommitStatusesStore).latestOf(access.repo.id, sha, clampPage(this.ctx.settings, paging));
    let state: CommitStatusState | '' = '';
    for (const status of page.items) {
      const candidate = status.state as CommitStatusState;
      if (state === '' || (STATE_PRIORITY[candidate] ?? 0) < STATE_PRIORITY[state]) state = candidate;
    }
    return { ...page, sha, state, creators: await this.creatorsOf(page.items) };
  }

  private creatorsOf(statuses: CommitStatus[]): Promise<Map<number, User>> {
    const ids = [...new Set(statuses.map((s) => s.creator_id).filter((id) => id > 0))];
    return ids.length ? this.ctx.port(UsersPort).byIds(ids) : Promise.resolve(new Map());
  }
}
