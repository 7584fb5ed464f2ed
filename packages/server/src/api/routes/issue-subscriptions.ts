import { Type } from '@sinclair/typebox';
import { FastResponse } from 'srvx';
import { UserSchema, WatchInfoSchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { apiUsers } from './common.js';

/**
 * Who follows an issue: `/repos/{owner}/{repo}/issues/{index}/subscriptions` (the list is open to anyone who may
 * read the issue; checking and changing need a token), with the `issue` scope.
 */
export function registerIssueSubscriptionRoutes(_router: ApiRouter, { issue }: Groups): void {
  issue.add({
    method: 'GET',
    path: '/subscriptions',
    operationId: 'issueSubscriptions',
    summary: 'Get users who subscribed on an issue.',
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, issue, page, view }) => {
      const result = await host.issueSubscriptions.listSubscribers(actor, issue, page);
      return apiUsers(result, view);
    },
  });

  issue.add({
    method: 'GET',
    path: '/subscriptions/check',
    operationId: 'issueCheckSubscription',
    summary: 'Check if user is subscribed to an issue',
    auth: 'token',
    reply: { status: 200, description: 'WatchInfo', schema: WatchInfoSchema },
    errors: ['unauthorized', 'not_found'],
    handler: async ({ host, actor, repo, issue, view }) => host.issueSubscriptions.check(actor, repo, issue, view),
  });

  for (const [method, watch] of [['PUT', true], ['DELETE', false]] as const) {
    issue.add({
      method,
      path: '/subscriptions/{user}',
      operationId: watch ? 'issueAddSubscription' : 'issueDeleteSubscription',
      summary: watch ? 'Subscribe user to issue' : 'Unsubscribe user from issue',
      auth: 'token',
      // 201 when it changed; 200, without a body too, when the account already was (un)subscribed.
      reply: { status: 201, description: watch ? 'Successfully Subscribed' : 'Successfully Unsubscribed', schema: Type.Null() },
      errors: ['unauthorized', 'forbidden', 'not_found'],
      handler: async ({ host, actor, issue, params, responseHeaders }) => {
        const target = await host.users.resolve(actor, params.user);
        const change = await host.issueSubscriptions.set(actor, issue, target, watch);
        delete responseHeaders['content-type'];
        return new FastResponse(null, { status: change === 'changed' ? 201 : 200, headers: { ...responseHeaders, 'content-length': '0' } });
      },
    });
  }
}
