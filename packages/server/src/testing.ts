/**
 * `@repohost/server/testing`: a whole forge for another project's test suite in one call. Everything lives in
 * memory (SQLite `:memory:`, the in-memory git backend): no files, no `git` binary on the server side, started
 * in milliseconds on a free loopback port, and gone when `close()` resolves. Each call is independent, so
 * tests may run forges side by side.
 */
import { RepoHost, SYSTEM, type SettingsOverrides } from '@repohost/core';
import { startServer } from './app.js';

export interface TestForgeOptions {
  /** Settings on top of the in-memory ones (`[database]` and `[repository] BACKEND` stay in memory). */
  overrides?: SettingsOverrides;
  /** The site administrator created for the suite; defaults to `forge-admin` / a fixed test password. */
  admin?: { username?: string; password?: string; email?: string };
}

export interface TestForge {
  /** The server's root URL, ending in `/` (the API is under `${url}api/v1`, git at `${url}{owner}/{repo}.git`). */
  url: string;
  /** The forge itself, to call services directly (seed data, read state) without HTTP. */
  host: RepoHost;
  /** A site administrator and a token of theirs with every scope. */
  admin: { username: string; password: string; token: string };
  /** Stops the server and frees the forge. */
  close(): Promise<void>;
}

/** Starts an in-memory forge on `127.0.0.1` with a site administrator and their token. */
export async function startTestForge(options: TestForgeOptions = {}): Promise<TestForge> {
  const host = await RepoHost.inMemory({ overrides: options.overrides });
  try {
    // Not 'admin': Forgejo reserves that name, and so does RepoHost.
    const username = options.admin?.username ?? 'forge-admin';
    const password = options.admin?.password ?? 'forge-admin-password';
    const user = await host.users.create(SYSTEM, { username, password, email: options.admin?.email ?? `${username}@example.com`, admin: true, must_change_password: false });
    const { value: token } = await host.tokens.create(SYSTEM, user, { name: 'test-forge', scopes: ['all'] });
    const server = await startServer(host, { port: 0, hostname: '127.0.0.1' });
    return {
      url: server.url,
      host,
      admin: { username, password, token },
      close: async () => {
        await server.close();
        await host.close();
      },
    };
  } catch (error) {
    await host.close();
    throw error;
  }
}
