/**
 * What the branch and tag routes share: a repository's refs of one kind listed, created, read and deleted the same
 * way (`/branches…`, `/tags…`), writes through the group of ref writers (Forgejo's reqRepoWriter, mustNotBeArchived).
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { Actor, ApiView, Page, PageRequest, RepoAccess, RepoHost } from '@repohost/core';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** What a kind of ref's service offers the routes. */
interface RefService<Item, Create> {
  list(actor: Actor, access: RepoAccess, view: ApiView, page: PageRequest): Promise<Page<Item>>;
  create(actor: Actor, access: RepoAccess, view: ApiView, input: Create): Promise<Item>;
  get(actor: Actor, access: RepoAccess, view: ApiView, name: string): Promise<Item>;
  delete(actor: Actor, access: RepoAccess, name: string): Promise<void>;
}

/** What the kinds differ in. `name`, `plural`: as operation ids and replies say them (`Branch`, `Branches`). */
export interface RefRoutes<C extends TSchema> {
  path: '/branches' | '/tags';
  param: 'branch' | 'tag';
  name: string;
  plural: string;
  schema: TSchema;
  create: C;
  /** Summaries of list, create, get and delete. */
  summaries: readonly [string, string, string, string];
  service: (host: RepoHost) => RefService<unknown, Static<C>>;
}

/** `GET` and `POST {path}`, `GET` and `DELETE {path}/{name}`. */
export function addRefRoutes<C extends TSchema>({ repo, refWriter }: Groups, refs: RefRoutes<C>): void {
  const { path, name, summaries, service } = refs;
  const one = `${path}/{${refs.param}}` as const;
  const named = (params: unknown) => (params as Record<string, string>)[refs.param]!;
  repo.add({
    method: 'GET',
    path,
    operationId: `repoList${refs.plural}`,
    summary: summaries[0],
    reply: { status: 200, description: `${name}List`, list: refs.schema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, page, view }) => service(host).list(actor, repo, view, page),
  });

  refWriter.add({
    method: 'POST',
    path,
    operationId: `repoCreate${name}`,
    summary: summaries[1],
    body: refs.create,
    reply: { status: 201, description: name, schema: refs.schema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation', 'locked'],
    handler: async ({ host, actor, repo, body, view }) => service(host).create(actor, repo, view, body as Static<C>),
  });

  repo.add({
    method: 'GET',
    path: one,
    operationId: `repoGet${name}`,
    summary: summaries[2],
    reply: { status: 200, description: name, schema: refs.schema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params, view }) => service(host).get(actor, repo, view, named(params)),
  });

  refWriter.add({
    method: 'DELETE',
    path: one,
    operationId: `repoDelete${name}`,
    summary: summaries[3],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'locked'],
    handler: async ({ host, actor, repo, params }) => service(host).delete(actor, repo, named(params)),
  });
}
