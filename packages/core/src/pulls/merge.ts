import './events.js';
import './merge-events.js';
import type { CoreContext } from '../context.js';
import { signedInUser, type Actor } from '../users/index.js';
import { ConflictError, LockedError, NotFoundError } from '../errors.js';
import type { RefUpdate } from '../git/index.js';
import type { MergeSignature } from '../git/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import type { MergeStyle } from '../repos/index.js';
import { QuotaService } from '../quota/index.js';
import type { User } from '../users/index.js';
import { IssuesPort } from '../issues/index.js';
import { CommentsPort } from '../timeline/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { PullsStore } from './store.js';
import type { Pull } from './tables.js';
import { MergePullRequestOptionSchema, type MergePullRequestOption } from './merge-schemas.js';
import { composeMergeMessage, templateDescription } from './merge-message.js';
import { PullMergeStore, type PullAutoMerge } from './merge-store.js';
import { alreadyMergedMessage, MergeNotAllowedError, PullMergeChecks, type MergeCheck } from './merge-checks.js';
import { PullWorkQueue } from './merge-queue.js';
import { gitSignatureOf, PullMergeMessages } from './merge-messages.js';
import { PullMergeCommits } from './merge-commit.js';
import { PullMergePush } from './merge-push.js';
import { MergedIssues } from './merge-close.js';
import { PullManualMergeService } from './merge-manual.js';
import { MergedHeadBranch } from './merge-head-branch.js';

/** What a merge request ended with: merged now, or scheduled to merge once the head's checks succeed. */
export type MergeOutcome = 'merged' | 'scheduled';

/**
 * Merging pull requests (`POST …/pulls/{index}/merge` with every Forgejo style, or scheduling the merge) and
 * `GET …/merge`. The steps are others': the checks (`merge-checks.ts`), the message (`merge-messages.ts`), the
 * merged commit (`merge-commit.ts`), the base's move and its crash repair (`merge-push.ts`), the issues it closes
 * (`merge-close.ts`), merges made by hand (`merge-manual.ts`) and the head branch's deletion (`merge-head-branch.ts`).
 * Scheduled merges (`auto-merge.ts`) run `performMerge` here.
 *
 * The only visible change of a merge is the final ref update, made with the expected old id, so a concurrent push
 * makes the merge fail with nothing half done.
 */
export class PullMergeService {
  constructor(private readonly ctx: CoreContext) {}

  private get checks(): PullMergeChecks {
    return this.ctx.service(PullMergeChecks);
  }

  private get messages(): PullMergeMessages {
    return this.ctx.service(PullMergeMessages);
  }

  private get commits(): PullMergeCommits {
    return this.ctx.service(PullMergeCommits);
  }

  /** `GET …/pulls/{index}/merge`: merged or not (404). */
  assertMerged(pull: Pull): void {
    if (pull.pull.has_merged !== 1) throw new NotFoundError();
  }

  /**
   * `POST …/pulls/{index}/merge`. Returns whether it merged now or was scheduled (`merge_when_checks_succeed`:
   * Forgejo answers 201 then).
   */
  async merge(actor: Actor, access: RepoAccess, pull: Pull, input: MergePullRequestOption): Promise<MergeOutcome> {
    const doer = signedInUser(actor);
    const opts = acceptInput(MergePullRequestOptionSchema, input);
    if (access.repo.is_archived === 1) throw new LockedError();
    // Forgejo's EnforceQuotaAPI on the route: the base repository's owner must be within `size:git:all`.
    await this.ctx.service(QuotaService).assertCanWrite(access.owner, 'size:git:all');
    const style = opts.Do;
    const check: MergeCheck = style === 'manually-merged' ? 'manual' : opts.merge_when_checks_succeed ? 'auto' : 'general';
    const current = await this.checks.checkMergeable(actor, access, pull, check, opts.force_merge === true);
    const unit = this.checks.pullsUnit(access.repo);

    if (style === 'manually-merged') {
      if (!PullMergeChecks.styleAllowed(unit, style)) throw new MergeNotAllowedError(`${style} is not an allowed merge style for this repository`);
      await this.ctx.service(PullManualMergeService).markManuallyMerged(actor, doer, access, current, opts.MergeCommitID ?? '');
      return 'merged';
    }
    if (!PullMergeChecks.styleAllowed(unit, style)) throw new MergeNotAllowedError(`${style} is not an allowed merge style for this repository`);

    let message = (opts.MergeTitleField ?? '').trim();
    let extra = (opts.MergeMessageField ?? '').trim();
    if (message === '' || extra === '') {
      const facts = await this.messages.defaultMessageFacts(access, current, style);
      const template = await this.messages.mergeTemplate(access, style);
      if (message === '') message = composeMergeMessage(facts, template).title;
      // The template's lines after the first are the description unless the caller wrote one (an empty field is
      // none: Go clients always send it).
      if (extra === '') extra = (templateDescription(facts, template) ?? '').trim();
    }
    if (extra !== '') message += `\n\n${extra}`;
    const deleteBranch = opts.delete_branch_after_merge ?? unit?.default_delete_branch_after_merge ?? false;

    if (opts.merge_when_checks_succeed) {
      await this.schedule(actor, doer, access, current, style, message, deleteBranch);
      return 'scheduled';
    }

    const merged = await this.performMerge(actor, doer, access, current, style, message, opts.head_commit_id ?? '');
    if (deleteBranch) await this.ctx.service(MergedHeadBranch).deleteHeadBranch(actor, doer, access, merged);
    return 'merged';
  }

