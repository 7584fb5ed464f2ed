/**
 * What the CLI tests run in (not a test file itself): per test, a work folder and a database of the test run's
 * kind, `repohost` run on them in this process, and a host opened on the same settings to look at what it left.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { runCli } from '@repohost/cli';
import { RepoHost, loadSettings } from '@repohost/core';
import { testDatabaseEnv } from '@repohost/test-support';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export interface CliWorkspace {
  /** This test's work folder. */
  readonly work: string;
  /** The environment the CLI and `withHost` read their settings from. */
  readonly env: Record<string, string>;
  cli(args: string[]): Promise<CliRun>;
  /** The host the CLI uses (same work path and database), open for `use` only. */
  withHost<T>(use: (host: RepoHost) => Promise<T>): Promise<T>;
}

/** Registers the per-test set-up and clean-up; `extraEnv` adds settings (`FORGEJO__SECTION__KEY`). */
export function useCliWorkspace(prefix: string, extraEnv: Record<string, string> = {}): CliWorkspace {
  let work = '';
  let env: Record<string, string> = {};
  let cleanupDatabase: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), prefix));
    const database = await testDatabaseEnv();
    cleanupDatabase = database.cleanup;
    env = { ...database.env, ...extraEnv };
  });
  afterEach(async () => {
    await cleanupDatabase?.();
    await rm(work, { recursive: true, force: true });
  });
  return {
    get work() {
      return work;
    },
    get env() {
      return env;
    },
    async cli(args) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(args, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: { ...env }, cwd: work });
      return { code, out: out.join(''), err: err.join('') };
    },
    async withHost(use) {
      const host = await RepoHost.open({ settings: loadSettings({ workPath: work, env }) });
      try {
        return await use(host);
      } finally {
        await host.close();
      }
    },
  };
}
