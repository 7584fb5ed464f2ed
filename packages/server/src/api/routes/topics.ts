import { Type } from '@sinclair/typebox';
import {
  InvalidTopicsError,
  RepoTopicOptionsSchema,
  TopicNameSchema,
  TopicSearchResultsSchema,
  clampPage,
  toApiTopic,
  type ApiInvalidTopicsError,
} from '@repohost/core';
import { FastResponse } from 'srvx';
import { PagingQuery, setPaginationHeaders, type ApiRouter, type ResponseHeaders } from '../router.js';
import type { Groups } from '../groups.js';

/** Forgejo's 422 for topic names: `{"invalidTopics": …, "message": …}`, not the usual `{message, url}`. */
function invalidTopicsResponse(error: InvalidTopicsError, headers: ResponseHeaders): Response {
  const body: ApiInvalidTopicsError = { invalidTopics: error.invalidTopics, message: error.reason };
  const text = JSON.stringify(body);
  headers['content-length'] = String(Buffer.byteLength(text));
  return new FastResponse(text, { status: 422, headers });
}

/** Runs a topic change; its InvalidTopicsError becomes Forgejo's 422 body. */
async function changeTopics(headers: ResponseHeaders, work: () => Promise<void>): Promise<Response | void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof InvalidTopicsError) return invalidTopicsResponse(error, headers);
    throw error;
  }
}

/** `/repos/{owner}/{repo}/topics…` and `/topics/search`. */
export function registerTopicRoutes(router: ApiRouter, { repo }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/topics',
    operationId: 'repoListTopics',
    summary: 'Get list of topics that a repository has',
    tag: 'repository',
    scopes: ['repository'],
    query: PagingQuery,
    reply: { status: 200, description: 'TopicNames', schema: TopicNameSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, query, event, responseHeaders }) => {
      const page = clampPage(host.settings, query);
      const { items, total } = host.topics.list(actor, repo, page);
      setPaginationHeaders(responseHeaders, host.settings.server.ROOT_URL, event.url, page, total);
      return { topics: items };
    },
  });

  repo.add({
    method: 'PUT',
    path: '/topics',
    operationId: 'repoUpdateTopics',
    summary: 'Replace list of topics for a repository',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    body: RepoTopicOptionsSchema,
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, body, responseHeaders }) => changeTopics(responseHeaders, () => host.topics.replace(actor, repo, body)),
  });

  repo.add({
    method: 'PUT',
    path: '/topics/{topic}',
    operationId: 'repoAddTopic',
    summary: 'Add a topic to a repository',
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, params, responseHeaders }) => changeTopics(responseHeaders, () => host.topics.add(actor, repo, params.topic)),
  });

  repo.add({
    method: 'DELETE',
    path: '/topics/{topic}',
    operationId: 'repoDeleteTopic',
    summary: 'Delete a topic from a repository',
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, params, responseHeaders }) => changeTopics(responseHeaders, () => host.topics.remove(actor, repo, params.topic)),
  });

  router.add({
    method: 'GET',
    path: '/topics/search',
    operationId: 'topicSearch',
    summary: 'Search for topics by keyword',
    tag: 'repository',
    scopes: ['repository'],
    query: Type.Object({ q: Type.Optional(Type.String({ description: 'keyword to search for' })), ...PagingQuery.properties }),
    reply: { status: 200, description: 'SearchResults of a successful search', schema: TopicSearchResultsSchema },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, query, event, responseHeaders }) => {
      const page = clampPage(host.settings, query);
      const { items, total } = await host.topics.search(actor, query.q ?? '', page);
      setPaginationHeaders(responseHeaders, host.settings.server.ROOT_URL, event.url, page, total);
      return { topics: items.map(toApiTopic) };
    },
  });
}
