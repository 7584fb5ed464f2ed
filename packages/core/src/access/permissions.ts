import type { Actor, ActorTask } from '../users/index.js';
import { Visibility, type User } from '../users/index.js';
import { canSeeAccount } from '../users/index.js';

/** Access levels, ordered, as Forgejo numbers them. */
export const AccessMode = { None: 0, Read: 1, Write: 2, Admin: 3, Owner: 4 } as const;
export type AccessModeValue = (typeof AccessMode)[keyof typeof AccessMode];

/** The names of access modes on the wire (a team's `permission`, `units_map`; a collaborator's permission). */
export const ACCESS_MODE_NAMES = ['none', 'read', 'write', 'admin', 'owner'] as const;
export type AccessModeName = (typeof ACCESS_MODE_NAMES)[number];

export function accessModeName(mode: number): AccessModeName {
  return ACCESS_MODE_NAMES[mode] ?? 'none';
}

export function accessModeOf(name: AccessModeName): AccessModeValue {
  return ACCESS_MODE_NAMES.indexOf(name) as AccessModeValue;
}

/** A repository's units as teams are given rights to them, named as Forgejo names them. */
export const UNIT_NAMES = [
  'repo.code',
  'repo.issues',
  'repo.ext_issues',
  'repo.wiki',
  'repo.ext_wiki',
  'repo.pulls',
  'repo.releases',
  'repo.projects',
  'repo.packages',
  'repo.actions',
] as const;
export type UnitName = (typeof UNIT_NAMES)[number];
/** A mode per unit; complete whenever present. */
export type UnitModes = Readonly<Record<UnitName, AccessModeValue>>;

/** What the actor may do to one repository: a mode, and per unit where teams grant units differently. */
export interface RepoPermission {
  mode: AccessModeValue;
  /** Absent: every unit at `mode`. */
  units?: UnitModes;
}

/** What the permission question reads of a repository (the repos domain's row, or anything shaped like it). */
export interface RepoSubject {
  id: number;
  is_private: number;
}

/** A repository with its owner and what the asking actor may do to it (the repos domain's `RepoAccess`). */
export interface RepoAccessOf<R extends RepoSubject> {
  repo: R;
  owner: User;
  mode: AccessModeValue;
  /** Per unit, when teams grant units differently; absent: every unit at `mode` (see `unitMode`). */
  units?: UnitModes;
}

/** What an account was given on one repository beyond what its visibility lets everyone do. */
export interface RepoGrants {
  /** The account belongs to the organization that owns the repository (any team). */
  member: boolean;
  /** The highest mode of its collaboration and of the teams with access (Owner: the Owners team). */
  mode: AccessModeValue;
  /** Per unit, where a team grants units separately. */
  units?: UnitModes;
  /** A team with admin rights (or the Owners team) covers the repository: that makes the account an owner of it. */
  fromTeamAdmin?: boolean;
}

export const NO_GRANTS: RepoGrants = Object.freeze({ member: false, mode: AccessMode.None });

/** One source of a grant: a collaboration (`units` absent) or a team (`units` its per-unit map, possibly empty). */
export interface GrantSource {
  mode: number;
  units?: Readonly<Partial<Record<string, number>>>;
}

function isTeam(source: GrantSource): boolean {
  return source.units !== undefined;
}

/** The grants of several collaborations and teams together: the highest mode wins, unit by unit. */
export function combineGrants(member: boolean, sources: readonly GrantSource[]): RepoGrants {
  let mode: AccessModeValue = AccessMode.None;
  let perUnit = false;
  let fromTeamAdmin = false;
  for (const source of sources) {
    mode = Math.max(mode, clampMode(source.mode)) as AccessModeValue;
    if (source.units && Object.keys(source.units).length > 0) perUnit = true;
    if (isTeam(source) && source.mode >= AccessMode.Admin) fromTeamAdmin = true;
  }
  if (fromTeamAdmin) return { member, mode, fromTeamAdmin };
  if (!perUnit) return { member, mode };
  const units = {} as Record<UnitName, AccessModeValue>;
  for (const unit of UNIT_NAMES) {
    let best: AccessModeValue = AccessMode.None;
    for (const source of sources) {
      const own = source.units && Object.keys(source.units).length > 0 ? (source.units[unit] ?? AccessMode.None) : source.mode;
      best = Math.max(best, clampMode(own)) as AccessModeValue;
    }
    units[unit] = best;
  }
  return { member, mode, units };
}

function clampMode(mode: number): AccessModeValue {
  return (Number.isInteger(mode) && mode >= 0 && mode <= AccessMode.Owner ? mode : AccessMode.None) as AccessModeValue;
}

/** May `actor` know that `user` exists? The users domain's rule (`canSeeAccount`), under its older name here. */
export { canSeeAccount as canSeeUser } from '../users/index.js';

/**
 * May a signed-in account (not the owner, not an administrator) read `owner`'s public repositories unasked? Those of
 * owners it may see; restricted accounts read nothing they were not given, public or not. `repoPermission` and
 * `ownedRepoFilter` both ask this, so a single read and a list agree.
 */
function readsPublicReposOf(actor: Actor & { kind: 'user' }, owner: User, member: boolean): boolean {
  return actor.user.is_restricted !== 1 && canSeeAccount(actor, owner, member);
}

const NONE: RepoPermission = Object.freeze({ mode: AccessMode.None });
const READ: RepoPermission = Object.freeze({ mode: AccessMode.Read });
const OWNER: RepoPermission = Object.freeze({ mode: AccessMode.Owner });

