import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * A file uploaded to an issue (`comment_id` 0), a comment of one (both set) or a release (`release_id`), as
 * Forgejo stores it. Its bytes are the blob `attachmentBlobKey(uuid)`; `external_url` replaces them for release
 * assets that only link elsewhere.
 */
export interface AttachmentTable {
  id: Generated<number>;
  /** The public name of the file: download URLs use it, never the id. */
  uuid: string;
  repo_id: number;
  issue_id: Generated<number>;
  release_id: Generated<number>;
  uploader_id: number;
  comment_id: Generated<number>;
  name: string;
  download_count: Generated<number>;
  size: Generated<number>;
  created_unix: number;
  external_url: Generated<string>;
}

/** The tables the attachments domain owns. */
export interface AttachmentsTables {
  attachment: AttachmentTable;
}

export type Attachment = Selectable<AttachmentTable>;
export type NewAttachment = Insertable<AttachmentTable>;

/** Where an attachment's bytes are kept: Forgejo's layout, `a/b/ab…` from the uuid's first two characters. */
export function attachmentBlobKey(uuid: string): string {
  return `${uuid.slice(0, 1)}/${uuid.slice(1, 2)}/${uuid}`;
}

declare module '../storage/schema.js' {
  interface Schema extends AttachmentsTables {}
}
