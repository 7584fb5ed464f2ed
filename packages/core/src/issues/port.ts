import type { Expression } from 'kysely';
import type { Page, PageRequest } from '../paging.js';
import type { StoreScope } from '../storage/index.js';
import { IssueImportStore } from './import-store.js';
import { IssueLabelsStore, type LabelIssueCounts } from './labels-store.js';
import { IssuesStore, type IssueFilter, type IssueOrder } from './store.js';
import type { Issue, NewIssue } from './tables.js';

export type { IssueFilter, IssueOrder, LabelIssueCounts };

/** A repository's issue and pull request counts, open and closed (its `num_issues`… counters). */
export interface RepoIssueCounts {
  issues: number;
  closedIssues: number;
  pulls: number;
  closedPulls: number;
}

/** How many issues a milestone holds, and how many of them are closed (its `num_issues`, `num_closed_issues`). */
export interface MilestoneIssueCounts {
  total: number;
  closed: number;
}

/**
 * Where recounted issue counts go: the owners of those counters (the repos and milestones ports, passed by the
 * caller, so this domain imports neither).
 */
export interface IssueCounters {
  repos: { lockIssueCounts(repoId: number): Promise<void>; setIssueCounts(repoId: number, counts: RepoIssueCounts): Promise<void> };
  milestones: { setIssueCounts(milestoneId: number, counts: MilestoneIssueCounts): Promise<void> };
}

/**
 * What other domains read and write of issues (and pull requests' issue side): the rows, their labels and
 * assignees, the times and counts other domains' changes move, and the counters counted from issues. The issues
 * stores stay private to this folder.
 */
export class IssuesPort {
  constructor(private readonly scope: StoreScope) {}

  /** Every issue and pull request of the instance (Forgejo's `CountIssues` without options). */
  countAll(): Promise<number> {
    return this.issues.countAll();
  }

  private get issues(): IssuesStore {
    return this.scope.store(IssuesStore);
  }

  private get issueLabels(): IssueLabelsStore {
    return this.scope.store(IssueLabelsStore);
  }

  private get imports(): IssueImportStore {
    return this.scope.store(IssueImportStore);
  }

  // ---- reads ----

  /** The issue (or pull request's issue) with this id. */
  byId(id: number): Promise<Issue | undefined> {
    return this.issues.byId(id);
  }

  /** The issues with these ids, in one query (no order): keeps a page's query count fixed. */
  byIds(ids: readonly number[]): Promise<Issue[]> {
    return this.issues.byIds(ids);
  }

  /** The repository's issue or pull request number `index` (a reference such as `#3` or `owner/repo#3`). */
  byIndex(repoId: number, index: number): Promise<Issue | undefined> {
    return this.issues.byIndex(repoId, index);
  }

  /** A page of the issues `filter` lets through, in `sort` order, and their count (the pull request list). */
  list(filter: IssueFilter, sort: IssueOrder, page: PageRequest): Promise<Page<Issue>> {
    return this.issues.list(filter, sort, page);
  }

  /** The assignees of each issue (user ids in the order they were assigned), in one query. */
  assigneesOf(issueIds: readonly number[]): Promise<Map<number, number[]>> {
    return this.issues.assigneesOf(issueIds);
  }

  /** How many of the issues this one depends on are still open (a merge waits for them). */
  countOpenDependencies(issueId: number): Promise<number> {
    return this.issues.countOpenDependencies(issueId);
  }

  // ---- times and counts other domains' changes move ----

  /** Marks the issue changed now (tracked time, an attachment of the issue itself). */
  touch(issueId: number): Promise<void> {
    return this.issues.touch(issueId);
  }

  /** Marks the issue changed at `unix` (a comment, a reference, a push, a review); answers the issue as it is now. */
  markUpdated(issueId: number, unix: number): Promise<Issue> {
    return this.issues.update(issueId, { updated_unix: unix });
  }

  /** Sets the issue's updated time to a given moment without reading it back (a migration's dated upload). */
  setUpdateDate(issueId: number, unix: number): Promise<void> {
    return this.issues.setUpdateDate(issueId, unix);
  }

  /** Moves the count of plain comments by `delta` and marks the issue changed (a comment posted). */
  addComments(issueId: number, delta: number): Promise<void> {
    return this.issues.addComments(issueId, delta);
  }

  /**
   * Sets the issue's comment count to what `count` answers (the conversation as the timeline counts it, after a
   * deletion or a review); the issue's updated time stays. The issue's row is locked before counting (PostgreSQL), so a
   * comment posted meanwhile by another process is either seen by the count or added to it after.
   */
  async recountConversation(issueId: number, count: () => Promise<number>): Promise<void> {
    await this.issues.lockRow(issueId);
    await this.issues.setNumComments(issueId, await count());
  }

