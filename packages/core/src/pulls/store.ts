import type { Expression, Updateable } from 'kysely';
import { Store } from '../storage/index.js';
import type { NewPullRequest, PullRequest, PullRequestTable, PullsTables } from './tables.js';

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
    if (issueIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('pull_request').selectAll().where('issue_id', 'in', [...new Set(issueIds)]).execute();
  }

  /** The pull request of the repository whose merge made commit `sha` (Forgejo's `GetPullRequestByMergedCommit`). */
  byMergedCommit(baseRepoId: number, sha: string): Promise<PullRequest | undefined> {
    return this.db.selectFrom('pull_request').selectAll().where('base_repo_id', '=', baseRepoId).where('merged_commit_id', '=', sha).orderBy('id').executeTakeFirst();
  }

  byIndex(repoId: number, index: number): Promise<PullRequest | undefined> {
    return this.db.selectFrom('pull_request').selectAll().where('base_repo_id', '=', repoId).where('index', '=', index).executeTakeFirst();
  }

  update(id: number, changes: Updateable<PullRequestTable>): Promise<PullRequest> {
    return this.db.updateTable('pull_request').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
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
