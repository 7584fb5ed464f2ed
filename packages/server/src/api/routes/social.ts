import {
  BlockedUserSchema,
  NotFoundError,
  RepositorySchema,
  UserSchema,
  WatchInfoSchema,
  toApiBlockedUser,
  toApiWatchInfo,
  type RepoHostErrorKind,
  type User,
} from '@repohost/core';
import { mapPage, type ApiRouter, type RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY, apiRepositories, apiUsers } from './common.js';

/** 204 when `yes`, else 404: how Forgejo answers "do you follow / star …?". */
function presence(yes: boolean): void {
  if (!yes) throw new NotFoundError();
}

/** The signed-in user (`/user/…`) or another account (`/users/{username}/…`): what their lists differ in. */
interface AccountSide<Loaded> {
  /** Operation ids' prefix: `userCurrent`, `user`. */
  prefix: string;
  /** How summaries name the account. */
  who: string;
  errors: readonly RepoHostErrorKind[];
  /** The account, from what the group loaded. */
  account: (loaded: Loaded) => User;
}

/** `GET …/followers` and `…/following`: the accounts following the account, and those it follows. */
function addFollowLists<P extends string, Loaded>(group: RouteGroup<P, Loaded, true>, side: AccountSide<Loaded>): void {
  const lists = [
    ['/followers', 'Followers', `List ${side.who}'s followers`, 'listFollowers'],
    ['/following', 'Following', `List the users that ${side.who} is following`, 'listFollowing'],
  ] as const;
  for (const [path, name, summary, list] of lists) {
    group.add({
      method: 'GET',
      path,
      operationId: `${side.prefix}List${name}`,
      summary,
      reply: { status: 200, description: 'UserList', list: UserSchema },
      errors: side.errors,
      handler: async (ctx) => apiUsers(await ctx.host.social[list](ctx.actor, side.account(ctx), ctx.page), ctx.view),
    });
  }
}

/** `GET …/starred`, `…/subscriptions`: repositories the account starred or watches. */
function addRepoList<P extends string, Loaded>(
  group: RouteGroup<P, Loaded, true>,
  side: AccountSide<Loaded>,
  name: string,
  summary: string,
  list: 'listStarred' | 'listSubscriptions',
): void {
  group.add({
    method: 'GET',
    path: `/${name.toLowerCase()}`,
    operationId: `${side.prefix}List${name}`,
    summary,
    scopes: ['user', 'repository'],
    reply: { status: 200, description: 'RepositoryList', list: RepositorySchema },
    errors: side.errors,
    handler: async (ctx) => apiRepositories(await ctx.host.social[list](ctx.actor, side.account(ctx), ctx.page), ctx.view),
  });
}

/**
 * Follows (`/user/following`, `/users/{username}/followers`…), stars (`/user/starred`, `/repos/{owner}/{repo}/stargazers`),
 * watches (`/repos/{owner}/{repo}/subscription`, `/user/subscriptions`…) and blocks (`/user/block`, `/user/list_blocked`).
 */
