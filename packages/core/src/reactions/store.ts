import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { NewReaction, Reaction, ReactionsTables } from './tables.js';

/** Which reactions: those on an issue itself (`commentId` 0) or on one comment. */
export interface ReactionTarget {
  issueId: number;
  commentId: number;
}

/** Rows per statement of a bulk insert: well under SQLite's limit of bound parameters. */
const CHUNK = 200;

/** The `reaction` table. */
export class ReactionsStore extends Store<ReactionsTables> {
  private readonly ofTargetQuery = this.precompiled<Reaction, 'issueId' | 'commentId'>('ofTarget', (db, param) =>
    db
      .selectFrom('reaction')
      .selectAll()
      .where('issue_id', '=', param('issueId'))
      .where('comment_id', '=', param('commentId'))
      .orderBy('created_unix')
      .orderBy('id'),
  );

  /** Every reaction on the target of an allowed kind (kinds no longer allowed stay stored but are not shown). */
  async ofTarget(target: ReactionTarget, allowed: ReadonlySet<string>): Promise<Reaction[]> {
    const rows = await this.ofTargetQuery(target);
    return rows.filter((row) => allowed.has(row.type));
  }

  /** A page of the target's reactions of the allowed kinds, and their count. */
  pageOfTarget(target: ReactionTarget, allowed: readonly string[], page: PageRequest): Promise<Page<Reaction>> {
    if (allowed.length === 0) return Promise.resolve({ items: [], total: 0 });
    const base = this.db
      .selectFrom('reaction')
      .where('issue_id', '=', target.issueId)
      .where('comment_id', '=', target.commentId)
      .where('type', 'in', allowed);
    return Store.page(
      base.selectAll().orderBy('created_unix').orderBy('id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** The user's own reaction of this kind on the target (not an imported one). */
  async find(target: ReactionTarget, userId: number, type: string): Promise<Reaction | undefined> {
    return this.db
      .selectFrom('reaction')
      .selectAll()
      .where('issue_id', '=', target.issueId)
      .where('comment_id', '=', target.commentId)
      .where('user_id', '=', userId)
      .where('type', '=', type)
      .where('original_author_id', '=', 0)
      .executeTakeFirst();
  }

  /** Records a reaction; undefined when the same one exists already (a concurrent request won). */
  insert(row: NewReaction): Promise<Reaction | undefined> {
    return this.db.insertInto('reaction').values(row).onConflict((oc) => oc.doNothing()).returningAll().executeTakeFirst();
  }

  /** Removes the user's own reaction of this kind on the target; whether there was one. */
  async delete(target: ReactionTarget, userId: number, type: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('reaction')
      .where('issue_id', '=', target.issueId)
      .where('comment_id', '=', target.commentId)
      .where('user_id', '=', userId)
      .where('type', '=', type)
      .where('original_author_id', '=', 0)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Removes every reaction on a comment (the comment is being deleted). */
  async deleteOfComment(commentId: number): Promise<void> {
    await this.db.deleteFrom('reaction').where('comment_id', '=', commentId).execute();
  }

  /** Reactions written by a migration, many rows at once; one already there (a re-run) is left as it is. */
  async insertMany(rows: readonly NewReaction[]): Promise<void> {
    for (let i = 0; i < rows.length; i += CHUNK) {
      await this.db.insertInto('reaction').values(rows.slice(i, i + CHUNK)).onConflict((oc) => oc.doNothing()).execute();
    }
  }
}
