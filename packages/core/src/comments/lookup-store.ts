import { nowUnix } from '../storage/database.js';
import { Store } from '../storage/store.js';
import type { Comment, CommentsTables } from './tables.js';

/** Finding one comment by id (the attachments routes load `/issues/comments/{id}` with it). */
export class CommentLookupStore extends Store<CommentsTables> {
  private readonly byIdQuery = this.precompiled<Comment, 'id'>('byId', (db, param) =>
    db.selectFrom('comment').selectAll().where('id', '=', param('id')),
  );

  async byId(id: number): Promise<Comment | undefined> {
    return (await this.byIdQuery({ id }))[0];
  }

  /** Marks the comment changed now (Forgejo re-saves a comment when a file is attached to it). */
  async touch(id: number): Promise<void> {
    await this.db.updateTable('comment').set({ updated_unix: nowUnix() }).where('id', '=', id).execute();
  }
}
