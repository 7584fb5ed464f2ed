/**
 * Forgejo's wiki webhook payload (`WikiPayload` in modules/structs/hook.go): the page's web path, the commit
 * message given (`comment`), the repository and who acted.
 */
import type { Settings } from '../config/index.js';
import { ANONYMOUS, actorUser, toApiUser } from '../users/index.js';
import type { WikiChangedEvent } from '../wiki/index.js';
import type { HookPayload } from './formats/types.js';
import { apiRepo } from './payloads.js';

export function wikiPayload(settings: Settings, event: WikiChangedEvent): HookPayload {
  // Wiki writes are always a signed-in user's.
  const sender = actorUser(event.actor) ?? event.owner;
  return {
    action: event.action,
    repository: apiRepo(event.repo, event.owner, settings),
    sender: toApiUser(sender, { viewer: ANONYMOUS, settings }),
    page: event.page,
    comment: event.comment,
  };
}
