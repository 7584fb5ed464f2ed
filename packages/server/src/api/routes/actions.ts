import {
  ActionsService,
  ActionVariableSchema,
  CreateOrUpdateSecretOptionSchema,
  CreateVariableOptionSchema,
  SecretSchema,
  UpdateVariableOptionSchema,
  toApiActionVariable,
  toApiSecret,
  type ActionsOwner,
  type Page,
  type PageRequest,
  type RepoAccess,
  type User,
} from '@repohost/core';
import type { Static, TSchema } from '@sinclair/typebox';
import { mapPage, type ApiRouter, type RouteGroup } from '../router.js';
import type { RequestBase } from '../contract.js';
import type { Groups } from '../groups.js';

type Loaded = Record<string, unknown>;
/** What a list of one level needs of its request: the caller, the path's owner and the page. */
type ListRequest = RequestBase<unknown> & { readonly page: PageRequest };
/** An operation's id and summary (and what else its level's words hold). */
type Words = readonly [operationId: string, summary: string, ...rest: string[]];

/** The words of one level's operations (Forgejo's operation ids and summaries), and whose secrets its path names. */
interface ActionsLevel {
  owner: (loaded: Loaded) => ActionsOwner;
  listSecrets: [operationId: string, summary: string];
  putSecret: [operationId: string, summary: string];
  deleteSecret: [operationId: string, summary: string, reply: string];
  listVariables: [operationId: string, summary: string];
  getVariable: [operationId: string, summary: string];
  createVariable: [operationId: string, summary: string, reply: string];
  updateVariable: [operationId: string, summary: string, reply: string];
  deleteVariable: [operationId: string, summary: string];
}

const secretName = (params: unknown) => (params as { secretname: string }).secretname;
const variableName = (params: unknown) => (params as { variablename: string }).variablename;

/**
 * The secret and variable operations under one path (`/repos/{owner}/{repo}/actions`, `/orgs/{org}/actions`,
 * `/user/actions`). The group checks who may manage them (Forgejo's reqOwner, reqOrgOwnership, the signed-in user)
 * and gives their tag and token scope.
 */
function registerLevel<P extends string>(group: RouteGroup<P, Loaded, true>, level: ActionsLevel): void {
  const service = (ctx: RequestBase<unknown>) => ctx.host.service(ActionsService);
  const owner = (ctx: unknown) => level.owner(ctx as Loaded);

  // A page of secrets or of variables, and the delete of one: alike but for their words and the service's method.
  const addList = <S extends TSchema, T>(path: string, [operationId, summary]: Words, description: string, item: S, read: (ctx: ListRequest) => Promise<Page<T>>, convert: (row: T) => Static<S>) =>
    group.add({
      method: 'GET',
      path,
      operationId,
      summary,
      reply: { status: 200, description, list: item },
      errors: ['unauthorized', 'forbidden', 'not_found'],
      // The reply's item schema is generic here, so the compiler cannot see the page the router gives every list.
      handler: async (ctx) => mapPage(await read(ctx as unknown as ListRequest), convert),
    });
  const addDelete = (path: string, [operationId, summary]: Words, description: string, remove: (ctx: RequestBase<unknown>) => Promise<void>) =>
    group.add({ method: 'DELETE', path, operationId, summary, reply: { status: 204, description }, errors: ['unauthorized', 'forbidden', 'not_found'], handler: (ctx) => remove(ctx) });

  addList('/actions/secrets', level.listSecrets, 'SecretList', SecretSchema, (ctx) => service(ctx).listSecrets(ctx.actor, owner(ctx), ctx.page), toApiSecret);
  addDelete('/actions/secrets/{secretname}', level.deleteSecret, level.deleteSecret[2], (ctx) => service(ctx).deleteSecret(ctx.actor, owner(ctx), secretName(ctx.params)));
  addList('/actions/variables', level.listVariables, 'VariableList', ActionVariableSchema, (ctx) => service(ctx).listVariables(ctx.actor, owner(ctx), ctx.page), toApiActionVariable);
  addDelete('/actions/variables/{variablename}', level.deleteVariable, 'response when deleting a variable', (ctx) =>
    service(ctx).deleteVariable(ctx.actor, owner(ctx), variableName(ctx.params)),
  );

  group.add({
    method: 'PUT',
    path: '/actions/secrets/{secretname}',
    operationId: level.putSecret[0],
    summary: level.putSecret[1],
    body: CreateOrUpdateSecretOptionSchema,
    reply: { status: 201, description: 'response when creating a secret', or: { status: 204, description: 'response when updating a secret' } },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async (ctx) => {
      const result = await service(ctx).putSecret(ctx.actor, owner(ctx), secretName(ctx.params), ctx.body);
      return result.created ? 201 : 204;
    },
  });

  group.add({
    method: 'GET',
    path: '/actions/variables/{variablename}',
    operationId: level.getVariable[0],
    summary: level.getVariable[1],
    reply: { status: 200, description: 'ActionVariable', schema: ActionVariableSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => toApiActionVariable(await service(ctx).getVariable(ctx.actor, owner(ctx), variableName(ctx.params))),
  });

  group.add({
    method: 'POST',
    path: '/actions/variables/{variablename}',
    operationId: level.createVariable[0],
    summary: level.createVariable[1],
    body: CreateVariableOptionSchema,
    // Answered 201 (Gitea's status, the reference's first; Forgejo itself answers 204).
    reply: { status: 201, description: level.createVariable[2], or: { status: 204, description: level.createVariable[2] } },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'validation'],
    handler: async (ctx) => {
      await service(ctx).createVariable(ctx.actor, owner(ctx), variableName(ctx.params), ctx.body);
    },
  });

  group.add({
    method: 'PUT',
    path: '/actions/variables/{variablename}',
    operationId: level.updateVariable[0],
    summary: level.updateVariable[1],
    body: UpdateVariableOptionSchema,
    reply: { status: 204, description: level.updateVariable[2] },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'validation'],
    handler: async (ctx) => {
      await service(ctx).updateVariable(ctx.actor, owner(ctx), variableName(ctx.params), ctx.body);
    },
  });

}

