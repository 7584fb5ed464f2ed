import { Type } from '@sinclair/typebox';
import { CreateKeyOptionSchema, DeployKeySchema, toApiDeployKey } from '@repohost/core';
import { mapPage, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY, pathId } from './common.js';

/** `/repos/{owner}/{repo}/keys`: a repository's deploy keys, for its administrators. */
export function registerDeployKeyRoutes(_router: ApiRouter, { repoKeys }: Groups): void {
  repoKeys.add({
    method: 'GET',
    path: '',
    operationId: 'repoListKeys',
    summary: "List a repository's keys",
    query: Type.Object({
      key_id: Type.Optional(Type.Integer({ format: 'int64', description: 'the key_id to search for' })),
      fingerprint: Type.Optional(Type.String({ description: 'fingerprint of the key' })),
    }),
    reply: { status: 200, description: 'DeployKeyList', list: DeployKeySchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, query, page, view }) => {
      const result = await host.keys.listDeployKeys(actor, repo, { ...page, keyId: query.key_id, fingerprint: query.fingerprint });
      return mapPage(result, (key) => toApiDeployKey(key, repo, view));
    },
  });

  repoKeys.add({
    method: 'POST',
    path: '',
    operationId: 'repoCreateKey',
    summary: 'Add a key to a repository',
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
    reply: { status: 200, description: 'DeployKey', schema: DeployKeySchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params, view }) => toApiDeployKey(await host.keys.getDeployKey(actor, repo, pathId(params.id)), repo, view),
  });

  repoKeys.add({
    method: 'DELETE',
    path: '/{id}',
    operationId: 'repoDeleteKey',
    summary: 'Delete a key from a repository',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params }) => {
      await host.keys.deleteDeployKey(actor, repo, pathId(params.id));
    },
  });
}
