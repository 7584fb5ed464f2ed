/**
 * Every group routes hang off, declared once here: each loads what its path names once per request (Forgejo's
 * `repoAssignment`, `UserAssignmentAPI`), so that a resource the caller may not see is a 404 before any handler
 * runs; checks the caller with the shared guards (`guards.ts`) where Forgejo does; and says what its routes have
 * in common (`tag`, `auth`, `scopes`), which they leave out. Route modules only add routes to these groups; a new
 * resource kind, or a new check on a path, adds its group here.
 */
import { FederationService, NotFoundError, PackagesService, UnauthorizedError, actorTask, actorUser, isOrganization, type ScopeCategory } from '@repohost/core';
import type { RequestBase } from './contract.js';
import {
  requireFederationEnabled,
  requireFlagsEnabled,
  requireOrgMember,
  requireOrgOwner,
  requireQuotaEnabled,
  requireRefWriter,
  requireCodeWriter,
  requireRepoAdmin,
  requireRepoOwner,
  requireSelfOrSiteAdmin,
  requireSignedIn,
  requireSiteAdmin,
  requireTeamOwner,
} from './guards.js';
import type { ApiRouter } from './router.js';
import { accountMovedOr, repoMovedOr } from './redirects.js';

/** What the site administration's routes have in common: Forgejo's `reqToken`, the `admin` tag and scope. */
const ADMIN = { tag: 'admin', auth: 'token', scopes: ['admin'] as ScopeCategory[] } as const;

/** What the notification routes have in common: Forgejo's `reqToken`, the `notification` tag and scope. */
const NOTIFICATIONS = { tag: 'notification', auth: 'token', scopes: ['notification'] as ScopeCategory[] } as const;

/** The signed-in user (Forgejo's reqToken, 401 for anyone else), as `me`. */
async function loadMe({ actor }: RequestBase<unknown>) {
  const user = actorUser(actor);
  if (!user) throw new UnauthorizedError('token is required');
  return { me: user };
}

/** Any account named `{username}`, as `user`, for site administrators (no redirect from an old name). */
async function loadAccount({ host, actor, params }: RequestBase<{ readonly username: string }>) {
  return { user: await host.users.resolve(actor, params.username) };
}

