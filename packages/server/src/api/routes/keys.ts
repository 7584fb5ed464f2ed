import { Type } from '@sinclair/typebox';
import { CreateKeyOptionSchema, PublicKeySchema, toApiPublicKey } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** Go's `strconv.ParseInt` syntax, as Forgejo reads an `{id}` path parameter (anything else reads as 0). */
const PATH_ID = /^[+-]?\d{1,19}$/;
const pathId = (value: string) => (PATH_ID.test(value) ? Number(value) : 0);

const FingerprintQuery = Type.Object({ fingerprint: Type.Optional(Type.String({ description: 'fingerprint of the key' })) });

/** SSH keys of accounts: `/user/keys` (the signed-in user's) and `/users/{username}/keys` (anyone's, public). */
export function registerKeyRoutes(_router: ApiRouter, { me, user }: Groups): void {
  me.add({
    method: 'GET',
    path: '/keys',
    operationId: 'userCurrentListKeys',
    summary: "List the authenticated user's public keys",
    tag: 'user',
    scopes: ['user'],
    query: FingerprintQuery,
    reply: { status: 200, description: 'PublicKeyList', list: PublicKeySchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me, query, page, view }) => {
      if (query.fingerprint) {
        const found = await host.keys.searchByFingerprint(actor, me, query.fingerprint);
        return { items: found.items.map(({ key, owner }) => toApiPublicKey(key, owner, view)), total: found.total };
      }
      const result = await host.keys.list(actor, me, page);
      return { items: result.items.map((key) => toApiPublicKey(key, me, view)), total: result.total };
    },
  });

  me.add({
    method: 'POST',
    path: '/keys',
    operationId: 'userCurrentPostKey',
    summary: 'Create a public key',
    tag: 'user',
    scopes: ['user'],
    body: CreateKeyOptionSchema,
    reply: { status: 201, description: 'PublicKey', schema: PublicKeySchema },
    errors: ['unauthorized', 'forbidden', 'validation'],
    handler: async ({ host, actor, me, body, view }) => toApiPublicKey(await host.keys.add(actor, me, body), me, view),
  });

  me.add({
    method: 'GET',
    path: '/keys/{id}',
    operationId: 'userCurrentGetKey',
    summary: 'Get a public key',
    tag: 'user',
    scopes: ['user'],
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
    tag: 'user',
    scopes: ['user'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
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
    tag: 'user',
    scopes: ['user'],
    query: FingerprintQuery,
    reply: { status: 200, description: 'PublicKeyList', list: PublicKeySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, user, query, page, view }) => {
      const result = await host.keys.list(actor, user, { ...page, ...(query.fingerprint ? { fingerprint: query.fingerprint } : {}) });
      return { items: result.items.map((key) => toApiPublicKey(key, user, view)), total: result.total };
    },
  });
}
