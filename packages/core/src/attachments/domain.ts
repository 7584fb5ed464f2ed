import { defineDomain } from '../domain.js';
import { AttachmentsService } from './service.js';

/**
 * Attachments count toward quotas and go (with their blobs) with their repository; those of an issue or a comment
 * go with it through the `issues.attachments` and `comments.attachments` records.
 */
export const attachmentsDomain = defineDomain({
  name: 'attachments',
  subscribe(ctx) {
    ctx.service(AttachmentsService).subscribe();
  },
});
