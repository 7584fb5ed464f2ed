/**
 * Shared test harness: real RepoHost instances on real SQLite (or PostgreSQL, one fresh schema per host)
 * with on-disk git repositories, and a real HTTP server on an ephemeral loopback port.
 */
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { RepoHost, SYSTEM, loadSettings, type RepoHostOptions, type SettingsOverrides, type User } from '@repohost/core';
import { startServer, type RegisteredRoute } from '@repohost/server';

export const TEST_DB = (process.env.REPOHOST_TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres';
/** The git backend under test: `native` (repositories on disk, the git binary) or `memory` (the isomorphic-git one). */
export const TEST_GIT = (process.env.REPOHOST_TEST_GIT ?? 'native') as 'native' | 'memory';

export interface TestHost {
  host: RepoHost;
  workPath: string;
  cleanup(): Promise<void>;
}

/**
 * A fresh RepoHost over the database under test, in its own temporary work folder, with a random SECRET_KEY of its
 * own (in its settings, so a restart with `host.settings` keeps it) unless `overrides` set one.
 */
export async function openTestHost(overrides: SettingsOverrides = {}, options: Pick<RepoHostOptions, 'noSecretKey'> = {}): Promise<TestHost> {
  const workPath = await mkdtemp(path.join(tmpdir(), 'repohost-test-'));
  let dropSchema: (() => Promise<void>) | undefined;
  const database: NonNullable<SettingsOverrides['database']> = { PATH: ':memory:', ...overrides.database };
  if (TEST_DB === 'postgres') {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    Object.assign(database, pgSettings(), { SCHEMA: schema, MAX_OPEN_CONNS: 4 });
    dropSchema = await createPgSchema(schema);
  }
  const repository = TEST_GIT === 'memory' ? { ...overrides.repository, BACKEND: 'memory' } : overrides.repository;
  const security = { SECRET_KEY: randomBytes(32).toString('hex'), ...overrides.security };
  // A render worker's first load from the TypeScript sources can take seconds on a loaded machine, which the
  // 5 s default budget would count: tests get more, and tests of the budget set their own.
  const markdown = { RENDER_TIMEOUT: 30, ...overrides.markdown };
  const settings = loadSettings({ workPath, overrides: { ...overrides, database, security, markdown, ...(repository ? { repository } : {}) } });
  const host = await RepoHost.open({ settings, ...options });
  return {
    host,
    workPath,
    cleanup: async () => {
      await host.close();
      await dropSchema?.();
      await rm(workPath, { recursive: true, force: true });
    },
  };
}

export function pgSettings() {
  return {
    DB_TYPE: 'postgres',
    HOST: process.env.REPOHOST_TEST_PG_HOST ?? '127.0.0.1:5432',
    NAME: process.env.REPOHOST_TEST_PG_NAME ?? 'postgres',
    USER: process.env.REPOHOST_TEST_PG_USER ?? 'postgres',
    PASSWD: process.env.REPOHOST_TEST_PG_PASSWD ?? '',
  };
}

async function createPgSchema(schema: string): Promise<() => Promise<void>> {
  const { default: pg } = await import('pg');
  const s = pgSettings();
  const [host, port] = s.HOST.split(':');
  const connect = async () => {
    const client = new pg.Client({ host, port: Number(port ?? 5432), user: s.USER, password: s.PASSWD, database: s.NAME });
    await client.connect();
    return client;
  };
  const client = await connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.end();
  return async () => {
    const c = await connect();
    await c.query(`DROP SCHEMA "${schema}" CASCADE`);
    await c.end();
  };
}

export interface TestServer extends TestHost {
  /** Base URL with trailing slash, e.g. `http://127.0.0.1:41234/`. */
  url: string;
  server: Server;
  /** The API routes the server registered. */
  routes: readonly RegisteredRoute[];
  /** fetch relative to the server: `api('/api/v1/version')`. */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
}

/**
 * A RepoHost behind a real HTTP server on 127.0.0.1, started as `startServer` starts it in production (its
 * timeouts included); ROOT_URL follows the port it listens on.
 */
export async function startTestServer(overrides: SettingsOverrides = {}): Promise<TestServer> {
  const testHost = await openTestHost({ ...overrides, server: { DOMAIN: '127.0.0.1', HTTP_PORT: 0, ...overrides.server } });
  const running = await startServer(testHost.host, { port: 0, hostname: '127.0.0.1' });
  const url = testHost.host.settings.server.ROOT_URL;
  return {
    ...testHost,
    url,
    server: running.server,
    routes: running.routes,
    fetch: (pathname, init) => fetch(new URL(pathname.replace(/^\//, ''), url), init),
    cleanup: async () => {
      await running.close();
      await testHost.cleanup();
    },
  };
}

export const PASSWORD = 'correct-horse-battery';

/** Where `.ci/run` builds or installs the clients that real-client tests drive: `${TMPDIR:-/tmp}/repohost-test-bin`. */
export const TEST_BIN = path.join(tmpdir(), 'repohost-test-bin');

/**
 * The executable `name` from the first of `folders` that has it, `'PATH'` standing for PATH's folders in their order;
 * undefined when none has it (the caller skips its tests and says how to install the client).
 */
export function findExecutable(name: string, folders: readonly string[] = ['PATH', TEST_BIN]): string | undefined {
  for (const folder of folders.flatMap((f) => (f === 'PATH' ? (process.env.PATH ?? '').split(path.delimiter) : [f]))) {
    if (folder && existsSync(path.join(folder, name))) return path.join(folder, name);
  }
  return undefined;
}

/** Creates a user (admin if asked) with the test password. */
export async function createUser(host: RepoHost, name: string, options: { admin?: boolean; visibility?: 'public' | 'limited' | 'private' } = {}): Promise<User> {
  return host.users.create(SYSTEM, {
    username: name,
    email: `${name}@example.com`,
    password: PASSWORD,
    admin: options.admin ?? false,
    visibility: options.visibility,
  });
}

/** The account named `name` (it must exist). */
export function userNamed(host: RepoHost, name: string): Promise<User> {
  return host.users.resolve(SYSTEM, name);
}

/** Creates a token for `name` with the given scopes and returns its value. */
export async function createToken(host: RepoHost, name: string, scopes: string[] = ['all'], tokenName = `t-${randomBytes(3).toString('hex')}`): Promise<string> {
  return (await host.tokens.create(SYSTEM, await userNamed(host, name), { name: tokenName, scopes })).value;
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

export function tokenHeader(token: string): Record<string, string> {
  return { Authorization: `token ${token}` };
}

export function jsonInit(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

/**
 * The database under test as `FORGEJO__DATABASE__*` environment variables (for CLI runs), with a cleanup that
 * drops the PostgreSQL schema. SQLite uses the default file under the work path.
 */
export async function testDatabaseEnv(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  if (TEST_DB !== 'postgres') return { env: {}, cleanup: async () => {} };
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const cleanup = await createPgSchema(schema);
  const env: Record<string, string> = { FORGEJO__DATABASE__SCHEMA: schema };
  for (const [key, value] of Object.entries(pgSettings())) env[`FORGEJO__DATABASE__${key}`] = value;
  return { env, cleanup };
}

/** A throwaway OpenLDAP server (login source tests). */
export * from './slapd.js';
/** Two-factor codes, computed independently of core. */
export * from './totp.js';
