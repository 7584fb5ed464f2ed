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
export function registerNotificationRoutes(_router: ApiRouter, { notifications, repoNotifications }: Groups): void {
  notifications.add({
    method: 'GET',
    path: '',
    operationId: 'notifyGetList',
    summary: "List users's notification threads",
    query: NotificationListQuerySchema,
    reply: { status: 200, description: 'NotificationThreadList', list: NotificationThreadSchema },
    errors: ['unauthorized', 'forbidden', 'validation'],
    handler: async ({ host, actor, query, page, view }) => {
      const result = await host.notifications.list(actor, query, page);
      return { items: threads(result.items, view), total: result.total };
    },
  });

  notifications.add({
    method: 'PUT',
    path: '',
    operationId: 'notifyReadList',
    summary: 'Mark notification threads as read, pinned or unread',
    query: NotificationMarkQuerySchema,
    reply: { status: 205, description: 'NotificationThreadList', schema: THREAD_LIST },
    errors: ['unauthorized', 'forbidden', 'bad_request'],
    handler: async ({ host, actor, query, view }) => threads(await host.notifications.mark(actor, query), view),
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

  repoNotifications.add({
    method: 'GET',
    path: '',
    operationId: 'notifyGetRepoList',
    summary: "List users's notification threads on a specific repo",
    query: NotificationListQuerySchema,
    reply: { status: 200, description: 'NotificationThreadList', list: NotificationThreadSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, query, page, view }) => {
      const result = await host.notifications.list(actor, query, page, repo);
      return { items: threads(result.items, view), total: result.total };
    },
  });

  repoNotifications.add({
    method: 'PUT',
    path: '',
    operationId: 'notifyReadRepoList',
    summary: 'Mark notification threads as read, pinned or unread on a specific repo',
    query: NotificationMarkQuerySchema,
    reply: { status: 205, description: 'NotificationThreadList', schema: THREAD_LIST },
    errors: ['unauthorized', 'forbidden', 'not_found', 'bad_request'],
    handler: async ({ host, actor, repo, query, view }) => threads(await host.notifications.mark(actor, query, repo), view),
  });
}
