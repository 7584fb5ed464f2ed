import './events.js';
import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { AccessService } from '../access/index.js';
import { ForbiddenError } from '../errors.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import type { User } from '../users/index.js';
import { IssuesPort } from '../issues/index.js';
import { CommentsPort } from '../timeline/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { BranchesService } from '../refs/index.js';
import { PullsStore } from './store.js';
import { PullsService } from './service.js';
import { PULL_STATUS, type Pull } from './tables.js';
import { PullMergeCommits } from './merge-commit.js';

/**
 * A merged pull request's head branch, after the merge: deleted when asked (`delete_branch_after_merge`), once the
 * pull requests based on it have moved to the merged one's base.
 */
export class MergedHeadBranch {
  constructor(private readonly ctx: CoreContext) {}

  /**
   * After a merge, the head branch goes (Forgejo's DeleteBranchAfterMerge): not while other open pull requests use
   * it as their head; 403 for the default branch or without write access to the head repository. Pull requests
   * based on it move to the merged one's base first (`RETARGET_CHILDREN_ON_MERGE`, same repository only).
   */
  async deleteHeadBranch(actor: Actor, doer: User, access: RepoAccess, merged: Pull): Promise<void> {
    const pr = merged.pull;
    // Forgejo's HasUnmergedPullRequestsByHeadInfo: another open pull request still needs the branch.
    const others = (await this.ctx.store(PullsStore).withHead(pr.head_repo_id, pr.head_branch)).filter((p) => p.id !== pr.id);
    if (others.length > 0 && (await this.ctx.port(IssuesPort).byIds(others.map((p) => p.issue_id))).some((i) => i.is_closed === 0)) return;
    const head = await this.ctx.service(PullMergeCommits).headOf(access, pr);
    if (!head) return;
    const headAccess = head.repo.id === access.repo.id ? access : await this.ctx.service(AccessService).repoAccess(actor, head.repo, head.owner);
    if (pr.head_branch === head.repo.default_branch) throw new ForbiddenError('the head branch is the default branch');
    if (unitMode(headAccess, 'repo.code') < AccessMode.Write) throw new ForbiddenError('insufficient permission to delete head branch');
    const ref = `refs/heads/${pr.head_branch}`;
    if (!(await this.ctx.git.readRefs(repoKey(head.owner, head.repo), [ref])).has(ref)) return;
    await this.retargetChildren(actor, doer, access, merged);
    await this.ctx.service(BranchesService).delete(actor, headAccess, pr.head_branch);
    await this.ctx.transaction(async (tx) => {
      await tx.port(CommentsPort).record({ type: COMMENT_TYPES.delete_branch, poster_id: doer.id, issue_id: merged.issue.id, old_ref: pr.head_branch });
    });
  }

  /** Open pull requests into the merged one's head branch move to its base (Forgejo's RetargetChildrenOnMerge). */
  private async retargetChildren(actor: Actor, doer: User, access: RepoAccess, merged: Pull): Promise<void> {
    const pr = merged.pull;
    if (!this.ctx.settings['repository.pull-request'].RETARGET_CHILDREN_ON_MERGE || pr.head_repo_id !== pr.base_repo_id) return;
    const children = await this.ctx.store(PullsStore).withBase(pr.base_repo_id, pr.head_branch);
    if (children.length === 0) return;
    const issues = new Map((await this.ctx.port(IssuesPort).byIds(children.map((c) => c.issue_id))).map((i) => [i.id, i]));
    const open = children.filter((c) => issues.get(c.issue_id)?.is_closed === 0);
    const moved = await this.ctx.transaction(async (tx) => {
      const result: Pull[] = [];
      for (const child of open) {
        const issue = issues.get(child.issue_id)!;
        const pull = await tx.store(PullsStore).update(child.id, { base_branch: pr.base_branch, status: PULL_STATUS.checking });
        await tx.port(CommentsPort).record({ type: COMMENT_TYPES.change_target_branch, poster_id: doer.id, issue_id: issue.id, old_ref: child.base_branch, new_ref: pr.base_branch });
        tx.emit('pull.retargeted', { actor, repo: access.repo, owner: access.owner, issue, pull, previousBase: child.base_branch });
        result.push({ issue, pull });
      }
      return result;
    });
    for (const pull of moved) {
      try {
        await this.ctx.service(PullsService).refresh(pull);
      } catch (error) {
        console.error(`[repohost] checking pull request ${pull.pull.id} after its retarget failed:`, error);
      }
    }
  }
}
