import {
  GeneralAPISettingsSchema,
  GeneralAttachmentSettingsSchema,
  GeneralRepoSettingsSchema,
  GeneralUISettingsSchema,
  ServerVersionSchema,
} from '@repohost/core';
import type { ApiRouter } from '../route.js';

/** `/version` and the public `/settings/*` reads: no authentication, no scope. */
export function registerMiscRoutes(router: ApiRouter): void {
  router.add({
    method: 'GET',
    path: '/version',
    operationId: 'getVersion',
    summary: 'Returns the version of the running application',
    tag: 'miscellaneous',
    success: { status: 200, response: { description: 'ServerVersion', schema: ServerVersionSchema } },
    handler: async ({ host }) => host.publicSettings.version(),
  });
  const settings = [
    ['api', 'getGeneralAPISettings', 'Get instance\'s global settings for api', GeneralAPISettingsSchema],
    ['repository', 'getGeneralRepositorySettings', 'Get instance\'s global settings for repositories', GeneralRepoSettingsSchema],
    ['ui', 'getGeneralUISettings', 'Get instance\'s global settings for ui', GeneralUISettingsSchema],
    ['attachment', 'getGeneralAttachmentSettings', 'Get instance\'s global settings for Attachment', GeneralAttachmentSettingsSchema],
  ] as const;
  for (const [name, operationId, summary, schema] of settings) {
    router.add({
      method: 'GET',
      path: `/settings/${name}`,
      operationId,
      summary,
      tag: 'settings',
      success: { status: 200, response: { description: schema.$id!, schema } },
      handler: async ({ host }) => host.publicSettings[name](),
    });
  }
}
