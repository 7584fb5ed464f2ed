import { CreateGPGKeyOptionSchema, GPGKeySchema, VerifyGPGKeyOptionSchema, toApiGPGKey } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** Go's `strconv.ParseInt` syntax, as Forgejo reads an `{id}` path parameter (anything else reads as 0). */
const PATH_ID = /^[+-]?\d{1,19}$/;
const pathId = (value: string) => (PATH_ID.test(value) ? Number(value) : 0);

/** GPG keys: `/user/gpg_keys` (the signed-in user's), `/users/{username}/gpg_keys` (public), verification. */
export function registerGpgKeyRoutes(_router: ApiRouter, { me, user }: Groups): void {
  me.add({
    method: 'GET',
    path: '/gpg_keys',
    operationId: 'userCurrentListGPGKeys',
    summary: "List the authenticated user's GPG keys",
    tag: 'user',
    scopes: ['user'],
    reply: { status: 200, description: 'GPGKeyList', list: GPGKeySchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me, page }) => {
      const [result, emails] = await Promise.all([host.gpgKeys.list(actor, me, page), host.gpgKeys.verifiedEmailsOf(me)]);
      return { items: result.items.map((key) => toApiGPGKey(key, emails)), total: result.total };
    },
  });

  me.add({
    method: 'POST',
    path: '/gpg_keys',
    operationId: 'userCurrentPostGPGKey',
    summary: "Add a GPG public key to current user's account",
    tag: 'user',
    scopes: ['user'],
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
    tag: 'user',
    scopes: ['user'],
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
    tag: 'user',
    scopes: ['user'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
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
    tag: 'user',
    scopes: ['user'],
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
    tag: 'user',
    scopes: ['user'],
    body: VerifyGPGKeyOptionSchema,
    reply: { status: 201, description: 'GPGKey', schema: GPGKeySchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, me, body }) => toApiGPGKey(await host.gpgKeys.verify(actor, me, body), await host.gpgKeys.verifiedEmailsOf(me)),
  });

  user.add({
    method: 'GET',
    path: '/gpg_keys',
    operationId: 'userListGPGKeys',
    summary: "List the given user's GPG keys",
    tag: 'user',
    scopes: ['user'],
    reply: { status: 200, description: 'GPGKeyList', list: GPGKeySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, user, page }) => {
      const [result, emails] = await Promise.all([host.gpgKeys.list(actor, user, page), host.gpgKeys.verifiedEmailsOf(user)]);
      return { items: result.items.map((key) => toApiGPGKey(key, emails)), total: result.total };
    },
  });
}
