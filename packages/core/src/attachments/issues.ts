/**
 * What a download asks of the issue an attachment is on: whether the actor may read it. Issues sit above
 * attachments (an issue's files are `IssueAttachmentsService`), so attachments declares the call and the issues
 * domain provides it (`attachments.issues`).
 */
import type { RepoAccess } from '../repos/index.js';
import type { Attachment } from './tables.js';

export interface AttachedIssues {
  /** Does the attachment's issue exist in its repository, and may the holder of `access` read it? */
  mayReadIssueOf(access: RepoAccess, attachment: Attachment): Promise<boolean>;
}

declare module '../context.js' {
  interface CoreProviders {
    'attachments.issues': AttachedIssues;
  }
}
