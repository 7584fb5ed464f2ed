import {
  UpdateUserAvatarOptionSchema,
  UserSettingsOptionsSchema,
  UserSettingsSchema,
  toApiUserSettings,
  type RepoHostErrorKind,
  type UpdateUserAvatarOption,
} from '@repohost/core';
import type { RequestBase } from '../contract.js';
import type { ApiRouter, RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** What the avatar routes of an account (the signed-in user's, an organization's) differ in. */
export interface AvatarRoutes<Loaded> {
  /** Operation id, summary and errors of the upload, and of the removal. */
  upload: readonly [string, string, readonly RepoHostErrorKind[]];
  remove: readonly [string, string, readonly RepoHostErrorKind[]];
  avatar: (ctx: RequestBase<unknown> & Loaded) => { upload(input: UpdateUserAvatarOption): Promise<unknown>; remove(): Promise<unknown> };
}

/** `POST …/avatar` (a new avatar, base64) and `DELETE …/avatar` (back to the default one) of the account the group loaded. */
export function addAvatarRoutes<P extends string, Loaded>(group: RouteGroup<P, Loaded, true>, routes: AvatarRoutes<Loaded>): void {
  const [uploadId, uploadSummary, uploadErrors] = routes.upload;
  const [removeId, removeSummary, removeErrors] = routes.remove;
  group.add({
    method: 'POST',
    path: '/avatar',
    operationId: uploadId,
    summary: uploadSummary,
    body: UpdateUserAvatarOptionSchema,
    reply: EMPTY,
    errors: uploadErrors,
    handler: async (ctx) => {
      await routes.avatar(ctx).upload(ctx.body);
    },
  });

  group.add({
    method: 'DELETE',
    path: '/avatar',
    operationId: removeId,
    summary: removeSummary,
    reply: EMPTY,
    errors: removeErrors,
    handler: async (ctx) => {
      await routes.avatar(ctx).remove();
    },
  });
}

/** `/user/settings` and `/user/avatar`: the signed-in user's own profile settings and avatar. */
export function registerUserSettingsRoutes(_router: ApiRouter, { me }: Groups): void {
  me.add({
    method: 'GET',
    path: '/settings',
    operationId: 'getUserSettings',
    summary: "Get current user's account settings",
    reply: { status: 200, description: 'UserSettings', schema: UserSettingsSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ me }) => toApiUserSettings(me),
  });

  me.add({
    method: 'PATCH',
    path: '/settings',
    operationId: 'updateUserSettings',
    summary: "Update settings in current user's account",
    body: UserSettingsOptionsSchema,
    reply: { status: 200, description: 'UserSettings', schema: UserSettingsSchema },
    errors: ['unauthorized', 'forbidden', 'validation'],
    handler: async ({ host, actor, me, body }) => toApiUserSettings(await host.users.updateSettings(actor, me, body)),
  });

  addAvatarRoutes(me, {
    upload: ['userUpdateAvatar', 'Update avatar of the current user', ['bad_request', 'unauthorized', 'forbidden', 'validation']],
    remove: ['userDeleteAvatar', 'Delete avatar of the current user. It will be replaced by a default one', ['unauthorized', 'forbidden']],
    avatar: ({ host, actor, me }) => ({ upload: (input) => host.userAvatars.upload(actor, me, input), remove: () => host.userAvatars.remove(actor, me) }),
  });
}
