/**
 * The `repohost` command line: `web`, `admin user …`, `migrate`, with Gitea's verbs and flags.
 * `runCli` is what the binary runs; tests and scripts can call it in-process.
 * @packageDocumentation
 */
import { isRepoHostError, ConfigError } from '@repohost/core';
import { adminUser, ADMIN_USER_HELP } from './commands/admin-user.js';
import { adminAuth } from './commands/admin-auth.js';
import { adminRepo } from './commands/admin-repo.js';
import { adminRegenerate } from './commands/admin-regenerate.js';
import { generate } from './commands/generate.js';
import { web } from './commands/web.js';
import { migrate } from './commands/migrate.js';
import { keys } from './commands/keys.js';
import { serv } from './commands/serv.js';
import type { GlobalOptions } from './config.js';
import { UsageError, type CliIo } from './io.js';

export type { CliIo } from './io.js';

export const HELP = `Usage: repohost [--config FILE] [--work-path DIR] <command> [options]

A git forge compatible with the Forgejo/Gitea API v1.

Commands:
  web                     Start the server
  admin user <command>    Manage users (create, list, change-password, delete, generate-access-token,
                          must-change-password, reset-2fa, enable-2fa)
  admin auth <command>    Manage login sources (list, delete, add-ldap, update-ldap, add-ldap-simple,
                          update-ldap-simple)
  admin repo migrate      Migrate a repository from a git address, with a progress bar
  admin regenerate secrets
                          Re-encrypt the stored secrets under the current [security] SECRET_KEY (--old-key)
  generate secret SECRET_KEY
                          Print a new random secret key
  migrate                 Migrate the database
  keys                    Print the authorized_keys line for an SSH key (OpenSSH AuthorizedKeysCommand)
  serv key-<ID>           Serve git over OpenSSH for a key (run from authorized_keys)
  help                    Show this help

Global options:
  --config, -c FILE       configuration file (default: custom/conf/app.ini under the work path)
  --work-path, -w DIR     base folder for relative paths (default: $FORGEJO_WORK_DIR, $GITEA_WORK_DIR, or the current folder)
`;

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
    const [command, ...args] = rest;
    switch (command) {
      case 'web':
        return await web(args, global, io);
      case 'admin':
        if (args[0] === 'auth') return await adminAuth(args.slice(1), global, io);
        if (args[0] === 'repo') return await adminRepo(args.slice(1), global, io);
        if (args[0] === 'regenerate') return await adminRegenerate(args.slice(1), global, io);
        if (args[0] !== 'user') {
          io.stdout(ADMIN_USER_HELP);
          return args[0] === undefined ? 1 : (io.stderr(`unknown command "admin ${args[0]}"\n`), 1);
        }
        return await adminUser(args.slice(1), global, io);
      case 'migrate':
        return await migrate(args, global, io);
      case 'keys':
        return await keys(args, global, io);
      case 'generate':
        return generate(args, io);
      case 'serv':
        return await serv(args, global, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.stdout(HELP);
        return command === undefined ? 1 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`Error: ${error.message}\nRun "repohost help" for usage.\n`);
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
