import { CreateGPGKeyOptionSchema, GPGKeySchema, VerifyGPGKeyOptionSchema, toApiGPGKey } from '@repohost/core';
import { mapPage, type ApiRouter, type RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY, pathId, type AccountRoute } from './common.js';

/** `GET …/gpg_keys`: a page of the GPG keys of the account (`account`, from what the group loaded). */
function addGpgKeyList<P extends string, Loaded>(group: RouteGroup<P, Loaded, true>, { account, ...route }: AccountRoute<Loaded>): void {
  group.add({
    method: 'GET',
    path: '/gpg_keys',
    ...route,
    reply: { status: 200, description: 'GPGKeyList', list: GPGKeySchema },
    handler: async (ctx) => {
      const owner = account(ctx);
      const [result, emails] = await Promise.all([ctx.host.gpgKeys.list(ctx.actor, owner, ctx.page), ctx.host.gpgKeys.verifiedEmailsOf(owner)]);
      return mapPage(result, (key) => toApiGPGKey(key, emails));
    },
  });
}

/** GPG keys: `/user/gpg_keys` (the signed-in user's), `/users/{username}/gpg_keys` (public), verification. */
export function registerGpgKeyRoutes(_router: ApiRouter, { me, user }: Groups): void {
  addGpgKeyList(me, { operationId: 'userCurrentListGPGKeys', summary: "List the authenticated user's GPG keys", errors: ['unauthorized', 'forbidden'], account: ({ me }) => me });

  me.add({
    method: 'POST',
    path: '/gpg_keys',
    operationId: 'userCurrentPostGPGKey',
    summary: "Add a GPG public key to current user's account",
    body: CreateGPGKeyOptionSchema,
    reply: { status: 201, description: 'GPGKey', schema: GPGKeySchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, me, body }) => toApiGPGKey(await host.gpgKeys.add(actor, me, body), await host.gpgKeys.verifiedEmailsOf(me)),
  });

  me.add({
    method: 'GET',
    path: '/gpg_keys/{id}',
    operationId: 'userCurrentGetGPGKey',
    summary: 'Get a GPG key',
    reply: { status: 200, description: 'GPGKey', schema: GPGKeySchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, me, params }) =>
      toApiGPGKey(await host.gpgKeys.get(actor, me, pathId(params.id)), await host.gpgKeys.verifiedEmailsOf(me)),
  });

  me.add({
    method: 'DELETE',
    path: '/gpg_keys/{id}',
    operationId: 'userCurrentDeleteGPGKey',
    summary: "Remove a GPG public key from current user's account",
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, me, params }) => {
      await host.gpgKeys.delete(actor, me, pathId(params.id));
    },
  });

  me.add({
    method: 'GET',
    path: '/gpg_key_token',
    operationId: 'getVerificationToken',
    summary: 'Get a Token to verify',
    reply: { status: 200, description: 'APIString is a string response', produces: ['text/plain'] },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, me, responseHeaders }) => {
      const token = host.gpgKeys.verificationToken(me);
      // With its length, so GET and HEAD send the same headers (a bare string body would go chunked).
      const headers = { ...responseHeaders, 'content-type': 'text/plain;charset=utf-8', 'content-length': String(Buffer.byteLength(token)) };
      return new Response(token, { status: 200, headers });
    },
  });

  me.add({
    method: 'POST',
    path: '/gpg_key_verify',
    operationId: 'userVerifyGPGKey',
    summary: 'Verify a GPG key',
    body: VerifyGPGKeyOptionSchema,
    reply: { status: 201, description: 'GPGKey', schema: GPGKeySchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, me, body }) => toApiGPGKey(await host.gpgKeys.verify(actor, me, body), await host.gpgKeys.verifiedEmailsOf(me)),
  });

  addGpgKeyList(user, { operationId: 'userListGPGKeys', summary: "List the given user's GPG keys", errors: ['not_found'], account: ({ user }) => user });
}
