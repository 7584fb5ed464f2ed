/**
 * The groups routes hang off, each loading what its path names once per request (Forgejo's `repoAssignment`,
 * `UserAssignmentAPI`): a resource the caller may not see is a 404 before any handler runs. New resource kinds
 * (organizations, teams, issues) add their group here.
 */
import { UnauthorizedError, actorUser, ForbiddenError, isSelf, isSiteAdmin } from '@repohost/core';
import type { ApiRouter } from './router.js';

export function defineGroups(router: ApiRouter) {
  /** `/user/…`: the signed-in user's own resources. */
  const me = router.group('/user', async ({ actor }) => {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    return { me: user };
  });

  /** `/users/{username}/…`: an account the caller may see. */
  const user = router.group('/users/{username}', async ({ host, actor, params }) => ({
    user: await host.users.resolve(actor, params.username),
  }));

  /** `/users/{username}/tokens/…`: only the account itself and site administrators. */
  const userTokens = user.nest('/tokens', async ({ actor, user: owner }) => {
    if (!isSelf(actor, owner) && !isSiteAdmin(actor)) throw new ForbiddenError('doer should be the site admin or be same as the contextUser');
    return {};
  });

  /** `/repos/{owner}/{repo}/…`: a repository the caller may see, with the caller's access mode. */
  const repo = router.group('/repos/{owner}/{repo}', async ({ host, actor, params }) => ({
    repo: await host.repos.resolve(actor, params.owner, params.repo),
  }));

  /** `/admin/…`: site administrators only (Forgejo's reqToken + reqSiteAdmin). */
  const admin = router.group('/admin', async ({ actor }) => {
    if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
    if (!isSiteAdmin(actor)) throw new ForbiddenError('reqSiteAdmin');
    return {};
  });

  return { me, user, userTokens, repo, admin };
}

export type Groups = ReturnType<typeof defineGroups>;