export function defineGroups(router: ApiRouter) {
  // ---- accounts ----

  /** `/notifications…`: the signed-in user's notifications. */
  const notifications = router.group('/notifications', NOTIFICATIONS);

  /** `/user/…`: the signed-in user's own resources. */
  const me = router.group('/user', loadMe, { tag: 'user', scopes: ['user'] });

  /** `/user/hooks…`: the signed-in user's webhooks. */
  const userHooks = me.nest('/hooks', { auth: 'token' });

  /** `/user/quota…`: 404 while quotas are off, before anything else (Forgejo mounts the routes only then). */
  const myQuota = router.group('/user/quota', loadMe, { guard: requireQuotaEnabled, tag: 'user', auth: 'token', scopes: ['user'] });

  /** `/users/{username}/…`: an account the caller may see; an old name of one redirects to its new name (307). */
  const user = router.group(
    '/users/{username}',
    async (ctx) => ({
      user: await ctx.host.users.resolve(ctx.actor, ctx.params.username).catch((error: unknown) => accountMovedOr(error, ctx, ctx.params.username)),
    }),
    { tag: 'user', scopes: ['user'] },
  );

  /** `/users/{username}/tokens/…`: only the account itself and site administrators. */
  const userTokens = user.nest('/tokens', { guard: requireSelfOrSiteAdmin });

  // ---- repositories ----

  /**
   * `/repos/{owner}/{repo}/…`: a repository the caller may see, with the caller's access mode. Names a rename or
   * transfer left behind redirect: a repository's (301) and its owner's (307), looked up only when nothing is found.
   */
  const repo = router.group(
    '/repos/{owner}/{repo}',
    async (ctx) => {
      const repo = await ctx.host.repos.resolve(ctx.actor, ctx.params.owner, ctx.params.repo).catch((error: unknown) => repoMovedOr(error, ctx, ctx.params.owner, ctx.params.repo));
      // Forgejo's repoAssignment: through the API, a workflow task's token reaches its own repository only (git
      // over HTTP still reads public ones, as Forgejo's does).
      const task = actorTask(ctx.actor);
      if (task && task.repoId !== repo.repo.id) throw new NotFoundError();
      return { repo };
    },
    { tag: 'repository', scopes: ['repository'] },
  );

  /** The repository's issue tracker (issues, labels, milestones, comments): the `issue` tag and scope. */
  const repoIssues = repo.nest('', { tag: 'issue', scopes: ['issue'] });

  /** `/repos/{owner}/{repo}/collaborators…`: who collaborates, for signed-in callers (Forgejo's reqToken). */
  const repoCollaborators = repo.nest('/collaborators', { auth: 'token' });

  /** `/repos/{owner}/{repo}/teams…`: the teams with access to the repository (reqToken). */
  const repoTeams = repo.nest('/teams', { auth: 'token' });

  /** `/repos/{owner}/{repo}/subscription`: whether the caller watches the repository (reqToken). */
  const repoSubscription = repo.nest('/subscription', { auth: 'token' });

  /** `/repos/{owner}/{repo}/notifications`: the caller's notifications about the repository. */
  const repoNotifications = repo.nest('/notifications', NOTIFICATIONS);

  /** Repository administrators and site administrators (Forgejo's reqAdmin), before the body is read. */
  const repoAdmin = repo.nest('', { guard: requireRepoAdmin, auth: 'token' });

  /**
   * `/repos/{owner}/{repo}/avatar`: the repository's administrators and site administrators (Forgejo's reqAdmin,
   * then reqToken: an anonymous caller is refused as a non-administrator, 403).
   */
  const repoAvatar = repo.nest('/avatar', { guard: requireRepoAdmin });

  /** The repository's owners and site administrators (Forgejo's reqOwner), before the body is read. */
  const repoOwner = repo.nest('', { guard: requireRepoOwner, auth: 'token' });

  /** Branch and tag writes (Forgejo's reqRepoWriter and mustNotBeArchived: 403, 423), before the body is read. */
  const refWriter = repo.nest('', { guard: requireRefWriter, auth: 'token' });

  /**
   * `POST /repos/{owner}/{repo}/sync_fork…`: writers on code of a repository not archived (Forgejo's
   * reqRepoWriter(unit.TypeCode) and mustNotBeArchived: 403, 423), without reqToken.
   */
  const forkSyncWriter = repo.nest('/sync_fork', { guard: requireRefWriter });

  /** Writers on code (Forgejo's reqToken and reqRepoWriter(unit.TypeCode)), archived or not: git notes. */
  const codeWriter = repo.nest('', { guard: [requireSignedIn, requireCodeWriter], auth: 'token' });

  /** `/repos/{owner}/{repo}/keys…`: deploy keys, for administrators (Forgejo's reqToken and reqAdmin). */
  const repoKeys = repo.nest('/keys', { guard: [requireSignedIn, requireRepoAdmin] });

  /** `/repos/{owner}/{repo}/branch_protections…`: branch rules, for administrators (reqToken, reqAdmin). */
  const branchProtections = repo.nest('/branch_protections', { guard: [requireSignedIn, requireRepoAdmin] });

  /** `/repos/{owner}/{repo}/tag_protections…`: tag rules, for administrators (reqToken, reqAdmin). */
  const tagProtections = repo.nest('/tag_protections', { guard: [requireSignedIn, requireRepoAdmin] });

  /** `/repos/{owner}/{repo}/hooks…`: webhooks, for administrators (reqToken, reqAdmin). */
  const repoHooks = repo.nest('/hooks', { guard: [requireSignedIn, requireRepoAdmin], auth: 'token' });

  /**
   * `/repos/{owner}/{repo}/flags…`: site administrators' repository flags, only with `[repository] ENABLE_FLAGS`
   * (then reqToken, reqSiteAdmin; the token needs the repository and admin scopes).
   */
  const repoFlags = repo.nest('/flags', { guard: [requireFlagsEnabled, requireSignedIn, requireSiteAdmin], scopes: ['repository', 'admin'] });

  /** `/repos/{owner}/{repo}/transfer/…`: a pending transfer the caller may answer (its recipient). */
  const repoTransfer = router.group(
    '/repos/{owner}/{repo}/transfer',
    async ({ host, actor, params }) => ({ offered: await host.repoTransfers.resolveOffered(actor, params.owner, params.repo) }),
    { tag: 'repository', auth: 'token', scopes: ['repository'] },
  );

  /**
   * `/repos/{owner}/{repo}/issues/{index}/…`: an issue or pull request of the repository whose unit the caller may
   * read (pull requests share the issue numbers and these routes).
   */
  const issue = repoIssues.nest('/issues/{index}', async ({ host, actor, repo, params }) => ({
    issue: await host.issues.resolve(actor, repo, params.index),
  }));

  /** `/repos/{owner}/{repo}/issues/comments/{id}/…`: a comment on an issue of the repository the caller may read. */
  const comment = repoIssues.nest('/issues/comments/{id}', async ({ host, actor, repo, params }) => host.comments.resolve(actor, repo, params.id));

  /**
   * `/repos/{owner}/{repo}/issues/{index}/comments/{id}`, the deprecated paths: the issue must exist, but the
   * comment id alone names the comment (Forgejo's).
   */
  const issueComment = issue.nest('/comments/{id}', async ({ host, actor, repo, params }) => host.comments.resolve(actor, repo, params.id));

  /** `/repos/{owner}/{repo}/issues/{index}/times…`: the issue's tracked times (Forgejo's reqToken on the group). */
  const issueTimes = issue.nest('/times', { auth: 'token' });

  /** `/repos/{owner}/{repo}/issues/{index}/stopwatch/…`: the caller's stopwatch on the issue (reqToken). */
  const issueStopwatch = issue.nest('/stopwatch', { auth: 'token' });

  /** `/repos/{owner}/{repo}/issues/{index}/pin…`: the issue's pin (reqToken; core checks the rest). */
  const issuePin = issue.nest('/pin', { auth: 'token' });

  /** `/repos/{owner}/{repo}/times…`: the repository's tracked times (reqToken). */
  const repoTimes = repo.nest('/times', { auth: 'token' });

  /** `/repos/{owner}/{repo}/pulls/{index}/…`: a pull request of the repository whose pulls unit the caller may read. */
  const pull = repo.nest('/pulls/{index}', async ({ host, actor, repo, params }) => ({
    pull: await host.pulls.resolve(actor, repo, params.index),
  }));

  // ---- organizations and teams ----

  /** `/orgs/{org}/…`: an organization the caller may see (private ones: members only); an old name redirects (307). */
  const org = router.group(
    '/orgs/{org}',
    async (ctx) => ({
      org: await ctx.host.orgs.resolve(ctx.actor, ctx.params.org).catch((error: unknown) => accountMovedOr(error, ctx, ctx.params.org, isOrganization)),
    }),
    { tag: 'organization', scopes: ['organization'] },
  );

  /** `/orgs/{org}/teams…`: the organization's teams (reqToken; core checks membership). */
  const orgTeams = org.nest('/teams', { auth: 'token' });

  /** The organization's owners and site administrators (Forgejo's reqOrgOwnership), before the body is read. */
  const orgOwner = org.nest('', { guard: requireOrgOwner, auth: 'token' });

  /** The organization's members and site administrators (Forgejo's reqOrgMembership). */
  const orgMember = org.nest('', { guard: requireOrgMember, auth: 'token' });

  /** `/orgs/{org}/hooks…`: the organization's webhooks, for its owners (reqToken, reqOrgOwnership). */
  const orgHooks = org.nest('/hooks', { guard: [requireSignedIn, requireOrgOwner], auth: 'token' });

  /** `/orgs/{org}/quota…`: 404 while quotas are off, then reqToken (core checks ownership). */
  const orgQuota = org.nest('/quota', { guard: [requireQuotaEnabled, requireSignedIn], auth: 'token' });

  /** `/org/{org}/…`: the deprecated spelling that the Go SDK, `tea` and gitea-js still use; loads as `/orgs/{org}` does. */
  const deprecatedOrg = router.group('/org/{org}', async ({ host, actor, params }) => ({ org: await host.orgs.resolve(actor, params.org) }), {
    tag: 'organization',
  });

  /** `/teams/{id}/…`: a team the caller may see (its members, the organization's owners, site administrators). */
  const team = router.group(
    '/teams/{id}',
    async ({ host, actor, params }) => {
      const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : 0;
      return { teamAccess: await host.teams.resolve(actor, id) };
    },
    { tag: 'organization', scopes: ['organization'] },
  );

  /** `/teams/{id}/members…`: the team's members (reqToken). */
  const teamMembers = team.nest('/members', { auth: 'token' });

  /** `/teams/{id}/repos…`: the team's repositories (reqToken). */
  const teamRepos = team.nest('/repos', { auth: 'token' });

  /** The team's organization's owners and site administrators (Forgejo's reqOrgOwnership; 404 for the others). */
  const teamOwner = team.nest('', { guard: requireTeamOwner, auth: 'token' });

  // ---- site administration ----

  /** `/admin/…`: site administrators only (Forgejo's reqToken + reqSiteAdmin). */
  const admin = router.group('/admin', { guard: [requireSignedIn, requireSiteAdmin], ...ADMIN });

  /** `/admin/users/{username}/…`: any account, whatever its visibility (the caller is a site administrator). */
  const adminUser = admin.nest('/users/{username}', loadAccount);

  /** `/admin/hooks…`: the site's system and default webhooks. */
  const adminHooks = admin.nest('/hooks');

  /** `/admin/quota/…`: quota rules and groups; 404 while quotas are off, before anything else. */
  const adminQuota = router.group('/admin/quota', { guard: [requireQuotaEnabled, requireSignedIn, requireSiteAdmin], ...ADMIN });

  /**
   * `/packages/{owner}…`: the package API, 404 while `[packages] ENABLED` is off, then the owner by name (any
   * account: core checks package access, 403 without it); a token with the package scope (Forgejo's reqToken).
   */
  const packageOwner = router.group(
    '/packages/{owner}',
    async ({ host, params }) => {
      if (!host.service(PackagesService).enabled) throw new NotFoundError();
      const user = await host.users.findByName(params.owner);
      if (!user) throw new NotFoundError(`user redirect does not exist [name: ${params.owner}]`);
      return { owner: user };
    },
    { tag: 'package', auth: 'token', scopes: ['package'] },
  );

  // ---- federation ----

  /**
   * `/activitypub/…`: 404 while `[federation] ENABLED` is off, before anything else (Forgejo mounts the routes only
   * then); the `activitypub` token scope. The instance actor's document is here: it is fetched unsigned.
   */
  const activitypub = router.group('/activitypub', { guard: requireFederationEnabled, tag: 'activitypub', scopes: ['activitypub'] });

  /**
   * Every other federation route: Forgejo's `ReqHTTPSignature`, the request's HTTP signature verified (400 "request
   * signature verification failed" otherwise) before the account or repository it names is loaded; `signer` is who
   * signed. A request with a body must sign its `Digest`, which the route checks against the body.
   */
  const activitypubSigned = activitypub.nest('', async ({ host, event }) => {
    const url = event.url;
    const signer = await host.service(FederationService).verifyRequest(
      { method: event.req.method, target: url.pathname + url.search, header: (name) => event.req.headers.get(name) },
      { hasBody: event.req.method === 'POST' },
    );
    return { signer };
  });

  /** `/user/activitypub/…`: the signed-in user's federation; 404 while federation is off, even before the token is asked. */
  const myFederation = router.group('/user/activitypub', loadMe, { guard: requireFederationEnabled, tag: 'user', scopes: ['user'] });

  /** `/admin/users/{username}/quota…`: an account's quota; 404 while quotas are off, before anything else. */
  const adminUserQuota = router.group('/admin/users/{username}/quota', loadAccount, {
    guard: [requireQuotaEnabled, requireSignedIn, requireSiteAdmin],
    ...ADMIN,
  });

  return {
    notifications,
    me,
    userHooks,
    myQuota,
    user,
    userTokens,
    repo,
    repoIssues,
    repoNotifications,
    repoCollaborators,
    repoTeams,
    repoSubscription,
    repoAdmin,
    repoAvatar,
    repoOwner,
    refWriter,
    codeWriter,
    forkSyncWriter,
    repoKeys,
    branchProtections,
    tagProtections,
    repoHooks,
    repoFlags,
    repoTransfer,
    issue,
    comment,
    issueComment,
    issueTimes,
    issueStopwatch,
    issuePin,
    repoTimes,
    pull,
    org,
    orgTeams,
    orgOwner,
    orgMember,
    orgHooks,
    orgQuota,
    deprecatedOrg,
    team,
    teamMembers,
    teamRepos,
    teamOwner,
    admin,
    adminUser,
    adminHooks,
    adminQuota,
    adminUserQuota,
    packageOwner,
    activitypub,
    activitypubSigned,
    myFederation,
  };
}

export type Groups = ReturnType<typeof defineGroups>;
