import type { Schema } from '../storage/index.js';
import { Store } from '../storage/index.js';
import type { Attachment, AttachmentsTables } from './tables.js';

/** The tables whose rows hold attachments (read only here). */
type AttachmentHolderTables = AttachmentsTables & Pick<Schema, 'issue' | 'comment' | 'repository' | 'release'>;

/** Attachments whose holder is gone: what a crash between a deletion and its clean-up leaves. */
export class AttachmentOrphansStore extends Store<AttachmentHolderTables> {
  /** Attachments of repositories, issues, comments or releases that no longer exist, in one query. */
  orphanedRows(): Promise<Attachment[]> {
    return this.db
      .selectFrom('attachment as a')
      .selectAll('a')
      .where((eb) =>
        eb.or([
          eb.not(eb.exists(eb.selectFrom('repository as r').select('r.id').whereRef('r.id', '=', 'a.repo_id'))),
          eb.and([eb('a.issue_id', '>', 0), eb.not(eb.exists(eb.selectFrom('issue as i').select('i.id').whereRef('i.id', '=', 'a.issue_id')))]),
          eb.and([eb('a.comment_id', '>', 0), eb.not(eb.exists(eb.selectFrom('comment as c').select('c.id').whereRef('c.id', '=', 'a.comment_id')))]),
          eb.and([eb('a.release_id', '>', 0), eb.not(eb.exists(eb.selectFrom('release as rl').select('rl.id').whereRef('rl.id', '=', 'a.release_id')))]),
        ]),
      )
      .execute();
  }
}
