import type { StoreScope } from '../storage/index.js';
import { AttachmentsStore } from './store.js';
import type { Attachment, NewAttachment } from './tables.js';

/**
 * What other domains read and write of attachments: those of issues and comments for their views and their files'
 * routes, and release
 * assets' rows, which the releases domain manages. The attachments stores stay private to this folder.
 */
export class AttachmentsPort {
  constructor(private readonly scope: StoreScope) {}

  private get attachments(): AttachmentsStore {
    return this.scope.store(AttachmentsStore);
  }

  // ---- reads ----

  /** One attachment by id (a release asset; the caller checks it belongs where it was asked for). */
  byId(id: number): Promise<Attachment | undefined> {
    return this.attachments.byId(id);
  }

  /** The attachments of these issues themselves (not of their comments), oldest first, in one query. */
  ofIssues(issueIds: readonly number[]): Promise<Attachment[]> {
    return this.attachments.ofIssues(issueIds);
  }

  /** The attachments of these comments, oldest first, in one query: keeps a page's query count fixed. */
  ofComments(commentIds: readonly number[]): Promise<Attachment[]> {
    return this.attachments.ofComments(commentIds);
  }

  /** Every attachment of an issue, its comments' included (what goes with the issue). */
  allOfIssue(issueId: number): Promise<Attachment[]> {
    return this.attachments.allOfIssue(issueId);
  }

  // ---- writes (release assets) ----

  /** Records an attachment whose bytes are stored already (a release asset, uploaded or migrated). */
  insert(row: NewAttachment): Promise<Attachment> {
    return this.attachments.insert(row);
  }

  /** Renames an attachment (a release asset edited). */
  rename(id: number, name: string): Promise<void> {
    return this.attachments.rename(id, name);
  }

  /** Deletes these rows, a bounded number per statement; their blobs are the caller's to delete. */
  deleteByIds(ids: readonly number[]): Promise<void> {
    return this.attachments.deleteByIds(ids);
  }
}
