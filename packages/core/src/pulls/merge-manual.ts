import './events.js';
import type { CoreContext } from '../context.js';
import { userActor, type Actor } from '../users/index.js';
import { AccessService } from '../access/index.js';
import { ConflictError } from '../errors.js';
import { nowUnix } from '../storage/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import { viewUnits } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import type { User } from '../users/index.js';
import { IssuesPort } from '../issues/index.js';
import { PullsStore } from './store.js';
import { PULL_STATUS, type Pull } from './tables.js';
import { PullMergeStore } from './merge-store.js';
import { alreadyMergedMessage } from './merge-checks.js';
import { PullWorkQueue } from './merge-queue.js';
import { MergedIssues } from './merge-close.js';

/** Commits of a pushed range searched for the merge commit that took a pull request's head in. */
const MANUAL_MERGE_SEARCH = 200;

/**
 * Pull requests merged outside RepoHost: marked merged by a given commit (the `manually-merged` style), or found
 * merged when a push brings their head into their base. No ref moves here.
 */
export class PullManualMergeService {
  constructor(private readonly ctx: CoreContext) {}

  private get closing(): MergedIssues {
    return this.ctx.service(MergedIssues);
  }

  /**
   * With the repository's `autodetect_manual_merge` on, a push that brings a pull request's head into its base
   * marks it merged (Forgejo's manuallyMerged check). Registered once per host, after the pull requests' own
   * handler, so the pull request was checked against the new base first.
   */
  subscribe(): void {
    this.ctx.events.on('repo.pushed', async ({ payload }) => {
      if (!viewUnits(payload.repo.units, this.ctx.settings).pulls?.autodetect_manual_merge) return;
      for (const update of payload.updates) {
        if (!update.ref.startsWith('refs/heads/') || /^0+$/.test(update.newId)) continue;
        await this.detectManualMerges(payload.repo, payload.owner, update.ref.slice('refs/heads/'.length), update.newId);
      }
    });
  }

  /** Open pull requests into `branch` whose head the branch now contains are marked merged by hand. */
  private async detectManualMerges(repo: Repository, owner: User, branch: string, tip: string): Promise<void> {
    const candidates = (await this.ctx.store(PullsStore).withBase(repo.id, branch)).filter((p) => p.head_commit_id !== '');
    if (candidates.length === 0) return;
    const key = repoKey(owner, repo);
    const issues = new Map((await this.ctx.port(IssuesPort).byIds(candidates.map((p) => p.issue_id))).map((i) => [i.id, i]));
    for (const pull of candidates) {
      const issue = issues.get(pull.issue_id);
      if (!issue || issue.is_closed === 1 || !(await this.ctx.git.isAncestor(key, pull.head_commit_id, tip))) continue;
      // The merge commit that took the head in (its parent), else the head itself (a fast-forward).
      const { commits } = await this.ctx.git.commitLog(key, { head: tip, exclude: pull.head_commit_id, detailed: MANUAL_MERGE_SEARCH, countLimit: MANUAL_MERGE_SEARCH });
      const merge = commits.find((c) => c.parents.length > 1 && c.parents.includes(pull.head_commit_id));
      const mergedId = merge?.id ?? pull.head_commit_id;
      const merger = (merge && (await this.ctx.port(UsersPort).byEmail(merge.authorEmail))) ?? owner;
      const actor = userActor(merger);
      const access = await this.ctx.service(AccessService).repoAccess(actor, repo, owner);
      await this.ctx.transaction(async (tx) => {
        await tx.port(ReposPort).lockIssueCounts(repo.id);
        const merged = await tx.store(PullMergeStore).markMerged(pull.id, {
          merged_commit_id: mergedId,
          merger_id: merger.id,
          merged_unix: merge ? Math.floor(Date.parse(merge.authorTime) / 1000) || nowUnix() : nowUnix(),
          merge_base: pull.merge_base,
          status: PULL_STATUS.manuallyMerged,
        });
        if (!merged) return;
        await tx.store(PullMergeStore).unschedule(pull.id);
        const closed = await this.closing.closeAsMerged(tx, merger, access, issue);
        tx.emit('pull.merged', { actor, repo, owner, issue: closed, pull: merged });
      });
    }
  }

  /**
   * Forgejo's MergedManually: the pull request is marked merged by `commitId`, which must be a full id of a commit
   * the base branch contains (409 "Wrong commit ID" otherwise). No ref moves.
   */
  async markManuallyMerged(actor: Actor, doer: User, access: RepoAccess, pull: Pull, commitId: string): Promise<void> {
    const key = repoKey(access.owner, access.repo);
    const width = access.repo.object_format_name === 'sha256' ? 64 : 40;
    const id = commitId.trim().toLowerCase();
    if (id.length !== width || !/^[0-9a-f]+$/.test(id)) throw new ConflictError('Wrong commit ID');
    const commit = await this.ctx.git.readObject(key, id, { maxBytes: 64 * 1024 });
    if (!commit || commit.type !== 'commit') throw new ConflictError('Wrong commit ID');
    const baseRef = `refs/heads/${pull.pull.base_branch}`;
    const baseSha = (await this.ctx.git.readRefs(key, [baseRef])).get(baseRef);
    if (!baseSha || !(await this.ctx.git.isAncestor(key, id, baseSha))) throw new ConflictError('Wrong commit ID');
    const authored = /^author .* (\d+) [+-]\d{4}$/m.exec(commit.content.toString('utf8'));
    await this.ctx.service(PullWorkQueue).oneAtATime(pull.pull.id, () =>
      this.ctx.transaction(async (tx) => {
        await tx.port(ReposPort).lockIssueCounts(access.repo.id);
        const merged = await tx.store(PullMergeStore).markMerged(pull.pull.id, {
          merged_commit_id: id,
          merger_id: doer.id,
          merged_unix: authored ? Number(authored[1]) : nowUnix(),
          merge_base: pull.pull.merge_base,
          status: PULL_STATUS.manuallyMerged,
        });
        if (!merged) throw new ConflictError(alreadyMergedMessage(pull.pull));
        await tx.store(PullMergeStore).unschedule(pull.pull.id);
        const issue = await this.closing.closeAsMerged(tx, doer, access, pull.issue);
        tx.emit('pull.merged', { actor, repo: access.repo, owner: access.owner, issue, pull: merged });
      }),
    );
  }
}
