/**
 * A real forge for a test suite: in-memory SQLite, repositories in a temporary folder, a server on a free
 * loopback port. Each call gives an independent instance, so tests can run side by side.
 *
 * `npm run example -- test-server-demo` runs examples/test-server-demo.ts, which uses it the way a test would;
 * `npm run example -- test-server` starts one, says what it made, and stops it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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

// Run on its own (not imported by a test), it shows what a test gets, rather than exiting silently.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const forge = await startForgeForTests();
  console.log(`Started a forge for tests at ${forge.url} (in-memory database, repositories in a temporary folder).`);
  console.log(`Site administrator "site-admin", token with every scope: ${forge.adminToken}`);
  const version = await fetch(`${forge.url}api/v1/version`);
  console.log(`GET /api/v1/version → ${version.status} ${JSON.stringify(await version.json())}`);
  await forge.stop();
  console.log('Stopped it and removed its folder. A test suite imports startForgeForTests() from this file;');
  console.log('`npm run example -- test-server-demo` shows one using it.');
}
