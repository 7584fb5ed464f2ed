import type { AttachmentTable, Attachment } from '../attachments/index.js';
import { Store } from '../storage/index.js';

/** The `attachment` rows that are release assets (`release_id` set); inserts and renames go through AttachmentsPort. */
interface ReleaseAssetTables {
  attachment: AttachmentTable;
}

/** Release assets: the attachment queries by release. */
export class ReleaseAssetsStore extends Store<ReleaseAssetTables> {
  /** The assets of these releases, by release then name (Forgejo's order), in one query. */
  ofReleases(releaseIds: readonly number[]): Promise<Attachment[]> {
    if (releaseIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('attachment')
      .selectAll()
      .where('release_id', 'in', [...new Set(releaseIds)])
      .orderBy('release_id')
      .orderBy('name')
      .orderBy('id')
      .execute();
  }

  async setExternalUrl(id: number, externalUrl: string): Promise<void> {
    await this.db.updateTable('attachment').set({ external_url: externalUrl }).where('id', '=', id).execute();
  }
}
