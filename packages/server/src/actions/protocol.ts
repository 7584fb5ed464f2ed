/**
 * Where the runner protocol is mounted (`/api/actions`). Its implementation (`protocol-calls.ts`, the protobuf
 * runtime and the generated messages) loads on the first call, so a server's start and every request that is not a
 * runner's pay nothing for it.
 */
import type { H3 } from 'h3';
import type { RepoHost } from '@repohost/core';

/** Mounts the protocol when Actions is on (`[actions] ENABLED`). */
export function registerRunnerProtocol(app: H3, host: RepoHost): void {
  if (!host.settings.actions.ENABLED) return;
  let calls: Promise<typeof import('./protocol-calls.js')> | undefined;
  app.post('/api/actions/**', async (event) => (await (calls ??= import('./protocol-calls.js'))).serveCall(host, event));
}

