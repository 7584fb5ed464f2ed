import { Type } from '@sinclair/typebox';
import { AccessMode, CreateKeyOptionSchema, DeployKeySchema, ForbiddenError, UnauthorizedError, toApiDeployKey } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** Go's `strconv.ParseInt` syntax, as Forgejo reads an `{id}` path parameter (anything else reads as 0). */
const PATH_ID = /^[+-]?\d{1,19}$/;
const pathId = (value: string) => (PATH_ID.test(value) ? Number(value) : 0);

/** `/repos/{owner}/{repo}/keys`: a repository's deploy keys, for its administrators. */
export function registerDeployKeyRoutes(_router: ApiRouter, { repo }: Groups): void {
  // Forgejo's reqToken and reqAdmin, after the repository was found (a repository the caller may not see is 404
  // before this), and before the body is read. The service checks again, for embedders.
  const repoKeys = repo.nest('/keys', async ({ actor, repo }) => {
    if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
    if (repo.mode < AccessMode.Admin) throw new ForbiddenError('user should be an owner or a collaborator with admin write of a repository');
    return {};
  });

  repoKeys.add({
    method: 'GET',
    path: '',
    operationId: 'repoListKeys',
    summary: "List a repository's keys",
    tag: 'repository',
    scopes: ['repository'],
    query: Type.Object({
      key_id: Type.Optional(Type.Integer({ format: 'int64', description: 'the key_id to search for' })),
      fingerprint: Type.Optional(Type.String({ description: 'fingerprint of the key' })),
    }),
    reply: { status: 200, description: 'DeployKeyList', list: DeployKeySchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, query, page, view }) => {
      const result = await host.keys.listDeployKeys(actor, repo, { ...page, keyId: query.key_id, fingerprint: query.fingerprint });
      return { items: result.items.map((key) => toApiDeployKey(key, repo, view)), total: result.total };
    },
  });

  repoKeys.add({
    method: 'POST',
    path: '',
    operationId: 'repoCreateKey',
    summary: 'Add a key to a repository',
    tag: 'repository',
    scopes: ['repository'],
    body: CreateKeyOptionSchema,
    reply: { status: 201, description: 'DeployKey', schema: DeployKeySchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, body, view }) => toApiDeployKey(await host.keys.addDeployKey(actor, repo, body), repo, view, false),
  });

  repoKeys.add({
    method: 'GET',
    path: '/{id}',
    operationId: 'repoGetKey',
    summary: "Get a repository's key by id",
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 200, description: 'DeployKey', schema: DeployKeySchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params, view }) => toApiDeployKey(await host.keys.getDeployKey(actor, repo, pathId(params.id)), repo, view),
  });

  repoKeys.add({
    method: 'DELETE',
    path: '/{id}',
    operationId: 'repoDeleteKey',
    summary: 'Delete a key from a repository',
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params }) => {
      await host.keys.deleteDeployKey(actor, repo, pathId(params.id));
    },
  });
}
