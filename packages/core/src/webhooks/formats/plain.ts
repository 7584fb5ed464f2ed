/**
 * `forgejo`, `gitea` and `gogs`: the payload itself, as Forgejo stores it (indented JSON), sent as JSON or as a
 * form with one field `payload` (the hook's `content_type`). Gogs hooks take the same two content types.
 */
import { formEncode, goJson } from './common.js';
import type { HookFormatter } from './types.js';

export const PLAIN_FORMATTER: HookFormatter = {
  parseConfig: () => ({}),
  format: (_event, payload, hook) => {
    const json = goJson(payload);
    if (hook.contentType === 'form') {
      return { contentType: 'application/x-www-form-urlencoded', body: formEncode('payload', json) };
    }
    return { contentType: 'application/json', body: json };
  },
};
