import type { Static, TObject } from '@sinclair/typebox';
import {
  GeneralAPISettingsSchema,
  GeneralAttachmentSettingsSchema,
  GeneralRepoSettingsSchema,
  GeneralUISettingsSchema,
  ServerVersionSchema,
  type PublicSettingsService,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';

/** `/version` and the public `/settings/*` reads: no authentication, no scope. */
export function registerMiscRoutes(router: ApiRouter): void {
  const publicRead = <S extends TObject>(path: string, operationId: string, summary: string, tag: string, schema: S, read: (settings: PublicSettingsService) => Static<S>) =>
    router.add({
      method: 'GET',
      path,
      operationId,
      summary,
      tag,
      reply: { status: 200, description: schema.$id!, schema },
      handler: async ({ host }) => read(host.publicSettings),
    });
  publicRead('/version', 'getVersion', 'Returns the version of the running application', 'miscellaneous', ServerVersionSchema, (s) => s.version());
  publicRead('/settings/api', 'getGeneralAPISettings', 'Get instance\'s global settings for api', 'settings', GeneralAPISettingsSchema, (s) => s.api());
  publicRead('/settings/repository', 'getGeneralRepositorySettings', 'Get instance\'s global settings for repositories', 'settings', GeneralRepoSettingsSchema, (s) => s.repository());
  publicRead('/settings/ui', 'getGeneralUISettings', 'Get instance\'s global settings for ui', 'settings', GeneralUISettingsSchema, (s) => s.ui());
  publicRead('/settings/attachment', 'getGeneralAttachmentSettings', 'Get instance\'s global settings for Attachment', 'settings', GeneralAttachmentSettingsSchema, (s) => s.attachment());
}
