/**
 * Forgejo's release webhook payload (`ReleasePayload` in modules/structs/hook.go): the release as an anonymous
 * viewer sees it, its repository and who acted.
 */
import type { Settings } from '../config/index.js';
import { ANONYMOUS, actorUser, type Actor } from '../users/index.js';
import { toApiRelease, type ReleaseDetails } from '../releases/index.js';
import { toApiUser } from '../users/index.js';
import type { HookPayload } from './formats/types.js';
import { apiRepo } from './payloads.js';

/** Forgejo's `HookReleaseAction` values. */
export type ReleaseHookAction = 'published' | 'updated' | 'deleted';

export function releasePayload(settings: Settings, action: ReleaseHookAction, details: ReleaseDetails, actor: Actor): HookPayload {
  const view = { viewer: ANONYMOUS, settings };
  return {
    action,
    release: toApiRelease(details, view),
    repository: apiRepo(details.repo, details.owner, settings),
    sender: toApiUser(actorUser(actor) ?? details.publisher, view),
  };
}
