import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import type { Attachment, AttachmentsTables, NewAttachment } from './tables.js';

/** Ids per DELETE statement: well under SQLite's limit of bound parameters. */
const DELETE_CHUNK = 500;

/** The `attachment` table. */
export class AttachmentsStore extends Store<AttachmentsTables> {
  private readonly byIdQuery = this.precompiled<Attachment, 'id'>('byId', (db, param) =>
    db.selectFrom('attachment').selectAll().where('id', '=', param('id')),
  );
  private readonly byUuidQuery = this.precompiled<Attachment, 'uuid'>('byUuid', (db, param) =>
    db.selectFrom('attachment').selectAll().where('uuid', '=', param('uuid')),
  );

  async insert(row: NewAttachment): Promise<Attachment> {
    return this.db.insertInto('attachment').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async byId(id: number): Promise<Attachment | undefined> {
    return (await this.byIdQuery({ id }))[0];
  }

  async byUuid(uuid: string): Promise<Attachment | undefined> {
    return (await this.byUuidQuery({ uuid }))[0];
  }

  /** The attachments of these issues themselves (not of their comments), oldest first, in one query. */
  ofIssues(issueIds: readonly number[]): Promise<Attachment[]> {
    return this.ofIssuesQuery(issueIds);
  }

  private readonly ofIssuesQuery = this.precompiledIn('ofIssues', (db, issueIds) =>
    db.selectFrom('attachment').selectAll().where('issue_id', 'in', issueIds).where('comment_id', '=', sql.lit(0)).orderBy('id'),
  );

  /** The attachments of these comments, oldest first, in one query. */
  ofComments(commentIds: readonly number[]): Promise<Attachment[]> {
    if (commentIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('attachment').selectAll().where('comment_id', 'in', [...new Set(commentIds)]).orderBy('id').execute();
  }

  /** Every attachment of an issue, its comments' included. */
  allOfIssue(issueId: number): Promise<Attachment[]> {
    return this.db.selectFrom('attachment').selectAll().where('issue_id', '=', issueId).execute();
  }

  allOfRepo(repoId: number): Promise<Attachment[]> {
    return this.db.selectFrom('attachment').selectAll().where('repo_id', '=', repoId).execute();
  }

  /** Of these uuids, the ones that have a row. */
  async existingUuids(uuids: readonly string[]): Promise<Set<string>> {
    if (uuids.length === 0) return new Set();
    const rows = await this.db.selectFrom('attachment').select('uuid').where('uuid', 'in', [...uuids]).execute();
    return new Set(rows.map((r) => r.uuid));
  }

  async rename(id: number, name: string): Promise<void> {
    await this.db.updateTable('attachment').set({ name }).where('id', '=', id).execute();
  }

  async countDownload(id: number): Promise<void> {
    await this.db
      .updateTable('attachment')
      .set({ download_count: sql<number>`download_count + 1` })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes these rows, a bounded number per statement (a repository may hold many). */
  async deleteByIds(ids: readonly number[]): Promise<void> {
    for (let at = 0; at < ids.length; at += DELETE_CHUNK) {
      await this.db.deleteFrom('attachment').where('id', 'in', ids.slice(at, at + DELETE_CHUNK)).execute();
    }
  }
}
