import { ReposPort } from '../repos/index.js';
import type { CoreContext } from '../context.js';
import { signedInUser, type Actor } from '../users/index.js';
import { AccessService } from '../access/index.js';
import { ConflictError, ForbiddenError, LockedError, ValidationError } from '../errors.js';
import { RefConflictError, type RefUpdate } from '../git/index.js';
import type { MergeSignature } from '../git/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey, ReposService } from '../repos/index.js';
import type { UpdateStyle } from '../repos/index.js';
import { QuotaService } from '../quota/index.js';
import { PullsStore } from './store.js';
import type { Pull } from './tables.js';
import { PullMergeChecks } from './merge-checks.js';
import { PullWorkQueue } from './merge-queue.js';
import { gitSignatureOf } from './merge-messages.js';
import { PullMergeCommits } from './merge-commit.js';

/** Bringing a pull request's base into its head branch (`POST …/pulls/{index}/update`). */
export class PullUpdateService {
  constructor(private readonly ctx: CoreContext) {}

  private get checks(): PullMergeChecks {
    return this.ctx.service(PullMergeChecks);
  }

  /**
   * `POST …/pulls/{index}/update`: merges the base into the head branch (`merge`, "Merge branch 'base' into head")
   * or replays the head onto the base and force-moves the head branch (`rebase`). Needs write access to the head
   * repository's code (or maintainer edits allowed and write access to the base's); 409 on conflicts.
   */
  async update(actor: Actor, access: RepoAccess, pull: Pull, style: UpdateStyle = 'merge'): Promise<void> {
    const doer = signedInUser(actor);
    if (pull.pull.has_merged === 1) throw new ValidationError('', 'the pull request is merged');
    if (pull.issue.is_closed === 1) throw new ValidationError('', 'the pull request is closed');
    const head = await this.ctx.service(PullMergeCommits).headOf(access, pull.pull);
    if (!head) throw new ConflictError('the head repository is gone');
    const headAccess = head.repo.id === access.repo.id ? access : await this.ctx.service(AccessService).repoAccess(actor, head.repo, head.owner);
    // Forgejo's IsUserAllowedToUpdate: a merge into the head branch as if it were a base; a protected head branch
    // is never rebased (that needs a force push) and is updated only by who may push to it.
    const headRule = await this.checks.protection.ruleFor(head.repo, pull.pull.head_branch);
    if (headRule && !(await this.checks.protection.canUserPush(headRule, doer, headAccess))) throw new ForbiddenError('user is not allowed to update the pull request');
    const writesHead = await this.checks.protection.isUserAllowedToMerge(actor, headAccess, headRule);
    const maintainer = pull.pull.allow_maintainer_edit === 1 && (await this.checks.protection.isUserAllowedToMerge(actor, access, headRule));
    const mayUpdate = writesHead || maintainer;
    const mayRebase = mayUpdate && !headRule && (this.checks.pullsUnit(head.repo)?.allow_rebase_update ?? false);
    if (style === 'rebase' ? !mayRebase : !mayUpdate) throw new ForbiddenError('user is not allowed to update the pull request');
    if (head.repo.is_archived === 1) throw new LockedError();
    await this.ctx.service(QuotaService).assertCanWrite(head.owner, 'size:git:all');

    await this.ctx.service(PullWorkQueue).oneAtATime(pull.pull.id, async () => {
      const fresh = (await this.ctx.store(PullsStore).byIssueId(pull.issue.id)) ?? pull.pull;
      const baseKey = repoKey(access.owner, access.repo);
      const headKey = repoKey(head.owner, head.repo);
      const baseRef = `refs/heads/${fresh.base_branch}`;
      const headRef = `refs/heads/${fresh.head_branch}`;
      const baseSha = (await this.ctx.git.readRefs(baseKey, [baseRef])).get(baseRef);
      const headSha = (await this.ctx.git.readRefs(headKey, [headRef])).get(headRef);
      if (!baseSha) throw new ConflictError(`base branch ${fresh.base_branch} does not exist`);
      if (!headSha) throw new ConflictError(`head branch ${fresh.head_branch} does not exist`);
      const sameRepo = head.repo.id === access.repo.id;
      if (!sameRepo) await this.ctx.git.copyCommit(headKey, baseKey, headSha);
      if (await this.ctx.git.isAncestor(baseKey, baseSha, headSha)) throw new ConflictError(`HeadBranch of PR ${pull.issue.index} is up to date`);
      const committer: MergeSignature = { ...gitSignatureOf(doer, this.ctx.settings), when: new Date() };

      let newSha: string;
      if (style === 'rebase') {
        const rebased = await this.ctx.git.rebaseCommits(baseKey, { onto: baseSha, head: headSha, committer });
        if ('conflict' in rebased) throw new ConflictError('rebase failed because of conflict');
        newSha = rebased.head;
      } else {
        const merged = await this.ctx.git.mergeTree(baseKey, headSha, baseSha);
        if (!merged.tree || merged.conflicts.length > 0) throw new ConflictError('merge failed because of conflict');
        const message = `Merge branch '${fresh.base_branch}' into ${fresh.head_branch}`;
        newSha = await this.ctx.git.commitTree(baseKey, { tree: merged.tree, parents: [headSha, baseSha], message, author: committer, committer });
      }
      if (!sameRepo) await this.ctx.git.copyCommit(baseKey, headKey, newSha);
      const updates: RefUpdate[] = [{ ref: headRef, oldId: headSha, newId: newSha }];
      const repos = this.ctx.service(ReposService);
      const intent = await repos.beginPush(headAccess);
      try {
        await this.ctx.git.updateRefs(headKey, updates);
      } catch (error) {
        if (error instanceof RefConflictError) {
          await this.ctx.port(ReposPort).endIntent(intent);
          throw new ConflictError('update push out of date');
        }
        await repos.resyncFromRefs(head.repo, headKey, intent);
        throw error;
      }
      // The push is what moves the pull request's own head ref and announces `pull.synchronized`.
      await repos.recordPush(actor, headAccess, updates, intent);
    });
  }
}
