import path from 'node:path';
import { loadSettings, RepoHost, type RepoHostOptions, type Settings, type SettingsOverrides } from '@repohost/core';
import type { CliIo } from './io.js';

export interface GlobalOptions {
  config?: string;
  workPath?: string;
}

/**
 * Settings the way Gitea's CLI finds them: the work path from `--work-path`, `FORGEJO_WORK_DIR`/`GITEA_WORK_DIR`,
 * else the current folder; the config file from `--config`, else `custom/conf/app.ini` under the work path
 * (a missing default file means built-in defaults; a missing `--config` file is an error).
 */
export function cliSettings(options: GlobalOptions, io: CliIo, overrides?: SettingsOverrides): Settings {
  const workPath = workPathOf(options, io);
  return loadSettings({ configFile: configFileOf(options, io), requireConfigFile: Boolean(options.config), env: io.env, workPath, overrides });
}

function workPathOf(options: GlobalOptions, io: CliIo): string {
  return path.resolve(io.cwd, options.workPath ?? io.env.FORGEJO_WORK_DIR ?? io.env.GITEA_WORK_DIR ?? '.');
}

/** The configuration file the settings come from (it may not exist: then they are the defaults). */
export function configFileOf(options: GlobalOptions, io: CliIo): string {
  return options.config ? path.resolve(io.cwd, options.config) : path.join(workPathOf(options, io), 'custom', 'conf', 'app.ini');
}

/**
 * Opens the installation the settings name. The first command run on a new installation (`web`, or `admin user
 * create` before it) generates its SECRET_KEY in the data folder; an existing installation without a key is refused
 * with what to run (`keys` and `serv` run beside the server and open with the default: refuse). `web` says where
 * the key went (`announce`); the admin commands keep stderr for errors, as scripts expect.
 */
export async function openHost(settings: Settings, io: CliIo, options: Omit<RepoHostOptions, 'settings' | 'config'> & { announce?: boolean } = {}): Promise<RepoHost> {
  const { announce, ...open } = options;
  const host = await RepoHost.open({ settings, noSecretKey: 'generate', ...open });
  if (announce && host.generatedSecretKeyFile) io.stderr(`Generated [security] SECRET_KEY in ${host.generatedSecretKeyFile} (keep it, and back it up apart from the database)\n`);
  return host;
}

export async function withHost<T>(options: GlobalOptions, io: CliIo, run: (host: RepoHost) => Promise<T>): Promise<T> {
  const host = await openHost(cliSettings(options, io), io);
  try {
    return await run(host);
  } finally {
    await host.close();
  }
}
