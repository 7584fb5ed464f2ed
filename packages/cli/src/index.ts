/**
 * The `repohost` command line: `web`, `admin user …`, `migrate`, with Gitea's verbs and flags.
 * `runCli` is what the binary runs; tests and scripts can call it in-process.
 * @packageDocumentation
 */
import { isRepoHostError, ConfigError } from '@repohost/core';
import { ADMIN_USER } from './commands/admin-user.js';
import { ADMIN_AUTH } from './commands/admin-auth.js';
import { ADMIN_REPO_MIGRATE } from './commands/admin-repo.js';
import { ADMIN_REGENERATE } from './commands/admin-regenerate.js';
import { REPO_SYNC_RELEASES } from './commands/repo-sync-releases.js';
import { DOCTOR } from './commands/doctor.js';
import { DUMP, RESTORE } from './commands/dump.js';
import { GENERATE } from './commands/generate.js';
import { WEB } from './commands/web.js';
import { MIGRATE } from './commands/migrate.js';
import { KEYS } from './commands/keys.js';
import { SERV } from './commands/serv.js';
import { CommandUsageError, dispatch, usage, type GroupCommand } from './command.js';
import type { GlobalOptions } from './config.js';
import { cliVersion } from './version.js';
import { UsageError, type CliIo } from './io.js';

export type { CliIo } from './io.js';
export { cliVersion } from './version.js';
export { leaves, groups, type Command, type GroupCommand, type LeafCommand } from './command.js';

/** Every command, as `repohost <command> --help` shows it. */
export const COMMANDS: GroupCommand = {
  name: 'repohost',
  summary: 'A git forge compatible with the Forgejo/Gitea API v1',
  description: 'A git forge compatible with the Forgejo/Gitea API v1.\n',
  footer: `Global options:
  --config, -c FILE       configuration file (default: custom/conf/app.ini under the work path)
  --work-path, -w DIR     base folder for relative paths (default: $FORGEJO_WORK_DIR, $GITEA_WORK_DIR, or the current folder)
  --version, -v           print the version
  --help, -h              show this help
`,
  commands: [
    WEB,
    {
      name: 'admin',
      summary: 'Command line interface to perform common administrative operations',
      commands: [
        ADMIN_USER,
        ADMIN_AUTH,
        { name: 'repo', summary: 'Migrate repositories', commands: [ADMIN_REPO_MIGRATE] },
        ADMIN_REGENERATE,
        REPO_SYNC_RELEASES,
      ],
    },
    DOCTOR,
    DUMP,
    RESTORE,
    GENERATE,
    MIGRATE,
    KEYS,
    SERV,
  ],
};

/** The top-level usage. */
export const HELP = usage(COMMANDS, []);

/** Takes the global flags out of `argv`, wherever they stand (Gitea accepts them before or after the command). */
function splitGlobal(argv: string[]): { global: GlobalOptions; rest: string[] } {
  const global: GlobalOptions = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const match = /^(--config|-c|--work-path|-w)(?:=(.*))?$/.exec(arg);
    if (!match) {
      rest.push(arg);
      continue;
    }
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new UsageError(`${match[1]} needs a value`);
    if (match[1] === '--config' || match[1] === '-c') global.config = value;
    else global.workPath = value;
  }
  return { global, rest };
}

/** Runs one CLI invocation and returns its exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    const { global, rest } = splitGlobal(argv);
    // Gitea's `--version`/`-v`, before any command.
    if (rest[0] === '--version' || rest[0] === '-v') {
      io.stdout(`repohost version ${cliVersion()}\n`);
      return 0;
    }
    return await dispatch(COMMANDS, [], rest, global, io);
  } catch (error) {
    if (error instanceof UsageError) {
      const where = error instanceof CommandUsageError && error.path.length > 0 ? ` ${error.path.join(' ')}` : '';
      io.stderr(`Error: ${error.message}\nRun "repohost${where} --help" for usage.\n`);
      return 1;
    }
    if (isRepoHostError(error) || error instanceof ConfigError) {
      io.stderr(`Error: ${error.message}\n`);
      return 1;
    }
    io.stderr(`Error: ${(error as Error)?.stack ?? String(error)}\n`);
    return 1;
  }
}
