/**
 * Forgejo's package webhook payload (`PackagePayload` in modules/structs/hook.go, as its notifier fills it): the
 * version as its sender sees it, and who acted; `repository` and `organization` are never set there (null).
 */
import type { Settings } from '../config/index.js';
import { toApiPackage, type PackageEventBase } from '../packages/index.js';
import type { Repository } from '../repos/index.js';
import { ANONYMOUS, GHOST_USER, actorUser, toApiUser, type User } from '../users/index.js';
import type { HookPayload } from './formats/types.js';
import { apiRepo } from './payloads.js';

export type PackageHookAction = 'created' | 'deleted';

export function packagePayload(
  settings: Settings,
  action: PackageHookAction,
  event: PackageEventBase,
  creator: User | undefined,
  linked: { repo: Repository; owner: User } | undefined,
): HookPayload {
  const sender = actorUser(event.actor) ?? GHOST_USER;
  // The package as its sender sees it (Forgejo's ToPackage(pd, sender)); the sender as nobody in particular.
  const view = { viewer: event.actor, settings };
  return {
    action,
    repository: null,
    package: toApiPackage(event.version, event.owner, creator, linked ? apiRepo(linked.repo, linked.owner, settings) : null, view),
    organization: null,
    sender: toApiUser(sender, { viewer: ANONYMOUS, settings }),
  };
}
