import { UpdateUserAvatarOptionSchema, UserSettingsOptionsSchema, UserSettingsSchema, toApiUserSettings } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** `/user/settings` and `/user/avatar`: the signed-in user's own profile settings and avatar. */
export function registerUserSettingsRoutes(_router: ApiRouter, { me }: Groups): void {
  me.add({
    method: 'GET',
    path: '/settings',
    operationId: 'getUserSettings',
    summary: "Get current user's account settings",
    tag: 'user',
    scopes: ['user'],
    reply: { status: 200, description: 'UserSettings', schema: UserSettingsSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ me }) => toApiUserSettings(me),
  });

  me.add({
    method: 'PATCH',
    path: '/settings',
    operationId: 'updateUserSettings',
    summary: "Update settings in current user's account",
    tag: 'user',
    scopes: ['user'],
    body: UserSettingsOptionsSchema,
    reply: { status: 200, description: 'UserSettings', schema: UserSettingsSchema },
    errors: ['unauthorized', 'forbidden', 'validation'],
    handler: async ({ host, actor, me, body }) => toApiUserSettings(await host.users.updateSettings(actor, me, body)),
  });

  me.add({
    method: 'POST',
    path: '/avatar',
    operationId: 'userUpdateAvatar',
    summary: 'Update avatar of the current user',
    tag: 'user',
    scopes: ['user'],
    body: UpdateUserAvatarOptionSchema,
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'validation'],
    handler: async ({ host, actor, me, body }) => {
      await host.userAvatars.upload(actor, me, body);
    },
  });

  me.add({
    method: 'DELETE',
    path: '/avatar',
    operationId: 'userDeleteAvatar',
    summary: 'Delete avatar of the current user. It will be replaced by a default one',
    tag: 'user',
    scopes: ['user'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me }) => {
      await host.userAvatars.remove(actor, me);
    },
  });
}