  /** Takes a deleted milestone off every issue that carried it (no timeline entry, no change time). */
  clearMilestone(milestoneId: number): Promise<void> {
    return this.issues.clearMilestone(milestoneId);
  }

  /**
   * Brings the repository's issue and pull request counters, and those of these milestones, to what the issue
   * table holds now: after issues were opened, closed, moved between milestones, deleted or imported. The one
   * place these counters are counted; `counters` writes them through their owners' ports. The repository's row is
   * locked first, so that two processes recounting one repository's counters (or its milestones', which only this
   * method writes) count and write in turn, each seeing what the other committed.
   */
  async recountAfterStateChange(repoId: number, milestoneIds: readonly number[], counters: IssueCounters): Promise<void> {
    await counters.repos.lockIssueCounts(repoId);
    await counters.repos.setIssueCounts(repoId, await this.issues.countsOfRepo(repoId));
    const ids = [...new Set(milestoneIds)];
    if (ids.length === 0) return;
    const counts = await this.issues.countsOfMilestones(ids);
    for (const id of ids) await counters.milestones.setIssueCounts(id, counts.get(id) ?? { total: 0, closed: 0 });
  }

  // ---- labels on issues (the `issue_label` rows; the labels domain keeps the labels and their counts) ----

  /** The label ids of one issue, in the order they were set. */
  labelIdsOfIssue(issueId: number): Promise<number[]> {
    return this.issueLabels.labelIdsOf(issueId);
  }

  /** Sets these labels on the issue (those it carries already stay once). */
  addLabels(issueId: number, labelIds: readonly number[]): Promise<void> {
    return this.issueLabels.add(issueId, labelIds);
  }

  /** Takes these labels off the issue. */
  removeLabels(issueId: number, labelIds: readonly number[]): Promise<void> {
    return this.issueLabels.remove(issueId, labelIds);
  }

  /** Takes a deleted label off every issue. */
  removeLabelEverywhere(labelId: number): Promise<void> {
    return this.issueLabels.removeLabelEverywhere(labelId);
  }

  /** The labels the issues of a repository carry, each once. */
  labelIdsInRepo(repoId: number): Promise<number[]> {
    return this.issueLabels.labelIdsInRepo(repoId);
  }

  /** Takes these labels off every issue of a repository (labels it may no longer use after a transfer). */
  removeLabelsInRepo(repoId: number, labelIds: readonly number[]): Promise<void> {
    return this.issueLabels.removeInRepo(repoId, labelIds);
  }

  /** The ids of a repository's issues, as a subquery other domains' stores filter by (no query of its own). */
  issueIdsOfRepo(repoId: number): Expression<number> {
    return this.issueLabels.issueIdsOfRepo(repoId);
  }

  /**
   * Issue counts of each label in one grouped query, for the labels' counters; labels on no issue are absent.
   * `except` leaves out issues being deleted in the same transaction.
   */
  labelCounts(labelIds: readonly number[], except: { repoId?: number; issueId?: number } = {}): Promise<Map<number, LabelIssueCounts>> {
    return this.issueLabels.countsOf(labelIds, except);
  }

  // ---- migrations ----

  /** Writes a migration's issues and pull requests with the numbers the remote gave them, many per statement. */
  insertImported(rows: readonly NewIssue[]): Promise<Issue[]> {
    return this.imports.insertMany(rows);
  }

  /** Sets imported issues' labels, many per statement. */
  addImportedLabels(pairs: readonly { issue_id: number; label_id: number }[]): Promise<void> {
    return this.imports.addLabels(pairs);
  }

  /** Sets imported issues' assignees, many per statement. */
  addImportedAssignees(pairs: readonly { issue_id: number; assignee_id: number }[]): Promise<void> {
    return this.imports.addAssignees(pairs);
  }

  /** Numbers of the repository's issues among these (a re-run finds what an earlier attempt wrote). */
  existingIndexes(repoId: number, indexes: readonly number[]): Promise<Set<number>> {
    return this.imports.existingIndexes(repoId, indexes);
  }

  /** Moves the repository's index sequence past its highest issue number, so new issues continue after it. */
  /** Sets `num_comments` of every issue of the repository to its count of plain comments (after an import). */
  recountComments(repoId: number): Promise<void> {
    return this.imports.recountComments(repoId);
  }

  continueIndexAfterHighest(repoId: number): Promise<void> {
    return this.imports.continueIndexAfterHighest(repoId);
  }
}
