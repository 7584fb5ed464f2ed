import {
  BlockedUserSchema,
  NotFoundError,
  RepositorySchema,
  UserSchema,
  WatchInfoSchema,
  toApiBlockedUser,
  toApiRepository,
  toApiUser,
  toApiWatchInfo,
  type ApiView,
  type Page,
  type RepoAccess,
  type User,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

const EMPTY = { status: 204, description: 'APIEmpty is an empty response' } as const;

function users(page: Page<User>, view: ApiView) {
  return { items: page.items.map((u) => toApiUser(u, view)), total: page.total };
}

function repositories(page: Page<RepoAccess>, view: ApiView) {
  return { items: page.items.map((r) => toApiRepository(r, view)), total: page.total };
}

/** 204 when `yes`, else 404: how Forgejo answers "do you follow / star …?". */
function presence(yes: boolean): void {
  if (!yes) throw new NotFoundError();
}

/**
 * Follows (`/user/following`, `/users/{username}/followers`…), stars (`/user/starred`, `/repos/{owner}/{repo}/stargazers`),
 * watches (`/repos/{owner}/{repo}/subscription`, `/user/subscriptions`…) and blocks (`/user/block`, `/user/list_blocked`).
 */
export function registerSocialRoutes(_router: ApiRouter, { me, user, repo, org }: Groups): void {
  // ---- follows ----
  me.add({
    method: 'GET',
    path: '/followers',
    operationId: 'userCurrentListFollowers',
    summary: "List the authenticated user's followers",
    tag: 'user',
    scopes: ['user'],
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me, page, view }) => users(await host.social.listFollowers(actor, me, page), view),
  });

  me.add({
    method: 'GET',
    path: '/following',
    operationId: 'userCurrentListFollowing',
    summary: 'List the users that the authenticated user is following',
    tag: 'user',
    scopes: ['user'],
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me, page, view }) => users(await host.social.listFollowing(actor, me, page), view),
  });

  me.add({
    method: 'GET',
    path: '/following/{username}',
    operationId: 'userCurrentCheckFollowing',
    summary: 'Check whether a user is followed by the authenticated user',
    tag: 'user',
    scopes: ['user'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, me, params }) => presence(await host.social.isFollowing(me, await host.users.resolve(actor, params.username))),
  });

  me.add({
    method: 'PUT',
    path: '/following/{username}',
    operationId: 'userCurrentPutFollow',
    summary: 'Follow a user',
    tag: 'user',
    scopes: ['user'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.social.follow(actor, await host.users.resolve(actor, params.username)),
  });

  me.add({
    method: 'DELETE',
    path: '/following/{username}',
    operationId: 'userCurrentDeleteFollow',
    summary: 'Unfollow a user',
    tag: 'user',
    scopes: ['user'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.social.unfollow(actor, await host.users.resolve(actor, params.username)),
  });

  user.add({
    method: 'GET',
    path: '/followers',
    operationId: 'userListFollowers',
    summary: "List the given user's followers",
    tag: 'user',
    scopes: ['user'],
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, user, page, view }) => users(await host.social.listFollowers(actor, user, page), view),
  });

  user.add({
    method: 'GET',
    path: '/following',
    operationId: 'userListFollowing',
    summary: 'List the users that the given user is following',
    tag: 'user',
    scopes: ['user'],
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, user, page, view }) => users(await host.social.listFollowing(actor, user, page), view),
  });

  user.add({
    method: 'GET',
    path: '/following/{target}',
    operationId: 'userCheckFollowing',
    summary: 'Check if one user is following another user',
    tag: 'user',
    scopes: ['user'],
    reply: EMPTY,
    errors: ['not_found'],
    handler: async ({ host, actor, user, params }) => presence(await host.social.isFollowing(user, await host.users.resolve(actor, params.target))),
  });

  // ---- stars ----
  me.add({
    method: 'GET',
    path: '/starred',
    operationId: 'userCurrentListStarred',
    summary: 'The repos that the authenticated user has starred',
    tag: 'user',
    scopes: ['user', 'repository'],
    reply: { status: 200, description: 'RepositoryList', list: RepositorySchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me, page, view }) => repositories(await host.social.listStarred(actor, me, page), view),
  });

  me.add({
    method: 'GET',
    path: '/starred/{owner}/{repo}',
    operationId: 'userCurrentCheckStarring',
    summary: 'Whether the authenticated is starring the repo',
    tag: 'user',
    scopes: ['user', 'repository'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => presence(await host.social.isStarring(actor, await host.repos.resolve(actor, params.owner, params.repo))),
  });

  me.add({
    method: 'PUT',
    path: '/starred/{owner}/{repo}',
    operationId: 'userCurrentPutStar',
    summary: 'Star the given repo',
    tag: 'user',
    scopes: ['user', 'repository'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.social.star(actor, await host.repos.resolve(actor, params.owner, params.repo)),
  });

  me.add({
    method: 'DELETE',
    path: '/starred/{owner}/{repo}',
    operationId: 'userCurrentDeleteStar',
    summary: 'Unstar the given repo',
    tag: 'user',
    scopes: ['user', 'repository'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.social.unstar(actor, await host.repos.resolve(actor, params.owner, params.repo)),
  });

  user.add({
    method: 'GET',
    path: '/starred',
    operationId: 'userListStarred',
    summary: 'The repos that the given user has starred',
    tag: 'user',
    scopes: ['user', 'repository'],
    reply: { status: 200, description: 'RepositoryList', list: RepositorySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, user, page, view }) => repositories(await host.social.listStarred(actor, user, page), view),
  });

  repo.add({
    method: 'GET',
    path: '/stargazers',
    operationId: 'repoListStargazers',
    summary: "List a repo's stargazers",
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, page, view }) => users(await host.social.listStargazers(actor, repo, page), view),
  });

  // ---- watches ----
  repo.add({
    method: 'GET',
    path: '/subscription',
    operationId: 'userCurrentCheckSubscription',
    summary: 'Check if the current user is watching a repo',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: { status: 200, description: 'WatchInfo', schema: WatchInfoSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, view }) => {
      presence(await host.social.isWatching(actor, repo));
      return toApiWatchInfo(repo, view);
    },
  });

  repo.add({
    method: 'PUT',
    path: '/subscription',
    operationId: 'userCurrentPutSubscription',
    summary: 'Watch a repo',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: { status: 200, description: 'WatchInfo', schema: WatchInfoSchema },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, repo, view }) => {
      await host.social.watch(actor, repo);
      return toApiWatchInfo(repo, view);
    },
  });

  repo.add({
    method: 'DELETE',
    path: '/subscription',
    operationId: 'userCurrentDeleteSubscription',
    summary: 'Unwatch a repo',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: EMPTY,
    errors: ['not_found'],
    handler: async ({ host, actor, repo }) => host.social.unwatch(actor, repo),
  });

  repo.add({
    method: 'GET',
    path: '/subscribers',
    operationId: 'repoListSubscribers',
    summary: "List a repo's watchers",
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, page, view }) => users(await host.social.listSubscribers(actor, repo, page), view),
  });

  me.add({
    method: 'GET',
    path: '/subscriptions',
    operationId: 'userCurrentListSubscriptions',
    summary: 'List repositories watched by the authenticated user',
    tag: 'user',
    scopes: ['user', 'repository'],
    reply: { status: 200, description: 'RepositoryList', list: RepositorySchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me, page, view }) => repositories(await host.social.listSubscriptions(actor, me, page), view),
  });

  user.add({
    method: 'GET',
    path: '/subscriptions',
    operationId: 'userListSubscriptions',
    summary: 'List the repositories watched by a user',
    tag: 'user',
    scopes: ['user', 'repository'],
    reply: { status: 200, description: 'RepositoryList', list: RepositorySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, user, page, view }) => repositories(await host.social.listSubscriptions(actor, user, page), view),
  });

  // ---- blocks ----
  me.add({
    method: 'GET',
    path: '/list_blocked',
    operationId: 'userListBlockedUsers',
    summary: "List the authenticated user's blocked users",
    tag: 'user',
    scopes: ['user'],
    reply: { status: 200, description: 'BlockedUserList', list: BlockedUserSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, page }) => {
      const blocked = await host.social.listBlocked(actor, page);
      return { items: blocked.items.map(toApiBlockedUser), total: blocked.total };
    },
  });

  me.add({
    method: 'PUT',
    path: '/block/{username}',
    operationId: 'userBlockUser',
    summary: 'Blocks a user from the doer',
    tag: 'user',
    scopes: ['user'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, params }) => host.social.block(actor, await host.users.resolve(actor, params.username)),
  });

  me.add({
    method: 'PUT',
    path: '/unblock/{username}',
    operationId: 'userUnblockUser',
    summary: 'Unblocks a user from the doer',
    tag: 'user',
    scopes: ['user'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, params }) => host.social.unblock(actor, await host.users.resolve(actor, params.username)),
  });

  // ---- an organization's blocks (its owners) ----
  org.add({
    method: 'GET',
    path: '/list_blocked',
    operationId: 'orgListBlockedUsers',
    summary: "List the organization's blocked users",
    tag: 'organization',
    scopes: ['organization'],
    auth: 'token',
    reply: { status: 200, description: 'BlockedUserList', list: BlockedUserSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, org: organization, page }) => {
      const blocked = await host.social.listBlockedByOrg(actor, organization, page);
      return { items: blocked.items.map(toApiBlockedUser), total: blocked.total };
    },
  });

  org.add({
    method: 'PUT',
    path: '/block/{username}',
    operationId: 'orgBlockUser',
    summary: 'Blocks a user from the organization',
    tag: 'organization',
    scopes: ['organization'],
    auth: 'token',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, org: organization, params }) =>
      host.social.blockForOrg(actor, organization, await host.users.resolve(actor, params.username)),
  });

  org.add({
    method: 'PUT',
    path: '/unblock/{username}',
    operationId: 'orgUnblockUser',
    summary: 'Unblock a user from the organization',
    tag: 'organization',
    scopes: ['organization'],
    auth: 'token',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, org: organization, params }) =>
      host.social.unblockForOrg(actor, organization, await host.users.resolve(actor, params.username)),
  });
}
