/**
 * The checks route groups make of the caller before they load anything more, one implementation each, named after
 * the Forgejo middleware each one is (routers/api/v1/api.go). A group lists them as its `guard`, in the order Forgejo
 * chains them (`reqToken` first where Forgejo has it); core services check again, for embedders.
 */
import {
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  AccessMode,
  assertCanWriteRefs,
  isSelf,
  isSiteAdmin,
  unitMode,
  type Actor,
  type RepoAccess,
  type RepoHost,
  type TeamAccess,
  type User,
} from '@repohost/core';

/** Forgejo's `reqToken`: a signed-in caller (401 otherwise). */
export function requireSignedIn({ actor }: { actor: Actor }): void {
  if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
}

/** Forgejo's `reqSiteAdmin`. */
export function requireSiteAdmin({ actor }: { actor: Actor }): void {
  if (!isSiteAdmin(actor)) throw new ForbiddenError('reqSiteAdmin');
}

/** Forgejo's `reqSelfOrAdmin`: the account the path names, or a site administrator. */
export function requireSelfOrSiteAdmin({ actor, user }: { actor: Actor; user: User }): void {
  if (!isSelf(actor, user) && !isSiteAdmin(actor)) throw new ForbiddenError('doer should be the site admin or be same as the contextUser');
}

/** Forgejo's `reqAdmin`: an administrator of the repository (its owner among them), or a site administrator. */
export function requireRepoAdmin({ actor, repo }: { actor: Actor; repo: RepoAccess }): void {
  if (repo.mode < AccessMode.Admin && !isSiteAdmin(actor)) throw new ForbiddenError('user should be an owner or a collaborator with admin write of a repository');
}

/** Forgejo's `reqOwner`: an owner of the repository, or a site administrator. */
export function requireRepoOwner({ actor, repo }: { actor: Actor; repo: RepoAccess }): void {
  if (repo.mode < AccessMode.Owner && !isSiteAdmin(actor)) throw new ForbiddenError('user should be the owner of the repo');
}

/** Forgejo's `reqRepoWriter(unit.TypeCode)`: write on the repository's code (git notes; archived or not). */
export function requireCodeWriter({ repo }: { repo: RepoAccess }): void {
  if (unitMode(repo, 'repo.code') < AccessMode.Write) throw new ForbiddenError('user should have a permission to write to a repository');
}

/** Forgejo's `reqRepoWriter(unit.TypeCode)` and `mustNotBeArchived`, for branch and tag writes (423 when archived). */
export function requireRefWriter({ repo }: { repo: RepoAccess }): void {
  assertCanWriteRefs(repo);
}

/** Forgejo's `reqOrgOwnership`: an owner of the organization, or a site administrator. */
export async function requireOrgOwner({ host, actor, org }: { host: RepoHost; actor: Actor; org: User }): Promise<void> {
  await host.orgs.assertOwner(actor, org);
}

/** Forgejo's `reqOrgMembership`: a member of the organization, or a site administrator. */
export async function requireOrgMember({ host, actor, org }: { host: RepoHost; actor: Actor; org: User }): Promise<void> {
  await host.orgs.assertMember(actor, org);
}

/** Forgejo's `reqOrgOwnership` on a team's routes: an owner of the team's organization, or a site administrator (404 for anyone else). */
export async function requireTeamOwner({ host, actor, teamAccess }: { host: RepoHost; actor: Actor; teamAccess: TeamAccess }): Promise<void> {
  await host.teams.assertOwner(actor, teamAccess);
}

/** 404 while `[quota] ENABLED` is off: Forgejo does not mount the quota routes then. */
export function requireQuotaEnabled({ host }: { host: RepoHost }): void {
  if (!host.quota.enabled) throw new NotFoundError();
}

/** 404 while `[federation] ENABLED` is off: Forgejo does not mount the federation routes then. */
export function requireFederationEnabled({ host }: { host: RepoHost }): void {
  if (!host.settings.federation.ENABLED) throw new NotFoundError();
}

/** `[repository] ENABLE_FLAGS`: Forgejo mounts the repository flag routes only then (404 before anything else). */
export function requireFlagsEnabled({ host }: { host: RepoHost }): void {
  if (!host.settings.repository.ENABLE_FLAGS) throw new NotFoundError();
}
