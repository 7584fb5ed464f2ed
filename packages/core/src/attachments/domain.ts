import { defineDomain } from '../domain.js';
import { AttachmentsService } from './service.js';

/** Attachments count toward quotas and go (with their blobs) with their issue, comment and repository. */
export const attachmentsDomain = defineDomain({
  name: 'attachments',
  subscribe(ctx) {
    ctx.service(AttachmentsService).subscribe();
  },
});