/** Actions secrets and variables of repositories (their owners), organizations (their owners) and the signed-in user. */
export function registerActionsRoutes(_router: ApiRouter, { repoOwner, orgOwner, me }: Groups): void {
  registerLevel(repoOwner as unknown as RouteGroup<string, Loaded, true>, {
    owner: (loaded) => ({ kind: 'repo', access: loaded.repo as RepoAccess }),
    listSecrets: ['repoListActionsSecrets', "List an repo's actions secrets"],
    putSecret: ['updateRepoSecret', 'Create or Update a secret value in a repository'],
    deleteSecret: ['deleteRepoSecret', 'Delete a secret in a repository', 'delete one secret of the organization'],
    listVariables: ['getRepoVariablesList', 'Get repo-level variables list'],
    getVariable: ['getRepoVariable', 'Get a repo-level variable'],
    createVariable: ['createRepoVariable', 'Create a repo-level variable', 'response when creating a repo-level variable'],
    updateVariable: ['updateRepoVariable', 'Update a repo-level variable', 'response when updating a repo-level variable'],
    deleteVariable: ['deleteRepoVariable', 'Delete a repo-level variable'],
  });

  registerLevel(orgOwner as unknown as RouteGroup<string, Loaded, true>, {
    owner: (loaded) => ({ kind: 'org', org: loaded.org as User }),
    listSecrets: ['orgListActionsSecrets', 'List actions secrets of an organization'],
    putSecret: ['updateOrgSecret', 'Create or Update a secret value in an organization'],
    deleteSecret: ['deleteOrgSecret', 'Delete a secret in an organization', 'delete one secret of the organization'],
    listVariables: ['getOrgVariablesList', 'List variables of an organization'],
    getVariable: ['getOrgVariable', "Get organization's variable by name"],
    createVariable: ['createOrgVariable', 'Create a new variable in organization', 'response when creating an org-level variable'],
    updateVariable: ['updateOrgVariable', 'Update variable in organization', 'response when updating an org-level variable'],
    deleteVariable: ['deleteOrgVariable', "Delete organization's variable by name"],
  });

  registerLevel(me as unknown as RouteGroup<string, Loaded, true>, {
    owner: (loaded) => ({ kind: 'user', user: loaded.me as User }),
    listSecrets: ['userListActionsSecrets', 'List actions secrets of the current user'],
    putSecret: ['updateUserSecret', 'Create or Update a secret value in a user scope'],
    deleteSecret: ['deleteUserSecret', 'Delete a secret in a user scope', 'delete one secret of the user'],
    listVariables: ['getUserVariablesList', 'Get the user-level list of variables which is created by current doer'],
    getVariable: ['getUserVariable', 'Get a user-level variable which is created by current doer'],
    createVariable: ['createUserVariable', 'Create a user-level variable', 'response when creating a variable'],
    updateVariable: ['updateUserVariable', 'Update a user-level variable which is created by current doer', 'response when updating a variable'],
    deleteVariable: ['deleteUserVariable', 'Delete a user-level variable which is created by current doer'],
  });
}
