import { Type } from '@sinclair/typebox';
import { AddTimeOptionSchema, StopWatchSchema, TrackedTimeQuery, TrackedTimeRangeQuery, TrackedTimeSchema } from '@repohost/core';
import { FastResponse } from 'srvx';
import type { ApiRouter, ResponseHeaders } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** Forgejo's bodiless 201 (`ctx.Status(http.StatusCreated)`). */
function emptyCreated(headers: ResponseHeaders): Response {
  const { 'content-type': _json, ...rest } = headers;
  return new FastResponse(null, { status: 201, headers: rest });
}

/** A path id as Forgejo reads it (`ParamsInt64`): anything but a positive decimal is 0, which names nothing. */
function pathId(text: string): number {
  return /^\d{1,15}$/.test(text) ? Number(text) : 0;
}

/**
 * Time tracking: an issue's tracked times (`…/issues/{index}/times`) and stopwatch (`…/stopwatch/*`), a
 * repository's times (`/repos/{owner}/{repo}/times`), and the signed-in user's times and stopwatches (`/user/…`).
 */
export function registerTimeRoutes(_router: ApiRouter, { me, issueTimes, issueStopwatch, repoTimes }: Groups): void {
  issueTimes.add({
    method: 'GET',
    path: '',
    operationId: 'issueTrackedTimes',
    summary: "List an issue's tracked times",
    query: TrackedTimeQuery,
    reply: { status: 200, description: 'TrackedTimeList', list: TrackedTimeSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, issue, query, page, view }) => {
      const { items, total } = await host.times.listOfIssue(actor, repo, issue, query, page);
      return { items: await host.times.toApi(actor, view, items, repo), total };
    },
  });

  issueTimes.add({
    method: 'POST',
    path: '',
    operationId: 'issueAddTime',
    summary: 'Add tracked time to a issue',
    body: AddTimeOptionSchema,
    reply: { status: 200, description: 'TrackedTime', schema: TrackedTimeSchema },
    errors: ['unauthorized', 'bad_request', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, issue, body, view }) => {
      const time = await host.times.add(actor, repo, issue, body);
      return (await host.times.toApi(actor, view, [time], repo))[0]!;
    },
  });

  issueTimes.add({
    method: 'DELETE',
    path: '',
    operationId: 'issueResetTime',
    summary: 'Reset a tracked time of an issue',
    reply: EMPTY,
    errors: ['unauthorized', 'bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, issue }) => host.times.reset(actor, repo, issue),
  });

  issueTimes.add({
    method: 'DELETE',
    path: '/{id}',
    operationId: 'issueDeleteTime',
    summary: 'Delete specific tracked time',
    reply: EMPTY,
    errors: ['unauthorized', 'bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, issue, params }) => host.times.delete(actor, repo, issue, pathId(params.id)),
  });

  // The caller's stopwatch on the issue, started, stopped (its time tracked) or deleted: all alike but for the answer,
  // empty either way: 201 for a start or a stop (Forgejo's `ctx.Status(http.StatusCreated)`), 204 for a deletion.
  for (const [method, path, operationId, summary, change] of [
    ['POST', '/start', 'issueStartStopWatch', 'Start stopwatch on an issue.', 'startStopwatch'],
    ['POST', '/stop', 'issueStopStopWatch', "Stop an issue's existing stopwatch.", 'stopStopwatch'],
    ['DELETE', '/delete', 'issueDeleteStopWatch', "Delete an issue's existing stopwatch.", 'cancelStopwatch'],
  ] as const) {
    const created = method === 'POST';
    issueStopwatch.add({
      method,
      path,
      operationId,
      summary,
      reply: created ? { status: 201, description: EMPTY.description, schema: Type.Unknown() } : EMPTY,
      errors: ['unauthorized', 'forbidden', 'not_found', 'conflict'],
      handler: async ({ host, actor, repo, issue, responseHeaders }) => {
        await host.times[change](actor, repo, issue);
        return created ? emptyCreated(responseHeaders) : undefined;
      },
    });
  }

  repoTimes.add({
    method: 'GET',
    path: '',
    operationId: 'repoTrackedTimes',
    summary: "List a repo's tracked times",
    query: TrackedTimeQuery,
    reply: { status: 200, description: 'TrackedTimeList', list: TrackedTimeSchema },
    errors: ['unauthorized', 'bad_request', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, query, page, view }) => {
      const { items, total } = await host.times.listOfRepo(actor, repo, query, page);
      return { items: await host.times.toApi(actor, view, items, repo), total };
    },
  });

  repoTimes.add({
    method: 'GET',
    path: '/{user}',
    operationId: 'userTrackedTimes',
    summary: "List a user's tracked times in a repo",
    reply: { status: 200, description: 'TrackedTimeListWithoutPagination', schema: Type.Array(TrackedTimeSchema) },
    errors: ['unauthorized', 'bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params, view }) =>
      host.times.toApi(actor, view, await host.times.listOfUserInRepo(actor, repo, params.user), repo),
  });

  me.add({
    method: 'GET',
    path: '/times',
    operationId: 'userCurrentTrackedTimes',
    summary: "List the current user's tracked times",
    query: TrackedTimeRangeQuery,
    reply: { status: 200, description: 'TrackedTimeList', list: TrackedTimeSchema },
    errors: ['unauthorized', 'forbidden', 'validation'],
    handler: async ({ host, actor, query, page, view }) => {
      const { items, total } = await host.times.listMine(actor, query, page);
      return { items: await host.times.toApi(actor, view, items), total };
    },
  });

  me.add({
    method: 'GET',
    path: '/stopwatches',
    operationId: 'userGetStopWatches',
    summary: 'Get list of all existing stopwatches',
    reply: { status: 200, description: 'StopWatchList', list: StopWatchSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, page }) => host.times.stopwatches(actor, page),
  });
}
