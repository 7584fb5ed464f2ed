/**
 * What the branch and tag protection routes share: a repository's rules of one kind listed, created, read, edited
 * and deleted the same way (`/branch_protections…`, `/tag_protections…`), by its administrators.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Actor, ProtectionService, RepoAccess, RepoHostErrorKind } from '@repohost/core';
import type { RouteGroup } from '../router.js';
import { EMPTY } from './common.js';

/** The protection service's operations on one kind of rule, named by `Key`. */
interface RuleOperations<Key, Create, Edit> {
  list(actor: Actor, access: RepoAccess): Promise<unknown[]>;
  create(actor: Actor, access: RepoAccess, input: Create): Promise<unknown>;
  get(actor: Actor, access: RepoAccess, key: Key): Promise<unknown>;
  edit(actor: Actor, access: RepoAccess, key: Key, input: Edit): Promise<unknown>;
  delete(actor: Actor, access: RepoAccess, key: Key): Promise<void>;
}

/** What the kinds differ in: the name (`Branch`, `Tag`), the path parameter naming one rule and how it reads, … */
export interface RuleRoutes<Key, C extends TSchema, E extends TSchema> {
  kind: 'Branch' | 'Tag';
  param: 'name' | 'id';
  key: (param: string) => Key;
  /** The rule, its creation and its edit. */
  schemas: readonly [TSchema, C, E];
  deleteErrors: readonly RepoHostErrorKind[];
  operations: (protection: ProtectionService) => RuleOperations<Key, Static<C>, Static<E>>;
}

export function addRuleRoutes<P extends string, Key, C extends TSchema, E extends TSchema>(
  rules: RouteGroup<P, { repo: RepoAccess }, true>,
  { kind, param, key, schemas: [schema, create, edit], deleteErrors, operations }: RuleRoutes<Key, C, E>,
): void {
  const what = `${kind.toLowerCase()} protection`;
  const one = `/{${param}}` as const;
  const keyOf = (params: unknown) => key((params as Record<string, string>)[param]!);
  rules.add({
    method: 'GET',
    path: '',
    operationId: `repoList${kind}Protection`,
    summary: `List ${what}s for a repository`,
    reply: { status: 200, description: `${kind}ProtectionList`, schema: Type.Array(schema) },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo }) => operations(host.protection).list(actor, repo),
  });

  rules.add({
    method: 'POST',
    path: '',
    operationId: `repoCreate${kind}Protection`,
    summary: `Create a ${what}s for a repository`,
    auth: 'token',
    body: create,
    reply: { status: 201, description: `${kind}Protection`, schema },
    errors: ['unauthorized', 'bad_request', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, body }) => operations(host.protection).create(actor, repo, body as Static<C>),
  });

  rules.add({
    method: 'GET',
    path: one,
    operationId: `repoGet${kind}Protection`,
    summary: `Get a specific ${what} for the repository`,
    reply: { status: 200, description: `${kind}Protection`, schema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params }) => operations(host.protection).get(actor, repo, keyOf(params)),
  });

  rules.add({
    method: 'PATCH',
    path: one,
    operationId: `repoEdit${kind}Protection`,
    summary: `Edit a ${what}s for a repository. Only fields that are set will be changed`,
    auth: 'token',
    body: edit,
    reply: { status: 200, description: `${kind}Protection`, schema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, params, body }) => operations(host.protection).edit(actor, repo, keyOf(params), body as Static<E>),
  });

  rules.add({
    method: 'DELETE',
    path: one,
    operationId: `repoDelete${kind}Protection`,
    summary: `Delete a specific ${what} for the repository`,
    auth: 'token',
    reply: EMPTY,
    errors: deleteErrors,
    handler: async ({ host, actor, repo, params }) => operations(host.protection).delete(actor, repo, keyOf(params)),
  });
}
