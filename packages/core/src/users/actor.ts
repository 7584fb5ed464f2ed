import { UnauthorizedError } from '../errors.js';
import { ACTIONS_USER, ACTIONS_USER_ID } from './system.js';
import type { User } from './tables.js';

/**
 * The workflow task a task token stands for (Forgejo's `ActionsTaskID`): the Actions user acts for it, with what
 * the permission rule gives a task on its own repository (write, or read for a fork pull request's run).
 */
export interface ActorTask {
  readonly id: number;
  readonly repoId: number;
  /** The run is a pull request's from a fork: its code is not the repository's, so it only reads. */
  readonly forkPullRequest: boolean;
}

/**
 * Who is asking. Every core operation takes one. `system` is the server itself (CLI, migrations, jobs): it may
 * do anything. A `user` actor may be limited to public resources (a token with the `public-only` scope), or to
 * some repositories (`repoIds`, a repository-limited token: those as the user may, other public repositories of
 * public owners read-only, nothing else). A workflow task's token is the Actions user with its `task`.
 */
export type Actor =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'system' }
  | { readonly kind: 'user'; readonly user: User; readonly publicOnly: boolean; readonly repoIds?: readonly number[]; readonly task?: ActorTask };

export const ANONYMOUS: Actor = Object.freeze({ kind: 'anonymous' });
export const SYSTEM: Actor = Object.freeze({ kind: 'system' });

export function userActor(user: User, options: { publicOnly?: boolean; repoIds?: readonly number[] } = {}): Actor {
  const actor = { kind: 'user' as const, user, publicOnly: options.publicOnly ?? false };
  return options.repoIds ? { ...actor, repoIds: options.repoIds } : actor;
}

/** The Actions user acting for a running workflow task (its token authenticated the request). */
export function taskActor(task: ActorTask): Actor {
  return { kind: 'user', user: ACTIONS_USER, publicOnly: false, task: { id: task.id, repoId: task.repoId, forkPullRequest: task.forkPullRequest } };
}

/** The task the actor acts for, if it is a workflow task's token. */
export function actorTask(actor: Actor): ActorTask | undefined {
  return actor.kind === 'user' ? actor.task : undefined;
}

/**
 * Whether the Actions user did it (a task's token, or Actions itself): what it does starts no workflow, as in
 * Forgejo, so a workflow that pushes or comments with its token does not start itself again.
 */
export function isActionsActor(actor: Actor): boolean {
  return actor.kind === 'user' && actor.user.id === ACTIONS_USER_ID;
}

export function actorUser(actor: Actor): User | null {
  return actor.kind === 'user' ? actor.user : null;
}

/** Site administrators and the system may manage every account and repository. */
/** The signed-in account acting, or 401 "token is required" (Forgejo's reqToken) for anyone else. */
export function signedInUser(actor: Actor): User {
  const user = actorUser(actor);
  if (!user) throw new UnauthorizedError('token is required');
  return user;
}

export function isSiteAdmin(actor: Actor): boolean {
  return actor.kind === 'system' || (actor.kind === 'user' && actor.user.is_admin === 1);
}

export function isSelf(actor: Actor, user: Pick<User, 'id'>): boolean {
  return actor.kind === 'user' && actor.user.id === user.id;
}
