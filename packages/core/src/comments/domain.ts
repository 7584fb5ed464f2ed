import { defineDomain } from '../domain.js';
import { CommentAttachmentsService } from './attachments.js';

/** A comment's files go with it (listed after attachments, where this handler always ran). */
export const commentAttachmentsDomain = defineDomain({
  name: 'comments.attachments',
  subscribe(ctx) {
    ctx.service(CommentAttachmentsService).subscribe();
  },
});
