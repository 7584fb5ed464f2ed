import { readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { RepoHost, createSecretKeyFile, generateSecretKey, type ReencryptReport } from '@repohost/core';
import { cliSettings, type GlobalOptions } from '../config.js';
import { UsageError, type CliIo } from '../io.js';
import { parse } from './admin-user.js';

export const ADMIN_REGENERATE_HELP = `Usage: repohost admin regenerate <command> [options]

Commands:
  secrets                 Re-encrypt the secrets stored in the database under the current [security] SECRET_KEY
`;

export const REGENERATE_SECRETS_HELP = `Usage: repohost admin regenerate secrets [--old-key KEY | --old-key-file FILE] [--dry-run]

Re-encrypts every secret stored in the database (TOTP secrets, LDAP bind passwords, webhook Authorization
headers, pull and push mirror credentials, migration credentials) from an old [security] SECRET_KEY to the
current one, in one transaction. Run it, with the server stopped, after setting or changing SECRET_KEY (or
SECRET_KEY_URI) on an existing installation. When no key is configured, it first generates one in the data
folder (APP_DATA_PATH/secret_key, readable by its owner only), as a new installation's first start does.
Values that decrypt under neither key are left as they are and listed (exit code 1): their users enter them again.

  --old-key KEY         the key the values are encrypted under now (default: the empty key of installations
                        that never set one)
  --old-key-file FILE   read the old key from FILE (whitespace trimmed), keeping it off the command line
  --dry-run             count what would be re-encrypted; change nothing
`;

/** `repohost admin regenerate …` (Gitea has `hooks` and `keys` here; RepoHost has `secrets`). */
export async function adminRegenerate(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'secrets') return regenerateSecrets(rest, global, io);
  io.stdout(ADMIN_REGENERATE_HELP);
  if (command === undefined) return 1;
  io.stderr(`unknown command "admin regenerate ${command}"\n`);
  return 1;
}

async function regenerateSecrets(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(REGENERATE_SECRETS_HELP);
    return 0;
  }
  const values = parse(args, { 'old-key': { type: 'string' }, 'old-key-file': { type: 'string' }, 'dry-run': { type: 'boolean' } });
  const dryRun = values['dry-run'] === true;
  const oldKeyFile = values['old-key-file'];
  if (typeof oldKeyFile === 'string' && values['old-key'] !== undefined) throw new UsageError('give --old-key or --old-key-file, not both');
  let oldKey = typeof values['old-key'] === 'string' ? values['old-key'] : '';
  if (typeof oldKeyFile === 'string') {
    try {
      oldKey = (await readFile(path.resolve(io.cwd, oldKeyFile), 'utf8')).trim();
    } catch (error) {
      throw new UsageError(`--old-key-file: cannot read ${oldKeyFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }

  const settings = cliSettings(global, io);
  let generated: string | undefined;
  if (settings.security.SECRET_KEY === '') {
    // A dry run writes nothing, the key file included: it counts against a throwaway key.
    if (dryRun) {
      io.stderr('No [security] SECRET_KEY is configured: a real run generates one first.\n');
      settings.security.SECRET_KEY = generateSecretKey();
    } else {
      generated = await createSecretKeyFile(settings);
      io.stderr(`Generated [security] SECRET_KEY in ${generated} (keep it, and back it up apart from the database)\n`);
    }
  }
  if (oldKey === settings.security.SECRET_KEY) throw new UsageError('the old key is the current SECRET_KEY: there is nothing to re-encrypt');

  let report: ReencryptReport;
  try {
    const host = await RepoHost.open({ settings });
    try {
      report = await host.secretsAtRest.reencrypt({ oldKey, dryRun });
    } finally {
      await host.close();
    }
  } catch (error) {
    // Nothing was re-encrypted: a key made just now would only hide the secrets from the next start.
    if (generated) await unlink(generated).catch(() => undefined);
    throw error;
  }

  let moved = 0;
  const failed: string[] = [];
  for (const kind of report.kinds) {
    io.stdout(`${kind.kind}: ${kind.moved} ${dryRun ? 'to re-encrypt' : 're-encrypted'}, ${kind.current} already under the current key, ${kind.failed.length} did not decrypt\n`);
    moved += kind.moved;
    failed.push(...kind.failed);
  }
  for (const name of failed) io.stderr(`did not decrypt under the old key nor the current one (left as it is): ${name}\n`);
  io.stdout(dryRun ? `Dry run: ${moved} value(s) would be re-encrypted; nothing was changed.\n` : `Re-encrypted ${moved} value(s) under the current SECRET_KEY.\n`);
  return failed.length > 0 ? 1 : 0;
}
