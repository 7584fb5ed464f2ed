import { ReposPort } from '../repos/index.js';
import { ConflictError, ForbiddenError, LockedError } from '../errors.js';
import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { RefConflictError, type RefUpdate } from '../git/index.js';
import type { RenamedBranch, RepoAccess } from '../repos/index.js';
import { repoKey, ReposService } from '../repos/index.js';

/** Forgejo's `reqRepoWriter` then `mustNotBeArchived`: what every branch and tag write checks first. */
export function assertCanWriteRefs(access: RepoAccess): void {
  if (unitMode(access, 'repo.code') < AccessMode.Write) throw new ForbiddenError('user should have a permission to write to a repository');
  if (access.repo.is_archived === 1) throw new LockedError('repo is archived');
}

/** The all-zero id of a repository's object format, for a created (old) or deleted (new) ref. */
export function zeroId(objectFormat: string): string {
  return '0'.repeat(objectFormat === 'sha256' ? 64 : 40);
}

/**
 * Moves refs as a push would and records it the same way (`beginPush` intent, then `recordPush`, which emits
 * 'repo.pushed' and derives emptiness and the default branch from the refs). `conflict` words the 409 when a ref
 * moved meanwhile; `renamedBranch` says the updates rename a branch (see 'repo.pushed').
 */
export async function moveRefs(ctx: CoreContext, actor: Actor, access: RepoAccess, updates: RefUpdate[], conflict: string, renamedBranch?: RenamedBranch): Promise<void> {
  const repos = ctx.service(ReposService);
  const key = repoKey(access.owner, access.repo);
  const intent = await repos.beginPush(access);
  try {
    await ctx.git.updateRefs(key, updates);
  } catch (error) {
    if (error instanceof RefConflictError) {
      // Nothing changed: the intent has nothing to repair.
      await ctx.port(ReposPort).endIntent(intent);
      throw new ConflictError(conflict);
    }
    await repos.resyncFromRefs(access.repo, key, intent);
    throw error;
  }
  await repos.recordPush(actor, access, updates, intent, renamedBranch);
}
