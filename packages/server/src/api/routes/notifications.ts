import { Type } from '@sinclair/typebox';
import {
  NotificationCountSchema,
  NotificationListQuerySchema,
  NotificationMarkQuerySchema,
  NotificationThreadMarkQuerySchema,
  NotificationThreadSchema,
  toApiNotificationThread,
  type ApiView,
  type LoadedNotification,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

const THREAD_LIST = Type.Array(NotificationThreadSchema);

function threads(loaded: readonly LoadedNotification[], view: ApiView) {
  return loaded.map((n) => toApiNotificationThread(n, view));
}

/** A thread id as Forgejo's `ParamsInt64` reads it: anything but a number is 0, a thread that does not exist. */
function threadId(text: string): number {
  return /^\d{1,15}$/.test(text) ? Number(text) : 0;
}

/**
 * The signed-in user's notification threads: `/notifications`, `/notifications/new`, `/notifications/threads/{id}`,
 * and one repository's threads under `/repos/{owner}/{repo}/notifications`. All need a token, and the
 * `notification` scope (read for GET, write otherwise), as in Forgejo.
 */
export function registerNotificationRoutes(router: ApiRouter, { repo }: Groups): void {
  router.add({
    method: 'GET',
    path: '/notifications',
    operationId: 'notifyGetList',
    summary: "List users's notification threads",
    tag: 'notification',
    auth: 'token',
    scopes: ['notification'],
    query: NotificationListQuerySchema,
    reply: { status: 200, description: 'NotificationThreadList', list: NotificationThreadSchema },
    errors: ['unauthorized', 'forbidden', 'validation'],
    handler: async ({ host, actor, query, page, view }) => {
      const result = await host.notifications.list(actor, query, page);
      return { items: threads(result.items, view), total: result.total };
    },
  });

  router.add({
    method: 'PUT',
    path: '/notifications',
    operationId: 'notifyReadList',
    summary: 'Mark notification threads as read, pinned or unread',
    tag: 'notification',
    auth: 'token',
    scopes: ['notification'],
    query: NotificationMarkQuerySchema,
    reply: { status: 205, description: 'NotificationThreadList', schema: THREAD_LIST },
    errors: ['unauthorized', 'forbidden', 'bad_request'],
    handler: async ({ host, actor, query, view }) => threads(await host.notifications.mark(actor, query), view),
  });

  router.add({
    method: 'GET',
    path: '/notifications/new',
    operationId: 'notifyNewAvailable',
    summary: 'Check if unread notifications exist',
    tag: 'notification',
    auth: 'token',
    scopes: ['notification'],
    reply: { status: 200, description: 'NotificationCount', schema: NotificationCountSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor }) => ({ new: await host.notifications.countUnread(actor) }),
  });

  router.add({
    method: 'GET',
    path: '/notifications/threads/{id}',
    operationId: 'notifyGetThread',
    summary: 'Get notification thread by ID',
    tag: 'notification',
    auth: 'token',
    scopes: ['notification'],
    reply: { status: 200, description: 'NotificationThread', schema: NotificationThreadSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params, view }) => toApiNotificationThread(await host.notifications.thread(actor, threadId(params.id)), view),
  });

  router.add({
    method: 'PATCH',
    path: '/notifications/threads/{id}',
    operationId: 'notifyReadThread',
    summary: 'Mark notification thread as read by ID',
    tag: 'notification',
    auth: 'token',
    scopes: ['notification'],
    query: NotificationThreadMarkQuerySchema,
    reply: { status: 205, description: 'NotificationThread', schema: NotificationThreadSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params, query, view }) =>
      toApiNotificationThread(await host.notifications.markThread(actor, threadId(params.id), query['to-status']), view),
  });

  repo.add({
    method: 'GET',
    path: '/notifications',
    operationId: 'notifyGetRepoList',
    summary: "List users's notification threads on a specific repo",
    tag: 'notification',
    auth: 'token',
    scopes: ['notification'],
    query: NotificationListQuerySchema,
    reply: { status: 200, description: 'NotificationThreadList', list: NotificationThreadSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, query, page, view }) => {
      const result = await host.notifications.list(actor, query, page, repo);
      return { items: threads(result.items, view), total: result.total };
    },
  });

  repo.add({
    method: 'PUT',
    path: '/notifications',
    operationId: 'notifyReadRepoList',
    summary: 'Mark notification threads as read, pinned or unread on a specific repo',
    tag: 'notification',
    auth: 'token',
    scopes: ['notification'],
    query: NotificationMarkQuerySchema,
    reply: { status: 205, description: 'NotificationThreadList', schema: THREAD_LIST },
    errors: ['unauthorized', 'forbidden', 'not_found', 'bad_request'],
    handler: async ({ host, actor, repo, query, view }) => threads(await host.notifications.mark(actor, query, repo), view),
  });
}
