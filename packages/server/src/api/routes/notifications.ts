import { Type } from '@sinclair/typebox';
import {
  NotificationCountSchema,
  NotificationListQuerySchema,
  NotificationMarkQuerySchema,
  NotificationThreadMarkQuerySchema,
  NotificationThreadSchema,
  toApiNotificationThread,
  toApiNotificationThreads,
  type Page,
  type ApiView,
  type LoadedNotification,
  type RepoAccess,
  type RepoHostErrorKind,
} from '@repohost/core';
import type { ApiRouter, RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';

const THREAD_LIST = Type.Array(NotificationThreadSchema);

function threads(loaded: readonly LoadedNotification[], view: ApiView) {
  return toApiNotificationThreads(loaded, view);
}

function threadPage(page: Page<LoadedNotification>, view: ApiView): Page<ReturnType<typeof toApiNotificationThread>> {
  return { items: toApiNotificationThreads(page.items, view), total: page.total };
}

/** A thread id as Forgejo's `ParamsInt64` reads it: anything but a number is 0, a thread that does not exist. */
function threadId(text: string): number {
  return /^\d{1,15}$/.test(text) ? Number(text) : 0;
}

/**
 * What the thread lists of the signed-in user (`/notifications`) and of one repository
 * (`/repos/{owner}/{repo}/notifications`) differ in: operation id, summary and errors of the list and of marking
 * its threads, and the repository they are limited to (none: all of the user's).
 */
interface ThreadLists<Loaded> {
  list: readonly [string, string, readonly RepoHostErrorKind[]];
  mark: readonly [string, string, readonly RepoHostErrorKind[]];
  repo: (loaded: Loaded) => RepoAccess | undefined;
}

/** `GET` (a page of threads) and `PUT` (mark threads, answering the ones it changed) on the group's own path. */
function addThreadLists<P extends string, Loaded>(group: RouteGroup<P, Loaded, true>, { list, mark, repo }: ThreadLists<Loaded>): void {
  group.add({
    method: 'GET',
    path: '',
    operationId: list[0],
    summary: list[1],
    query: NotificationListQuerySchema,
    reply: { status: 200, description: 'NotificationThreadList', list: NotificationThreadSchema },
    errors: list[2],
    handler: async (ctx) => threadPage(await ctx.host.notifications.list(ctx.actor, ctx.query, ctx.page, repo(ctx)), ctx.view),
  });

  group.add({
    method: 'PUT',
    path: '',
    operationId: mark[0],
    summary: mark[1],
    query: NotificationMarkQuerySchema,
    reply: { status: 205, description: 'NotificationThreadList', schema: THREAD_LIST },
    errors: mark[2],
    handler: async (ctx) => threads(await ctx.host.notifications.mark(ctx.actor, ctx.query, repo(ctx)), ctx.view),
  });
}

/**
 * The signed-in user's notification threads: `/notifications`, `/notifications/new`, `/notifications/threads/{id}`,
 * and one repository's threads under `/repos/{owner}/{repo}/notifications`. All need a token, and the
 * `notification` scope (read for GET, write otherwise), as in Forgejo.
 */
export function registerNotificationRoutes(_router: ApiRouter, { notifications, repoNotifications }: Groups): void {
  addThreadLists(notifications, {
    list: ['notifyGetList', "List users's notification threads", ['unauthorized', 'forbidden', 'validation']],
    mark: ['notifyReadList', 'Mark notification threads as read, pinned or unread', ['unauthorized', 'forbidden', 'bad_request']],
    repo: () => undefined,
  });

  notifications.add({
    method: 'GET',
    path: '/new',
    operationId: 'notifyNewAvailable',
    summary: 'Check if unread notifications exist',
    reply: { status: 200, description: 'NotificationCount', schema: NotificationCountSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor }) => ({ new: await host.notifications.countUnread(actor) }),
  });

  notifications.add({
    method: 'GET',
    path: '/threads/{id}',
    operationId: 'notifyGetThread',
    summary: 'Get notification thread by ID',
    reply: { status: 200, description: 'NotificationThread', schema: NotificationThreadSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params, view }) => toApiNotificationThread(await host.notifications.thread(actor, threadId(params.id)), view),
  });

  notifications.add({
    method: 'PATCH',
    path: '/threads/{id}',
    operationId: 'notifyReadThread',
    summary: 'Mark notification thread as read by ID',
    query: NotificationThreadMarkQuerySchema,
    reply: { status: 205, description: 'NotificationThread', schema: NotificationThreadSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params, query, view }) =>
      toApiNotificationThread(await host.notifications.markThread(actor, threadId(params.id), query['to-status']), view),
  });

  addThreadLists(repoNotifications, {
    list: ['notifyGetRepoList', "List users's notification threads on a specific repo", ['unauthorized', 'forbidden', 'not_found', 'validation']],
    mark: [
      'notifyReadRepoList',
      'Mark notification threads as read, pinned or unread on a specific repo',
      ['unauthorized', 'forbidden', 'not_found', 'bad_request'],
    ],
    repo: ({ repo }) => repo,
  });
}
