/**
 * The groups routes hang off, each loading what its path names once per request (Forgejo's `repoAssignment`,
 * `UserAssignmentAPI`): a resource the caller may not see is a 404 before any handler runs. New resource kinds
 * (organizations, teams, issues) add their group here.
 */
import { UnauthorizedError, actorUser, ForbiddenError, isOrganization, isSelf, isSiteAdmin } from '@repohost/core';
import type { ApiRouter } from './router.js';
import { accountMovedOr, repoMovedOr } from './redirects.js';

export function defineGroups(router: ApiRouter) {
  /** `/user/…`: the signed-in user's own resources. */
  const me = router.group('/user', async ({ actor }) => {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    return { me: user };
  });

  /** `/users/{username}/…`: an account the caller may see; an old name of one redirects to its new name (307). */
  const user = router.group('/users/{username}', async (ctx) => ({
    user: await ctx.host.users.resolve(ctx.actor, ctx.params.username).catch((error: unknown) => accountMovedOr(error, ctx, ctx.params.username)),
  }));

  /** `/users/{username}/tokens/…`: only the account itself and site administrators. */
  const userTokens = user.nest('/tokens', async ({ actor, user: owner }) => {
    if (!isSelf(actor, owner) && !isSiteAdmin(actor)) throw new ForbiddenError('doer should be the site admin or be same as the contextUser');
    return {};
  });

  /**
   * `/repos/{owner}/{repo}/…`: a repository the caller may see, with the caller's access mode. Names a rename or
   * transfer left behind redirect: a repository's (301) and its owner's (307), looked up only when nothing is found.
   */
  const repo = router.group('/repos/{owner}/{repo}', async (ctx) => ({
    repo: await ctx.host.repos.resolve(ctx.actor, ctx.params.owner, ctx.params.repo).catch((error: unknown) => repoMovedOr(error, ctx, ctx.params.owner, ctx.params.repo)),
  }));

  /**
   * `/repos/{owner}/{repo}/issues/{index}/…`: an issue or pull request of the repository whose unit the caller may
   * read (pull requests share the issue numbers and these routes).
   */
  const issue = repo.nest('/issues/{index}', async ({ host, actor, repo, params }) => ({
    issue: await host.issues.resolve(actor, repo, params.index),
  }));

  /** `/repos/{owner}/{repo}/pulls/{index}/…`: a pull request of the repository whose pulls unit the caller may read. */
  const pull = repo.nest('/pulls/{index}', async ({ host, actor, repo, params }) => ({
    pull: await host.pulls.resolve(actor, repo, params.index),
  }));

  /** `/orgs/{org}/…`: an organization the caller may see (private ones: members only); an old name redirects (307). */
  const org = router.group('/orgs/{org}', async (ctx) => ({
    org: await ctx.host.orgs.resolve(ctx.actor, ctx.params.org).catch((error: unknown) => accountMovedOr(error, ctx, ctx.params.org, isOrganization)),
  }));

  /** `/teams/{id}/…`: a team the caller may see (its members, the organization's owners, site administrators). */
  const team = router.group('/teams/{id}', async ({ host, actor, params }) => {
    const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : 0;
    return { teamAccess: await host.teams.resolve(actor, id) };
  });

  /** `/admin/…`: site administrators only (Forgejo's reqToken + reqSiteAdmin). */
  const admin = router.group('/admin', async ({ actor }) => {
    if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
    if (!isSiteAdmin(actor)) throw new ForbiddenError('reqSiteAdmin');
    return {};
  });

  return { me, user, userTokens, repo, issue, pull, org, team, admin };
}

export type Groups = ReturnType<typeof defineGroups>;
