import { Type } from '@sinclair/typebox';
import { RepoTopicOptionsSchema, TopicNameSchema, TopicSearchResultsSchema, clampPage, toApiTopic } from '@repohost/core';
import { PagingQuery, setPaginationHeaders, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY, addChanges } from './common.js';

/**
 * `/repos/{owner}/{repo}/topics…` and `/topics/search`. Topic names that cannot be stored answer 422 with Forgejo's
 * `{"invalidTopics": …, "message": …}` (InvalidTopicsError; api/errors.ts shapes it).
 */
export function registerTopicRoutes(router: ApiRouter, { repo }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/topics',
    operationId: 'repoListTopics',
    summary: 'Get list of topics that a repository has',
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
    auth: 'token',
    body: RepoTopicOptionsSchema,
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, body }) => host.topics.replace(actor, repo, body),
  });

  const TOPIC_ERRORS = ['forbidden', 'not_found', 'validation'] as const;
  addChanges(repo, '/topics/{topic}', [
    { method: 'PUT', operationId: 'repoAddTopic', summary: 'Add a topic to a repository', errors: TOPIC_ERRORS },
    { method: 'DELETE', operationId: 'repoDeleteTopic', summary: 'Delete a topic from a repository', errors: TOPIC_ERRORS },
  ], async ({ host, actor, repo, params }, add) => (add ? host.topics.add(actor, repo, params.topic) : host.topics.remove(actor, repo, params.topic)));

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
