import {
  GeneralAPISettingsSchema,
  GeneralAttachmentSettingsSchema,
  GeneralRepoSettingsSchema,
  GeneralUISettingsSchema,
  ServerVersionSchema,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';

/** `/version` and the public `/settings/*` reads: no authentication, no scope. */
export function registerMiscRoutes(router: ApiRouter): void {
  router.add({
    method: 'GET',
    path: '/version',
    operationId: 'getVersion',
    summary: 'Returns the version of the running application',
    tag: 'miscellaneous',
    reply: { status: 200, description: 'ServerVersion', schema: ServerVersionSchema },
    handler: async ({ host }) => host.publicSettings.version(),
  });
  router.add({
    method: 'GET',
    path: '/settings/api',
    operationId: 'getGeneralAPISettings',
    summary: 'Get instance\'s global settings for api',
    tag: 'settings',
    reply: { status: 200, description: 'GeneralAPISettings', schema: GeneralAPISettingsSchema },
    handler: async ({ host }) => host.publicSettings.api(),
  });
  router.add({
    method: 'GET',
    path: '/settings/repository',
    operationId: 'getGeneralRepositorySettings',
    summary: 'Get instance\'s global settings for repositories',
    tag: 'settings',
    reply: { status: 200, description: 'GeneralRepoSettings', schema: GeneralRepoSettingsSchema },
    handler: async ({ host }) => host.publicSettings.repository(),
  });
  router.add({
    method: 'GET',
    path: '/settings/ui',
    operationId: 'getGeneralUISettings',
    summary: 'Get instance\'s global settings for ui',
    tag: 'settings',
    reply: { status: 200, description: 'GeneralUISettings', schema: GeneralUISettingsSchema },
    handler: async ({ host }) => host.publicSettings.ui(),
  });
  router.add({
    method: 'GET',
    path: '/settings/attachment',
    operationId: 'getGeneralAttachmentSettings',
    summary: 'Get instance\'s global settings for Attachment',
    tag: 'settings',
    reply: { status: 200, description: 'GeneralAttachmentSettings', schema: GeneralAttachmentSettingsSchema },
    handler: async ({ host }) => host.publicSettings.attachment(),
  });
}
