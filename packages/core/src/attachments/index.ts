/**
 * The attachments folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { toApiAttachment } from './convert.js';
export { attachmentsDomain } from './domain.js';
export { type AttachedIssues } from './issues.js';
export { AttachmentsPort } from './port.js';
export { AttachmentSchema, EditAttachmentOptionsSchema, type EditAttachmentOptions } from './schemas.js';
export { AttachmentsService, dateOf, parseId, prepend, readHead, type AttachmentUpload, type OpenUpload, type UploadOptions } from './service.js';
export { SNIFF_LENGTH, isAllowedType, mediaTypeOf, sniffContentType } from './sniff.js';
export { attachmentBlobKey, type Attachment, type AttachmentTable, type NewAttachment } from './tables.js';
