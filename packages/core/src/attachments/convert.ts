import type { ApiView } from '../wire.js';
import { isoTime } from '../wire.js';
import { webUrl } from '../urls.js';
import type { ApiAttachment } from './schemas.js';
import type { Attachment } from './tables.js';

/** `{ROOT_URL}attachments/{uuid}`, or the link an external attachment stands for. */
export function attachmentDownloadUrl(row: Pick<Attachment, 'uuid' | 'external_url'>, view: Pick<ApiView, 'settings'>): string {
  return row.external_url || webUrl(view.settings, `attachments/${encodeURIComponent(row.uuid)}`);
}

export function toApiAttachment(row: Attachment, view: Pick<ApiView, 'settings'>): ApiAttachment {
  return {
    id: row.id,
    name: row.name,
    size: row.size,
    download_count: row.download_count,
    created_at: isoTime(row.created_unix),
    uuid: row.uuid,
    browser_download_url: attachmentDownloadUrl(row, view),
    type: row.external_url ? 'external' : 'attachment',
  };
}
