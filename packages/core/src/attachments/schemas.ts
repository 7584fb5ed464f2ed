import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';

/** A file attached to an issue, a comment or a release, as the API shows it. */
export const AttachmentSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    name: Type.String(),
    size: Type.Integer({ format: 'int64' }),
    download_count: Type.Integer({ format: 'int64' }),
    created_at: Type.String({ format: 'date-time' }),
    uuid: Type.String(),
    browser_download_url: Type.String(),
    type: StringEnum(['attachment', 'external'] as const),
  },
  { $id: 'Attachment', description: 'Attachment a generic attachment' },
);
export type ApiAttachment = Static<typeof AttachmentSchema>;

export const EditAttachmentOptionsSchema = Type.Object(
  {
    name: Type.Optional(Type.String()),
    browser_download_url: Type.Optional(Type.String({ description: '(Can only be set if existing attachment is of external type)' })),
  },
  { $id: 'EditAttachmentOptions', description: 'EditAttachmentOptions options for editing attachments' },
);
export type EditAttachmentOptions = Static<typeof EditAttachmentOptionsSchema>;