export function registerSocialRoutes(_router: ApiRouter, { me, user, repo, repoSubscription, org }: Groups): void {
  const mine: AccountSide<{ me: User }> = { prefix: 'userCurrent', who: 'the authenticated user', errors: ['unauthorized', 'forbidden'], account: ({ me }) => me };
  const theirs: AccountSide<{ user: User }> = { prefix: 'user', who: 'the given user', errors: ['not_found'], account: ({ user }) => user };

  // ---- follows ----
  addFollowLists(me, mine);

  me.add({
    method: 'GET',
    path: '/following/{username}',
    operationId: 'userCurrentCheckFollowing',
    summary: 'Check whether a user is followed by the authenticated user',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, me, params }) => presence(await host.social.isFollowing(me, await host.users.resolve(actor, params.username))),
  });

  me.add({
    method: 'PUT',
    path: '/following/{username}',
    operationId: 'userCurrentPutFollow',
    summary: 'Follow a user',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.social.follow(actor, await host.users.resolve(actor, params.username)),
  });

  me.add({
    method: 'DELETE',
    path: '/following/{username}',
    operationId: 'userCurrentDeleteFollow',
    summary: 'Unfollow a user',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.social.unfollow(actor, await host.users.resolve(actor, params.username)),
  });

  addFollowLists(user, theirs);

  user.add({
    method: 'GET',
    path: '/following/{target}',
    operationId: 'userCheckFollowing',
    summary: 'Check if one user is following another user',
    reply: EMPTY,
    errors: ['not_found'],
    handler: async ({ host, actor, user, params }) => presence(await host.social.isFollowing(user, await host.users.resolve(actor, params.target))),
  });

  // ---- stars ----
  addRepoList(me, mine, 'Starred', 'The repos that the authenticated user has starred', 'listStarred');

  me.add({
    method: 'GET',
    path: '/starred/{owner}/{repo}',
    operationId: 'userCurrentCheckStarring',
    summary: 'Whether the authenticated is starring the repo',
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
    scopes: ['user', 'repository'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.social.unstar(actor, await host.repos.resolve(actor, params.owner, params.repo)),
  });

  addRepoList(user, theirs, 'Starred', 'The repos that the given user has starred', 'listStarred');

  repo.add({
    method: 'GET',
    path: '/stargazers',
    operationId: 'repoListStargazers',
    summary: "List a repo's stargazers",
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, page, view }) => apiUsers(await host.social.listStargazers(actor, repo, page), view),
  });

  // ---- watches ----
  repoSubscription.add({
    method: 'GET',
    path: '',
    operationId: 'userCurrentCheckSubscription',
    summary: 'Check if the current user is watching a repo',
    reply: { status: 200, description: 'WatchInfo', schema: WatchInfoSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, view }) => {
      presence(await host.social.isWatching(actor, repo));
      return toApiWatchInfo(repo, view);
    },
  });

  repoSubscription.add({
    method: 'PUT',
    path: '',
    operationId: 'userCurrentPutSubscription',
    summary: 'Watch a repo',
    reply: { status: 200, description: 'WatchInfo', schema: WatchInfoSchema },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, repo, view }) => {
      await host.social.watch(actor, repo);
      return toApiWatchInfo(repo, view);
    },
  });

  repoSubscription.add({
    method: 'DELETE',
    path: '',
    operationId: 'userCurrentDeleteSubscription',
    summary: 'Unwatch a repo',
    reply: EMPTY,
    errors: ['not_found'],
    handler: async ({ host, actor, repo }) => host.social.unwatch(actor, repo),
  });

  repo.add({
    method: 'GET',
    path: '/subscribers',
    operationId: 'repoListSubscribers',
    summary: "List a repo's watchers",
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, page, view }) => apiUsers(await host.social.listSubscribers(actor, repo, page), view),
  });

  addRepoList(me, mine, 'Subscriptions', 'List repositories watched by the authenticated user', 'listSubscriptions');
  addRepoList(user, theirs, 'Subscriptions', 'List the repositories watched by a user', 'listSubscriptions');

  // ---- blocks ----
  me.add({
    method: 'GET',
    path: '/list_blocked',
    operationId: 'userListBlockedUsers',
    summary: "List the authenticated user's blocked users",
    reply: { status: 200, description: 'BlockedUserList', list: BlockedUserSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, page }) => {
      const blocked = await host.social.listBlocked(actor, page);
      return mapPage(blocked, toApiBlockedUser);
    },
  });

  me.add({
    method: 'PUT',
    path: '/block/{username}',
    operationId: 'userBlockUser',
    summary: 'Blocks a user from the doer',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, params }) => host.social.block(actor, await host.users.resolve(actor, params.username)),
  });

  me.add({
    method: 'PUT',
    path: '/unblock/{username}',
    operationId: 'userUnblockUser',
    summary: 'Unblocks a user from the doer',
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
    auth: 'token',
    reply: { status: 200, description: 'BlockedUserList', list: BlockedUserSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, org: organization, page }) => {
      const blocked = await host.social.listBlockedByOrg(actor, organization, page);
      return mapPage(blocked, toApiBlockedUser);
    },
  });

  org.add({
    method: 'PUT',
    path: '/block/{username}',
    operationId: 'orgBlockUser',
    summary: 'Blocks a user from the organization',
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
    auth: 'token',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, org: organization, params }) =>
      host.social.unblockForOrg(actor, organization, await host.users.resolve(actor, params.username)),
  });
}