/**
 * The one question every entry point asks (API, git over HTTP and SSH): what may `actor` do to `repo`, given what
 * it was granted (`AccessService` loads the grants)? As Forgejo's `GetUserRepoPermission`: public repositories of
 * owners the actor may see are readable; collaborations and teams add to that, unit by unit; the owner, site
 * administrators, the system and teams with admin rights own it. Restricted accounts get only what they were
 * given; a public-only token only public repositories of public owners. A workflow task's token writes to its
 * own repository (reads, for a fork pull request's run) and reads what an account given nothing may elsewhere.
 */
export function repoPermission(actor: Actor, repo: RepoSubject, owner: User, grants: RepoGrants): RepoPermission {
  if (actor.kind === 'user' && actor.task) return taskRepoPermission(actor, actor.task, repo, owner);
  const permission = userRepoPermission(actor, repo, owner, grants);
  if (actor.kind !== 'user' || !actor.repoIds || actor.repoIds.includes(repo.id)) return permission;
  // A repository-limited token (Forgejo's SpecificReposAuthorizationReducer): elsewhere, public repositories of
  // public owners read-only, nothing else.
  if (repo.is_private !== 0 || owner.visibility !== Visibility.Public) return NONE;
  if (!permission.units) return permission.mode > AccessMode.Read ? READ : permission;
  const units = {} as Record<UnitName, AccessModeValue>;
  for (const unit of UNIT_NAMES) units[unit] = Math.min(AccessMode.Read, permission.units[unit]) as AccessModeValue;
  return { mode: Math.min(AccessMode.Read, permission.mode) as AccessModeValue, units };
}

const WRITE: RepoPermission = Object.freeze({ mode: AccessMode.Write });

/**
 * A workflow task's token (Forgejo's `GetActionRepoPermission`): on the task's own repository write on every unit,
 * read only for a fork pull request's run; elsewhere what the Actions user may as an account given nothing (public
 * repositories of owners it may see). Forgejo's per-owner opt-in to reading private repositories is off by default
 * and not kept here.
 */
function taskRepoPermission(actor: Actor, task: ActorTask, repo: RepoSubject, owner: User): RepoPermission {
  if (repo.id === task.repoId) return task.forkPullRequest ? READ : WRITE;
  return userRepoPermission(actor, repo, owner, NO_GRANTS);
}

function userRepoPermission(actor: Actor, repo: RepoSubject, owner: User, grants: RepoGrants): RepoPermission {
  if (actor.kind === 'system') return OWNER;
  const isPublic = repo.is_private === 0;
  if (actor.kind === 'anonymous') return isPublic && owner.visibility === Visibility.Public ? READ : NONE;
  const { user } = actor;
  if (actor.publicOnly && (!isPublic || owner.visibility !== Visibility.Public)) return NONE;
  // Site administrators, the owner, and teams with admin rights (the Owners team among them) own it outright.
  if (user.id === owner.id || user.is_admin === 1 || grants.fromTeamAdmin === true) return OWNER;
  const base: AccessModeValue = isPublic && readsPublicReposOf(actor, owner, grants.member) ? AccessMode.Read : AccessMode.None;
  if (grants.mode === AccessMode.None) return base === AccessMode.Read ? READ : NONE;
  const mode = Math.max(base, grants.mode) as AccessModeValue;
  if (!grants.units) return { mode };
  const units = {} as Record<UnitName, AccessModeValue>;
  for (const unit of UNIT_NAMES) units[unit] = Math.max(base, grants.units[unit]) as AccessModeValue;
  return { mode, units };
}

/** The actor's mode on one unit of a repository. */
export function unitMode(permission: RepoPermission, unit: UnitName): AccessModeValue {
  return permission.units ? permission.units[unit] : permission.mode;
}

/**
 * Which of an owner's repositories an actor may list, as a filter the SQL applies: all of them; or the public
 * ones (when `publicRepos`) and those granted to `grantedTo`. It lets through exactly the repositories
 * `repoPermission` does not answer None for.
 */
export type OwnedRepoFilter = ({ readonly all: true } | { readonly all: false; readonly publicRepos: boolean; readonly grantedTo?: number }) & {
  readonly limit?: TokenRepoLimit;
};

/**
 * What a repository-limited token narrows any list to: of what the rest lets through, the repositories it is
 * for, and public ones when `publicToo` (their owner is public).
 */
export interface TokenRepoLimit {
  readonly ids: readonly number[];
  readonly publicToo: boolean;
}

export function ownedRepoFilter(actor: Actor, owner: User, member: boolean): OwnedRepoFilter {
  const filter = userOwnedRepoFilter(actor, owner, member);
  if (actor.kind !== 'user' || !actor.repoIds) return filter;
  return { ...filter, limit: { ids: actor.repoIds, publicToo: owner.visibility === Visibility.Public } };
}

function userOwnedRepoFilter(actor: Actor, owner: User, member: boolean): OwnedRepoFilter {
  if (actor.kind === 'system') return { all: true };
  if (actor.kind === 'anonymous') return { all: false, publicRepos: owner.visibility === Visibility.Public };
  const { user } = actor;
  if (actor.publicOnly) return { all: false, publicRepos: owner.visibility === Visibility.Public };
  if (user.id === owner.id || user.is_admin === 1) return { all: true };
  return { all: false, publicRepos: readsPublicReposOf(actor, owner, member), grantedTo: user.id };
}