  /**
   * Merges with `style` and records it: the base branch moves (only if it is still where the merge started), the
   * pull request is marked merged and its issue closed, then the ref change is recorded as a push.
   */
  async performMerge(actor: Actor, doer: User, access: RepoAccess, pull: Pull, style: MergeStyle, message: string, expectedHead: string): Promise<Pull> {
    return this.ctx.service(PullWorkQueue).oneAtATime(pull.pull.id, async () => {
      const fresh = await this.ctx.store(PullsStore).byIssueId(pull.issue.id);
      if (!fresh) throw new NotFoundError();
      if (fresh.has_merged === 1) throw new ConflictError(alreadyMergedMessage(fresh));
      const key = repoKey(access.owner, access.repo);
      const baseRef = `refs/heads/${fresh.base_branch}`;
      const baseSha = (await this.ctx.git.readRefs(key, [baseRef])).get(baseRef);
      if (!baseSha) throw new ConflictError(`base branch ${fresh.base_branch} does not exist`);
      const head = await this.commits.headCommit(access, fresh);
      if (expectedHead !== '' && expectedHead !== head.sha) throw new ConflictError('head out of date');
      if (head.key.owner !== key.owner || head.key.name !== key.name) await this.ctx.git.copyCommit(head.key, key, head.sha);

      const committer: MergeSignature = { ...gitSignatureOf(doer, this.ctx.settings), when: new Date() };
      const newSha = await this.commits.mergedCommit(key, access, { ...pull, pull: fresh }, style, baseSha, head.sha, message, committer);
      const mergeBase = (await this.ctx.git.mergeBase(key, baseSha, head.sha)) ?? '';
      const updates: RefUpdate[] = [{ ref: baseRef, oldId: baseSha, newId: newSha }];
      await this.ctx.service(PullMergePush).moveBase(actor, access, updates, { pullId: fresh.id, mergerId: doer.id }, async (tx) => {
        const merged = await tx.store(PullMergeStore).markMerged(fresh.id, {
          merged_commit_id: newSha,
          merger_id: doer.id,
          merged_unix: nowUnix(),
          merge_base: mergeBase || fresh.merge_base,
          status: fresh.status,
        });
        if (!merged) throw new ConflictError(alreadyMergedMessage(fresh));
        // A scheduled merge is done with once the pull request is merged, however it was.
        await tx.store(PullMergeStore).unschedule(fresh.id);
        const issue = await this.ctx.service(MergedIssues).closeAsMerged(tx, doer, access, pull.issue);
        tx.emit('pull.merged', { actor, repo: access.repo, owner: access.owner, issue, pull: merged });
        return { issue, pull: merged };
      });
      const result = (await this.reload(pull)) ?? pull;
      try {
        await this.ctx.service(MergedIssues).closeReferencedIssues(result);
      } catch (error) {
        // The merge stands; the issues it names can still be closed by hand.
        console.error(`[repohost] closing the issues pull request ${result.pull.id} references failed:`, error);
      }
      return result;
    });
  }

  private async reload(pull: Pull): Promise<Pull | undefined> {
    const [issue, row] = await Promise.all([this.ctx.port(IssuesPort).byId(pull.issue.id), this.ctx.store(PullsStore).byIssueId(pull.issue.id)]);
    return issue && row ? { issue, pull: row } : undefined;
  }

  /**
   * Stores a merge to run once the head's checks succeed (409 when one is stored already). `pull.merge_scheduled`
   * lets the scheduled merges (`auto-merge.ts`) try it at once, as Forgejo's queue does: they may have succeeded.
   */
  private async schedule(actor: Actor, doer: User, access: RepoAccess, pull: Pull, style: MergeStyle, message: string, deleteBranch: boolean): Promise<PullAutoMerge> {
    try {
      return await this.ctx.transaction(async (tx) => {
        const row = await tx.store(PullMergeStore).schedule({ pull_id: pull.pull.id, doer_id: doer.id, merge_style: style, message, delete_branch_after_merge: deleteBranch });
        await tx.port(CommentsPort).record({ type: COMMENT_TYPES.pull_scheduled_merge, poster_id: doer.id, issue_id: pull.issue.id });
        tx.emit('pull.merge_scheduled', { actor, repo: access.repo, owner: access.owner, issue: pull.issue, pull: pull.pull });
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`pull request is already scheduled to auto merge when checks succeed [pull_id: ${pull.pull.id}]`);
      throw error;
    }
  }
}
