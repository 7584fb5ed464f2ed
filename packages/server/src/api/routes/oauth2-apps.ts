import {
  CreateOAuth2ApplicationOptionsSchema,
  OAuth2ApplicationSchema,
  toApiOAuth2Application,
} from '@repohost/core';
import { mapPage, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY, pathId } from './common.js';

/**
 * `/user/applications/oauth2`: the signed-in user's OAuth2 applications. The client secret appears only in the
 * answers that generate one (create, and update, which always generates a new one), as in Forgejo.
 */
export function registerOAuth2AppRoutes(_router: ApiRouter, { me }: Groups): void {
  me.add({
    method: 'GET',
    path: '/applications/oauth2',
    operationId: 'userGetOAuth2Applications',
    summary: "List the authenticated user's oauth2 applications",
    reply: { status: 200, description: 'OAuth2ApplicationList', list: OAuth2ApplicationSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me, page }) => {
      const result = await host.oauth2.list(actor, me, page);
      return mapPage(result, (app) => toApiOAuth2Application(app));
    },
  });

  me.add({
    method: 'POST',
    path: '/applications/oauth2',
    operationId: 'userCreateOAuth2Application',
    summary: 'Creates a new OAuth2 application',
    body: CreateOAuth2ApplicationOptionsSchema,
    reply: { status: 201, description: 'OAuth2Application', schema: OAuth2ApplicationSchema },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'validation'],
    handler: async ({ host, actor, me, body }) => {
      const created = await host.oauth2.create(actor, me, body);
      return toApiOAuth2Application(created.app, created.secret);
    },
  });

  me.add({
    method: 'GET',
    path: '/applications/oauth2/{id}',
    operationId: 'userGetOAuth2Application',
    summary: 'Get an OAuth2 application',
    reply: { status: 200, description: 'OAuth2Application', schema: OAuth2ApplicationSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, me, params }) => toApiOAuth2Application(await host.oauth2.get(actor, me, pathId(params.id))),
  });

  me.add({
    method: 'PATCH',
    path: '/applications/oauth2/{id}',
    operationId: 'userUpdateOAuth2Application',
    summary: 'Update an OAuth2 application, this includes regenerating the client secret',
    body: CreateOAuth2ApplicationOptionsSchema,
    reply: { status: 200, description: 'OAuth2Application', schema: OAuth2ApplicationSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, me, params, body }) => {
      const updated = await host.oauth2.update(actor, me, pathId(params.id), body);
      return toApiOAuth2Application(updated.app, updated.secret);
    },
  });

  me.add({
    method: 'DELETE',
    path: '/applications/oauth2/{id}',
    operationId: 'userDeleteOAuth2Application',
    summary: 'Delete an OAuth2 application',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, me, params }) => {
      await host.oauth2.delete(actor, me, pathId(params.id));
    },
  });
}
