import type { Expression, ExpressionBuilder, Updateable } from 'kysely';
import { Store } from '../storage/index.js';
import type { NewPullRequest, PullRequest, PullRequestTable, PullsTables } from './tables.js';

/** Branches per statement when tips are written or looked up (bound parameters stay well under SQLite's limit). */
const TIP_BATCH = 200;

/** The `pull_request` table. */
export class PullsStore extends Store<PullsTables> {
  private readonly byIssueIdQuery = this.precompiled<PullRequest, 'issueId'>('byIssueId', (db, param) =>
    db.selectFrom('pull_request').selectAll().where('issue_id', '=', param('issueId')),
  );

  async insert(row: NewPullRequest): Promise<PullRequest> {
    return this.db.insertInto('pull_request').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Unmerged pull requests in one of `statuses`, by id after `afterId`, `limit` at most (open or closed). */
  unmergedWithStatus(statuses: readonly number[], afterId: number, limit: number): Promise<PullRequest[]> {
    return this.db
      .selectFrom('pull_request')
      .selectAll()
      .where('has_merged', '=', 0)
      .where('status', 'in', [...statuses])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async byIssueId(issueId: number): Promise<PullRequest | undefined> {
    return (await this.byIssueIdQuery({ issueId }))[0];
  }

  byIssueIds(issueIds: readonly number[]): Promise<PullRequest[]> {
    return this.byIssueIdsQuery(issueIds);
  }

  private readonly byIssueIdsQuery = this.precompiledIn('byIssueIds', (db, issueIds) => db.selectFrom('pull_request').selectAll().where('issue_id', 'in', issueIds));

  /** The pull request of the repository whose merge made commit `sha` (Forgejo's `GetPullRequestByMergedCommit`). */
  byMergedCommit(baseRepoId: number, sha: string): Promise<PullRequest | undefined> {
    return this.db.selectFrom('pull_request').selectAll().where('base_repo_id', '=', baseRepoId).where('merged_commit_id', '=', sha).orderBy('id').executeTakeFirst();
  }

  byIndex(repoId: number, index: number): Promise<PullRequest | undefined> {
    return this.db.selectFrom('pull_request').selectAll().where('base_repo_id', '=', repoId).where('index', '=', index).executeTakeFirst();
  }

  /** A new base branch's tip is not known yet (unless the change says it): the next view reads it. */
  update(id: number, changes: Updateable<PullRequestTable>): Promise<PullRequest> {
    const set = changes.base_branch !== undefined && !('base_branch_commit_id' in changes) ? { ...changes, base_branch_commit_id: null } : changes;
    return this.db.updateTable('pull_request').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** A branch of `repoId` was renamed: pull requests not merged into it or from it follow it (Forgejo's RenameBranch). */
  async renameBranch(repoId: number, from: string, to: string): Promise<void> {
    await this.db.updateTable('pull_request').set({ base_branch: to }).where('base_repo_id', '=', repoId).where('base_branch', '=', from).where('has_merged', '=', 0).execute();
    await this.db.updateTable('pull_request').set({ head_branch: to }).where('head_repo_id', '=', repoId).where('head_branch', '=', from).where('has_merged', '=', 0).execute();
  }

  /**
   * Branches of `repoId` moved: every pull request into one of them (base) or from one of them (head), open,
   * closed or merged, keeps its new tip (`''`: deleted). One statement per side for up to 200 branches.
   */
  async setBranchTips(repoId: number, tips: ReadonlyMap<string, string>): Promise<void> {
    const entries = [...tips];
    for (let i = 0; i < entries.length; i += TIP_BATCH) {
      const batch = entries.slice(i, i + TIP_BATCH);
      const names = batch.map(([branch]) => branch);
      const tipOf = (column: 'base_branch' | 'head_branch') => (eb: ExpressionBuilder<PullsTables, 'pull_request'>) => {
        let cases = eb.case(column).when(batch[0]![0]).then(batch[0]![1]);
        for (const [branch, tip] of batch.slice(1)) cases = cases.when(branch).then(tip);
        return cases.end();
      };
      await this.db.updateTable('pull_request').set({ base_branch_commit_id: tipOf('base_branch') }).where('base_repo_id', '=', repoId).where('base_branch', 'in', names).execute();
      await this.db.updateTable('pull_request').set({ head_branch_commit_id: tipOf('head_branch') }).where('head_repo_id', '=', repoId).where('head_branch', 'in', names).execute();
    }
  }

  /** Of `branches`, those some pull request of `repoId` has as base or (from `repoId`) as head. */
  async branchesInUse(repoId: number, branches: readonly string[]): Promise<Set<string>> {
    const used = new Set<string>();
    for (let i = 0; i < branches.length; i += TIP_BATCH) {
      const names = branches.slice(i, i + TIP_BATCH);
      const rows = await this.db
        .selectFrom('pull_request')
        .select('base_branch as branch')
        .where('base_repo_id', '=', repoId)
        .where('base_branch', 'in', names)
        .union((db) => db.selectFrom('pull_request').select('head_branch as branch').where('head_repo_id', '=', repoId).where('head_branch', 'in', names))
        .execute();
      for (const row of rows) used.add(row.branch);
    }
    return used;
  }

  /**
   * The repository's refs may have moved without a recorded push (an interrupted one, repaired from its refs):
   * the tips of its pull requests' branches are unknown until the next view reads them again.
   */
  async forgetBranchTips(repoId: number): Promise<void> {
    await this.db.updateTable('pull_request').set({ base_branch_commit_id: null }).where('base_repo_id', '=', repoId).execute();
    await this.db.updateTable('pull_request').set({ head_branch_commit_id: null }).where('head_repo_id', '=', repoId).execute();
  }

  /**
   * Stores tips a view read from git for a pull request whose tips were unknown, only where they still are: a
   * push that moved the branch meanwhile wrote its own tip, which stays.
   */
  async fillBranchTips(id: number, tips: { base?: string; head?: string }): Promise<void> {
    if (tips.base !== undefined) await this.db.updateTable('pull_request').set({ base_branch_commit_id: tips.base }).where('id', '=', id).where('base_branch_commit_id', 'is', null).execute();
    if (tips.head !== undefined) await this.db.updateTable('pull_request').set({ head_branch_commit_id: tips.head }).where('id', '=', id).where('head_branch_commit_id', 'is', null).execute();
  }

  /** Unmerged pull requests whose head is `branch` of `headRepoId` (open or closed: a closed one may reopen). */
  withHead(headRepoId: number, branch: string): Promise<PullRequest[]> {
    return this.db
      .selectFrom('pull_request')
      .selectAll()
      .where('head_repo_id', '=', headRepoId)
      .where('head_branch', '=', branch)
      .where('has_merged', '=', 0)
      .execute();
  }

  /** Unmerged pull requests into `branch` of `baseRepoId`. */
  withBase(baseRepoId: number, branch: string): Promise<PullRequest[]> {
    return this.db
      .selectFrom('pull_request')
      .selectAll()
      .where('base_repo_id', '=', baseRepoId)
      .where('base_branch', '=', branch)
      .where('has_merged', '=', 0)
      .execute();
  }

  /** Unmerged pull requests with this head and base, open or not (the issue side says which). */
  withTargets(headRepoId: number, headBranch: string, baseRepoId: number, baseBranch: string): Promise<PullRequest[]> {
    return this.db
      .selectFrom('pull_request')
      .selectAll()
      .where('head_repo_id', '=', headRepoId)
      .where('head_branch', '=', headBranch)
      .where('base_repo_id', '=', baseRepoId)
      .where('base_branch', '=', baseBranch)
      .where('has_merged', '=', 0)
      .execute();
  }

  /** The open-or-closed pull requests of `baseRepoId` matching head and base, newest first (`/pulls/{base}/{head}`). */
  latestWithTargets(baseRepoId: number, baseBranch: string, headRepoId: number, headBranch: string): Promise<PullRequest | undefined> {
    return this.db
      .selectFrom('pull_request')
      .selectAll()
      .where('base_repo_id', '=', baseRepoId)
      .where('base_branch', '=', baseBranch)
      .where('head_repo_id', '=', headRepoId)
      .where('head_branch', '=', headBranch)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The issue ids of a repository's pull requests, narrowed by base and head branch: a subquery for issue lists. */
  issueIdsOf(baseRepoId: number, branches: { base?: string; head?: string }): Expression<number> {
    let query = this.db.selectFrom('pull_request').select('pull_request.issue_id').where('pull_request.base_repo_id', '=', baseRepoId);
    if (branches.base !== undefined) query = query.where('pull_request.base_branch', '=', branches.base);
    if (branches.head !== undefined) query = query.where('pull_request.head_branch', '=', branches.head);
    return query as unknown as Expression<number>;
  }
}
