import type { CoreContext, CoreTransaction } from '../context.js';
import { userActor } from '../users/index.js';
import { AccessService } from '../access/index.js';
import { PreconditionFailedError } from '../errors.js';
import type { RepoAccess } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import type { User } from '../users/index.js';
import { IssuesService } from '../issues/index.js';
import { IssuesPort } from '../issues/index.js';
import type { Issue } from '../issues/index.js';
import { MilestonesPort } from '../milestones/index.js';
import { CommentsPort } from '../timeline/index.js';
import { RefAction } from '../timeline/index.js';
import type { Pull } from './tables.js';

/**
 * The issues a merge closes: the pull request's own (however it was merged: by a merge, by hand, found merged by a
 * push, or repaired after a crash), and those its text says it closes or reopens.
 */
export class MergedIssues {
  constructor(private readonly ctx: CoreContext) {}

  /**
   * Closes the issue side of a merged pull request with Forgejo's `merge_pull` timeline event. The transaction
   * takes `ReposPort.lockIssueCounts` first, before it writes the pull request (a push locks in that order).
   */
  async closeAsMerged(tx: CoreTransaction, doer: User, access: RepoAccess, issue: Issue): Promise<Issue> {
    const current = (await tx.port(IssuesPort).byId(issue.id)) ?? issue;
    if (current.is_closed === 1) return current;
    const closed = await this.ctx.service(IssuesService).setClosed(tx, doer, access, current, true, '', { mergePull: true });
    await tx.port(IssuesPort).recountAfterStateChange(access.repo.id, closed.milestone_id > 0 ? [closed.milestone_id] : [], { repos: tx.port(ReposPort), milestones: tx.port(MilestonesPort) });
    return closed;
  }

  /**
   * Issues the pull request says it closes (or reopens) follow once it is merged, by its poster and with the
   * merge commit (Forgejo's handleCloseCrossReferences); an issue still blocked by dependencies stays open.
   */
  async closeReferencedIssues(merged: Pull): Promise<void> {
    const refs = await this.ctx.port(CommentsPort).closingReferencesFrom(merged.issue.id);
    if (refs.length === 0) return;
    // The latest reference to each issue decides.
    const latest = new Map<number, number>();
    for (const ref of refs) latest.set(ref.issue_id, ref.ref_action);
    const poster = await this.ctx.port(UsersPort).byId(merged.issue.poster_id);
    if (!poster) return;
    const actor = userActor(poster);
    const issues = await this.ctx.port(IssuesPort).byIds([...latest.keys()]);
    for (const issue of issues) {
      const close = latest.get(issue.id) === RefAction.Closes;
      if (close === (issue.is_closed === 1)) continue;
      const repo = await this.ctx.port(ReposPort).byId(issue.repo_id);
      const owner = repo && (await this.ctx.port(UsersPort).byId(repo.owner_id));
      if (!repo || !owner) continue;
      const access = await this.ctx.service(AccessService).repoAccess(actor, repo, owner);
      try {
        await this.ctx.transaction(async (tx) => {
          await tx.port(ReposPort).lockIssueCounts(repo.id);
          const changed = await this.ctx.service(IssuesService).setClosed(tx, poster, access, issue, close, merged.pull.merged_commit_id);
          await tx.port(IssuesPort).recountAfterStateChange(repo.id, changed.milestone_id > 0 ? [changed.milestone_id] : [], { repos: tx.port(ReposPort), milestones: tx.port(MilestonesPort) });
          tx.emit(close ? 'issue.closed' : 'issue.reopened', { actor, repo, owner, issue: changed, commitId: merged.pull.merged_commit_id });
        });
      } catch (error) {
        // Open dependencies keep it open, as Forgejo allows.
        if (!(error instanceof PreconditionFailedError)) throw error;
      }
    }
  }
}
