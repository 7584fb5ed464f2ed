import { Type } from '@sinclair/typebox';
import { CreateKeyOptionSchema, PublicKeySchema, toApiPublicKey } from '@repohost/core';
import { mapPage, type ApiRouter, type RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY, pathId, type AccountRoute } from './common.js';

const FingerprintQuery = Type.Object({ fingerprint: Type.Optional(Type.String({ description: 'fingerprint of the key' })) });

/** `POST …/keys`: an SSH key added to the account (`account`, from what the group loaded). */
export function addKeyCreation<P extends string, Loaded>(group: RouteGroup<P, Loaded, true>, { account, ...route }: AccountRoute<Loaded>): void {
  group.add({
    method: 'POST',
    path: '/keys',
    ...route,
    body: CreateKeyOptionSchema,
    reply: { status: 201, description: 'PublicKey', schema: PublicKeySchema },
    handler: async (ctx) => {
      const owner = account(ctx);
      return toApiPublicKey(await ctx.host.keys.add(ctx.actor, owner, ctx.body), owner, ctx.view);
    },
  });
}

/** SSH keys of accounts: `/user/keys` (the signed-in user's) and `/users/{username}/keys` (anyone's, public). */
export function registerKeyRoutes(_router: ApiRouter, { me, user }: Groups): void {
  me.add({
    method: 'GET',
    path: '/keys',
    operationId: 'userCurrentListKeys',
    summary: "List the authenticated user's public keys",
    query: FingerprintQuery,
    reply: { status: 200, description: 'PublicKeyList', list: PublicKeySchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me, query, page, view }) => {
      if (query.fingerprint) {
        const found = await host.keys.searchByFingerprint(actor, me, query.fingerprint);
        return mapPage(found, ({ key, owner }) => toApiPublicKey(key, owner, view));
      }
      const result = await host.keys.list(actor, me, page);
      return mapPage(result, (key) => toApiPublicKey(key, me, view));
    },
  });

  addKeyCreation(me, { operationId: 'userCurrentPostKey', summary: 'Create a public key', errors: ['unauthorized', 'forbidden', 'validation'], account: ({ me }) => me });

  me.add({
    method: 'GET',
    path: '/keys/{id}',
    operationId: 'userCurrentGetKey',
    summary: 'Get a public key',
    reply: { status: 200, description: 'PublicKey', schema: PublicKeySchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params, view }) => {
      const { key, owner } = await host.keys.getForActor(actor, pathId(params.id));
      return toApiPublicKey(key, owner, view);
    },
  });

  me.add({
    method: 'DELETE',
    path: '/keys/{id}',
    operationId: 'userCurrentDeleteKey',
    summary: 'Delete a public key',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => {
      const { key, owner } = await host.keys.getForActor(actor, pathId(params.id));
      await host.keys.delete(actor, owner, key.id);
    },
  });

  user.add({
    method: 'GET',
    path: '/keys',
    operationId: 'userListKeys',
    summary: "List the given user's public keys",
    query: FingerprintQuery,
    reply: { status: 200, description: 'PublicKeyList', list: PublicKeySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, user, query, page, view }) => {
      const result = await host.keys.list(actor, user, { ...page, ...(query.fingerprint ? { fingerprint: query.fingerprint } : {}) });
      return mapPage(result, (key) => toApiPublicKey(key, user, view));
    },
  });
}
