import type { Static, TObject } from '@sinclair/typebox';
import {
  GeneralAPISettingsSchema,
  GeneralAttachmentSettingsSchema,
  GeneralRepoSettingsSchema,
  GeneralUISettingsSchema,
  NodeInfoSchema,
  NodeInfoService,
  ServerVersionSchema,
  SigningKeyService,
  type PublicSettingsService,
  type RepoHost,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import { textResponse } from './commits.js';

/** The instance's armored OpenPGP signing key as text (empty when none is configured), for both routes that publish it. */
export async function gpgSigningKeyResponse({ host, responseHeaders }: { host: RepoHost; responseHeaders: Record<string, string> }): Promise<Response> {
  return textResponse(Buffer.from(await host.service(SigningKeyService).gpgPublicKey()), responseHeaders);
}

/** `/version`, the public `/settings/*` reads, `/nodeinfo` and the instance's signing keys: no authentication, no scope. */
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

  // NodeInfo 2.1: only with `[federation] ENABLED` (otherwise nothing is there, as Forgejo mounts no route).
  router.add({
    method: 'GET',
    path: '/nodeinfo',
    operationId: 'getNodeInfo',
    summary: 'Returns the nodeinfo of the Forgejo application',
    tag: 'miscellaneous',
    reply: { status: 200, description: 'NodeInfo', schema: NodeInfoSchema },
    errors: ['not_found'],
    handler: async ({ host }) => host.service(NodeInfoService).nodeInfo(),
  });

  // The instance's signing keys (`[repository.signing]`), as text: the armored OpenPGP key (empty when none is
  // configured) and the SSH key (404 unless `FORMAT = ssh`).
  router.add({
    method: 'GET',
    path: '/signing-key.gpg',
    operationId: 'getSigningKey',
    summary: 'Get default signing-key.gpg',
    tag: 'miscellaneous',
    reply: { status: 200, description: 'GPG armored public key', produces: ['text/plain'] },
    handler: gpgSigningKeyResponse,
  });
  router.add({
    method: 'GET',
    path: '/signing-key.ssh',
    operationId: 'getSSHSigningKey',
    summary: 'Get default signing-key.ssh',
    tag: 'miscellaneous',
    reply: { status: 200, description: 'SSH public key in OpenSSH authorized key format', produces: ['text/plain'] },
    errors: ['not_found'],
    handler: async ({ host, responseHeaders }) => textResponse(Buffer.from(await host.service(SigningKeyService).sshPublicKey()), responseHeaders),
  });
}
