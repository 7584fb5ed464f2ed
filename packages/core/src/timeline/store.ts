import type { Expression } from 'kysely';
import { nowUnix } from '../storage/index.js';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { Schema } from '../storage/index.js';
import type { Comment, CommentsTables, NewComment } from './tables.js';
import { COMMENT_TYPES, RefAction } from './types.js';

/** Which comments of a list: one type (absent: every type but code comments), updated within a window. */
export interface CommentFilter {
  type?: number;
  /** Updated at or after (unix seconds). */
  since?: number;
  /** Updated at or before (unix seconds). */
  before?: number;
}

/** A comment or timeline event to record: its times default to now. */
export type CommentDraft = Omit<NewComment, 'created_unix' | 'updated_unix'> & Partial<Pick<NewComment, 'created_unix' | 'updated_unix'>>;

/**
 * The `comment` table: comments and timeline events. Lists of a repository's comments join `issue` for its
 * repository and kind, so the store reads that table too (never writes it).
 */
export class CommentsStore extends Store<CommentsTables & Pick<Schema, 'issue'>> {
  /** The instance's comments of one type. */
  async countOfType(type: number): Promise<number> {
    return Store.count(await this.db.selectFrom('comment').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', type).executeTakeFirst());
  }

  private readonly byIdQuery = this.precompiled<Comment, 'id'>('byId', (db, param) => db.selectFrom('comment').selectAll().where('id', '=', param('id')));

  /** Records a comment or a timeline event; `created_unix`/`updated_unix` default to now. */
  async insert(row: CommentDraft): Promise<Comment> {
    const now = nowUnix();
    return this.db
      .insertInto('comment')
      .values({ ...row, created_unix: row.created_unix ?? now, updated_unix: row.updated_unix ?? now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async byId(id: number): Promise<Comment | undefined> {
    return (await this.byIdQuery({ id }))[0];
  }

  byIds(ids: readonly number[]): Promise<Comment[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('comment').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  }

  /** An issue's comments of the filter, oldest first (Forgejo's order: created, then id); all, or one page. */
  ofIssue(issueId: number, filter: CommentFilter, page?: PageRequest): Promise<Page<Comment>> {
    const base = this.db
      .selectFrom('comment')
      .where('issue_id', '=', issueId)
      .$if(filter.type !== undefined, (q) => q.where('type', '=', filter.type!))
      .$if(filter.type === undefined, (q) => q.where('type', '!=', COMMENT_TYPES.code))
      .$if(filter.since !== undefined, (q) => q.where('updated_unix', '>=', filter.since!))
      .$if(filter.before !== undefined, (q) => q.where('updated_unix', '<=', filter.before!));
    const rows = base.selectAll().orderBy('created_unix').orderBy('id');
    return Store.page(
      (page ? rows.limit(page.limit).offset(offsetOf(page)) : rows).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** A page of a repository's comments of the filter (on issues, pull requests or both: `isPull`), oldest first. */
  ofRepo(repoId: number, filter: CommentFilter & { isPull?: boolean }, page: PageRequest): Promise<Page<Comment>> {
    const base = this.db
      .selectFrom('comment')
      .innerJoin('issue', 'issue.id', 'comment.issue_id')
      .where('issue.repo_id', '=', repoId)
      .$if(filter.isPull !== undefined, (q) => q.where('issue.is_pull', '=', filter.isPull ? 1 : 0))
      .$if(filter.type !== undefined, (q) => q.where('comment.type', '=', filter.type!))
      .$if(filter.since !== undefined, (q) => q.where('comment.updated_unix', '>=', filter.since!))
      .$if(filter.before !== undefined, (q) => q.where('comment.updated_unix', '<=', filter.before!));
    return Store.page(
      base.selectAll('comment').orderBy('comment.created_unix').orderBy('comment.id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Changes a comment's body if nobody changed it since `version` was read; undefined when someone did. */
  updateContent(id: number, version: number, content: string, updatedUnix: number): Promise<Comment | undefined> {
    return this.db
      .updateTable('comment')
      .set({ content, content_version: version + 1, updated_unix: updatedUnix })
      .where('id', '=', id)
      .where('content_version', '=', version)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('comment').where('id', '=', id).execute();
  }

  /** How many comments an issue has that count as its conversation (plain comments and reviews). */
  async countConversation(issueId: number): Promise<number> {
    const row = await this.db
      .selectFrom('comment')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('issue_id', '=', issueId)
      .where('type', 'in', [COMMENT_TYPES.comment, COMMENT_TYPES.review])
      .executeTakeFirst();
    return Store.count(row);
  }

  /** The references still in effect that an issue's body (`commentId` 0) or one comment made on other issues. */
  activeReferencesFrom(issueId: number, commentId: number): Promise<Comment[]> {
    return this.db
      .selectFrom('comment')
      .selectAll()
      .where('ref_issue_id', '=', issueId)
      .where('ref_comment_id', '=', commentId)
      .where('ref_action', 'in', [RefAction.None, RefAction.Closes, RefAction.Reopens])
      .execute();
  }

  /** Marks references as no longer in effect (their origin changed or went away); they stay in the timelines. */
  async neuter(ids: readonly number[], updatedUnix = nowUnix()): Promise<void> {
    if (ids.length === 0) return;
    await this.db.updateTable('comment').set({ ref_action: RefAction.Neutered, updated_unix: updatedUnix }).where('id', 'in', [...ids]).execute();
  }

  /** Marks the comment changed now (Forgejo re-saves a comment when a file is attached to it). */
  async touch(id: number): Promise<void> {
    await this.db.updateTable('comment').set({ updated_unix: nowUnix() }).where('id', '=', id).execute();
  }

  /** Of these issues, those whose timeline already references commit `sha`. */
  async issuesReferencingCommit(issueIds: readonly number[], sha: string): Promise<Set<number>> {
    if (issueIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('comment')
      .select('issue_id')
      .where('type', '=', COMMENT_TYPES.commit_ref)
      .where('commit_sha', '=', sha)
      .where('issue_id', 'in', [...new Set(issueIds)])
      .execute();
    return new Set(rows.map((r) => r.issue_id));
  }

  /** References issue `issueId` made that close or reopen the issues they name, oldest first. */
  closingReferencesFrom(issueId: number): Promise<Comment[]> {
    return this.db
      .selectFrom('comment')
      .selectAll()
      .where('ref_issue_id', '=', issueId)
      .where('ref_action', 'in', [RefAction.Closes, RefAction.Reopens])
      .orderBy('id')
      .execute();
  }

  /** Drops the `label` events that name a deleted label (Forgejo deletes them with the label). */
  async deleteLabelEvents(labelId: number): Promise<void> {
    await this.db.deleteFrom('comment').where('type', '=', COMMENT_TYPES.label).where('label_id', '=', labelId).execute();
  }

  /** Drops the `label` events naming these labels on these issues (labels a transferred repository may no longer use). */
  async deleteLabelEventsOn(labelIds: readonly number[], issueIds: Expression<number>): Promise<void> {
    if (labelIds.length === 0) return;
    await this.db
      .deleteFrom('comment')
      .where('type', '=', COMMENT_TYPES.label)
      .where('label_id', 'in', [...labelIds])
      .where('issue_id', 'in', issueIds)
      .execute();
  }
}
