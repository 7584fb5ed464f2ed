/**
 * A real forge for a test suite: in-memory SQLite, repositories in a temporary folder, a server on a free
 * loopback port. Each call gives an independent instance, so tests can run side by side.
 *
 * `npm run example -- test-server-demo` runs examples/test-server-demo.ts, which uses it the way a test would.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RepoHost, SYSTEM } from '@repohost/core';
import { startServer } from '@repohost/server';

export interface ForgeForTests {
  url: string;
  host: RepoHost;
  /** An admin's token with every scope. */
  adminToken: string;
  stop(): Promise<void>;
}

export async function startForgeForTests(): Promise<ForgeForTests> {
  const workPath = await mkdtemp(path.join(tmpdir(), 'repohost-tests-'));
  // The database lives as long as the instance, so may its SECRET_KEY: a random one of its own.
  const host = await RepoHost.open({ config: { workPath, overrides: { database: { PATH: ':memory:' } } }, noSecretKey: 'ephemeral' });
  // Not 'admin': Forgejo reserves that name (it is a web route), and so does RepoHost.
  const admin = await host.users.create(SYSTEM, { username: 'site-admin', email: 'admin@example.com', password: 'admin-password', admin: true });
  const { value: adminToken } = await host.tokens.create(SYSTEM, admin, { name: 'tests', scopes: ['all'] });
  const server = await startServer(host, { port: 0, hostname: '127.0.0.1' });
  return {
    url: server.url,
    host,
    adminToken,
    stop: async () => {
      await server.close();
      await host.close();
      await rm(workPath, { recursive: true, force: true });
    },
  };
}
