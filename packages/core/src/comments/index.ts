/**
 * The comments folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
import './events.js';
export { CommentAttachmentsService } from './attachments.js';
export { issueWebUrl, toApiComment } from './convert.js';
export { commentAttachmentsDomain } from './domain.js';
export { CommentsService } from './service.js';
