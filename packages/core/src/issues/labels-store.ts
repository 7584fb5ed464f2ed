import type { Expression } from 'kysely';
import { Store } from '../storage/index.js';
import type { IssuesTables } from './tables.js';

/** How many issues carry a label, and how many of them are closed. */
export interface LabelIssueCounts {
  total: number;
  closed: number;
}

/** The `issue_label` rows: which labels each issue carries. */
export class IssueLabelsStore extends Store<IssuesTables> {
  private readonly labelIdsQuery = this.precompiled<{ label_id: number }, 'issueId'>('labelIdsOfIssue', (db, param) =>
    db.selectFrom('issue_label').select('label_id').where('issue_id', '=', param('issueId')).orderBy('id'),
  );

  /** The label ids of one issue, in the order they were set. */
  async labelIdsOf(issueId: number): Promise<number[]> {
    return (await this.labelIdsQuery({ issueId })).map((row) => Number(row.label_id));
  }

  async add(issueId: number, labelIds: readonly number[]): Promise<void> {
    if (labelIds.length === 0) return;
    await this.db
      .insertInto('issue_label')
      .values(labelIds.map((label_id) => ({ issue_id: issueId, label_id })))
      .onConflict((oc) => oc.columns(['issue_id', 'label_id']).doNothing())
      .execute();
  }

  async remove(issueId: number, labelIds: readonly number[]): Promise<void> {
    if (labelIds.length === 0) return;
    await this.db.deleteFrom('issue_label').where('issue_id', '=', issueId).where('label_id', 'in', [...labelIds]).execute();
  }

  /** Takes a deleted label off every issue. */
  async removeLabelEverywhere(labelId: number): Promise<void> {
    await this.db.deleteFrom('issue_label').where('label_id', '=', labelId).execute();
  }

  /** The labels the issues of a repository carry, each once. */
  async labelIdsInRepo(repoId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('issue_label')
      .innerJoin('issue', 'issue.id', 'issue_label.issue_id')
      .select('issue_label.label_id')
      .distinct()
      .where('issue.repo_id', '=', repoId)
      .execute();
    return rows.map((r) => Number(r.label_id));
  }

  /** Takes these labels off every issue of a repository. */
  async removeInRepo(repoId: number, labelIds: readonly number[]): Promise<void> {
    if (labelIds.length === 0) return;
    await this.db
      .deleteFrom('issue_label')
      .where('label_id', 'in', [...labelIds])
      .where('issue_id', 'in', this.issueIdsOfRepo(repoId))
      .execute();
  }

  /** The ids of a repository's issues, as a subquery other domains' stores can filter by. */
  issueIdsOfRepo(repoId: number): Expression<number> {
    // A one-column select is usable wherever `in` takes a list; typed as such so other stores need no issue tables.
    return this.db.selectFrom('issue').select('issue.id').where('issue.repo_id', '=', repoId) as unknown as Expression<number>;
  }

  /**
   * Issue counts of each label in one grouped query; labels on no issue are absent. `exceptRepoId`/`exceptIssueId`
   * leave out issues being deleted in the same transaction, whichever order their rows go in.
   */
  async countsOf(labelIds: readonly number[], except: { repoId?: number; issueId?: number } = {}): Promise<Map<number, LabelIssueCounts>> {
    const counts = new Map<number, LabelIssueCounts>();
    if (labelIds.length === 0) return counts;
    let query = this.db
      .selectFrom('issue_label')
      .innerJoin('issue', 'issue.id', 'issue_label.issue_id')
      .select((eb) => ['issue_label.label_id', eb.fn.countAll<number>().as('total'), eb.fn.sum<number>('issue.is_closed').as('closed')])
      .where('issue_label.label_id', 'in', [...new Set(labelIds)])
      .groupBy('issue_label.label_id');
    if (except.repoId !== undefined) query = query.where('issue.repo_id', '!=', except.repoId);
    if (except.issueId !== undefined) query = query.where('issue.id', '!=', except.issueId);
    for (const row of await query.execute()) counts.set(Number(row.label_id), { total: Number(row.total), closed: Number(row.closed ?? 0) });
    return counts;
  }
}
