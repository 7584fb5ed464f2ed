import type { CoreContext } from '../context.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors.js';
import type { Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import type { RepoKey } from '../git/index.js';
import { repoKey, RepoForksService, type RepoAccess } from '../repos/index.js';
import { ProtectionService } from '../protection/index.js';
import { moveRefs } from '../refs/index.js';
import type { ApiSyncForkInfo } from './schemas.js';

interface SyncPlan {
  info: ApiSyncForkInfo;
  forkKey: RepoKey;
  baseKey?: RepoKey;
}

/**
 * Syncing a fork's branch with the same branch of the repository it was forked from (Forgejo's
 * `services/repository/sync_fork.go`): allowed only when the fork's branch is behind, never when it has commits
 * of its own; the sync is a fast-forward made as a push by the caller, with the push's events and webhooks.
 */
export class ForkSyncService {
  constructor(private readonly ctx: CoreContext) {}

  /** `GET /sync_fork[/{branch}]`: 400 when the repository is no fork, 404 when the fork has no such branch. */
  async info(actor: Actor, access: RepoAccess, branch: string): Promise<ApiSyncForkInfo> {
    if (unitMode(access, 'repo.code') < AccessMode.Read) throw new ForbiddenError('user should have specific read permission or be a repo admin or a site admin');
    return (await this.plan(access, branch)).info;
  }

  /**
   * `POST /sync_fork[/{branch}]`: fast-forwards the fork's `branch` to the base repository's (400 when that is not
   * allowed); the fork's branch rules apply as to a push (403), and a branch moved meanwhile is a 409.
   */
  async sync(actor: Actor, access: RepoAccess, branch: string): Promise<void> {
    const { info, forkKey, baseKey } = await this.plan(access, branch);
    if (!info.allowed || !baseKey) throw new BadRequestError("You can't sync this branch");
    await this.ctx.git.copyCommit(baseKey, forkKey, info.base_commit);
    const update = { ref: `refs/heads/${branch}`, oldId: info.fork_commit, newId: info.base_commit };
    const refusal = await this.ctx.service(ProtectionService).checkRefUpdates(actor, access, [update], this.ctx.git.incoming(forkKey, {}));
    if (refusal) throw new ForbiddenError(refusal);
    await moveRefs(this.ctx, actor, access, [update], `branch ${branch} was changed by someone else meanwhile; read it again and retry`);
  }

  /** Forgejo's `GetSyncForkInfo`: what is known of the two branches, and whether the fork's is strictly behind. */
  private async plan(access: RepoAccess, branch: string): Promise<SyncPlan> {
    const { repo } = access;
    if (repo.is_fork !== 1) throw new BadRequestError('The Repo must be a fork');
    const forkKey = repoKey(access.owner, repo);
    const info: ApiSyncForkInfo = { allowed: false, fork_commit: '', base_commit: '', commits_behind: 0 };
    if (repo.is_archived === 1) return { info, forkKey };
    const base = await this.ctx.service(RepoForksService).baseOf(repo);
    if (!base) throw new Error(`the base repository of fork ${repo.id} is missing`);
    const ref = `refs/heads/${branch}`;
    const forkCommit = (await this.ctx.git.readRefs(forkKey, [ref])).get(ref);
    if (!forkCommit) throw new NotFoundError(`branch does not exist [repo_id: ${repo.id} name: ${branch}]`);
    info.fork_commit = forkCommit;
    const baseCommit = (await this.ctx.git.readRefs(base.key, [ref])).get(ref);
    if (!baseCommit) return { info, forkKey };
    info.base_commit = baseCommit;
    if (forkCommit === baseCommit) return { info, forkKey };
    // The fork's commit must be in the base's branch: a fork with commits of its own is not synced over them.
    const known = await this.ctx.git.resolveRevision(base.key, forkCommit);
    if (known?.type !== 'commit' || !(await this.ctx.git.isAncestor(base.key, forkCommit, baseCommit))) return { info, forkKey };
    info.allowed = true;
    info.commits_behind = await this.ctx.git.countCommits(base.key, { head: baseCommit, exclude: forkCommit });
    return { info, forkKey, baseKey: base.key };
  }
}
