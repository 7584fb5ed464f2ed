import { readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { NotSupportedError, RepoHost, createSecretKeyFile, generateSecretKey, type ReencryptReport } from '@repohost/core';
import { cliSettings, type GlobalOptions } from '../config.js';
import { UsageError, type CliIo } from '../io.js';
import type { GroupCommand, Parsed } from '../command.js';

/** `repohost admin regenerate …`: Gitea's `hooks` and `keys`, and RepoHost's `secrets`. */
export const ADMIN_REGENERATE: GroupCommand = {
  name: 'regenerate',
  summary: 'Write again what RepoHost derives: server hooks, SSH keys, encrypted secrets',
  commands: [
    {
      name: 'hooks',
      summary: 'Write again the server-side git hooks every push runs',
      description: `Writes again the server-side git hooks. RepoHost keeps no hook scripts in the repositories (there is
nothing per repository to regenerate): every push runs the one set of hooks in the repositories root
([repository] ROOT/.hooks, given to git as core.hooksPath), so this command checks those files and rewrites
them. The server writes them at its first push too; this repairs them after they were edited or removed.
`,
      run: regenerateHooks,
    },
    {
      name: 'keys',
      summary: 'Rewrite the authorized_keys file (RepoHost keeps none: see --help)',
      description: `Gitea rewrites the ~/.ssh/authorized_keys file it maintains. RepoHost maintains no authorized_keys file, so
there is nothing to rewrite: its built-in SSH server reads the keys from the database, and an OpenSSH server
asks "repohost keys" for each connection (AuthorizedKeysCommand, see "repohost keys --help"), so a key added or
removed counts at once. This command says so and exits 0.
`,
      run: regenerateKeys,
    },
    {
      name: 'secrets',
      summary: 'Re-encrypt the secrets stored in the database under the current [security] SECRET_KEY',
      description: `Re-encrypts every secret stored in the database (TOTP secrets, LDAP bind passwords, webhook Authorization
headers, pull and push mirror credentials, migration credentials) from an old [security] SECRET_KEY to the
current one, in one transaction. Run it, with the server stopped, after setting or changing SECRET_KEY (or
SECRET_KEY_URI) on an existing installation. When no key is configured, it first generates one in the data
folder (APP_DATA_PATH/secret_key, readable by its owner only), as a new installation's first start does.
Values that decrypt under neither key are left as they are and listed (exit code 1): their users enter them again.
`,
      flags: {
        'old-key': { type: 'string', value: 'KEY', help: 'the key the values are encrypted under now\n(default: the empty key of installations that never set one)' },
        'old-key-file': { type: 'string', value: 'FILE', help: 'read the old key from FILE (whitespace trimmed),\nkeeping it off the command line' },
        'dry-run': { type: 'boolean', help: 'count what would be re-encrypted; change nothing' },
      },
      run: regenerateSecrets,
    },
  ],
};

async function regenerateHooks(_input: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
  // Start-up repairs nothing here, and the server may be running: open as `serv` does.
  const host = await RepoHost.open({ settings: cliSettings(global, io), migrate: false, reconcile: false });
  try {
    const folder = path.join(host.settings.repository.ROOT, HOOKS_FOLDER);
    const before = await hookFiles(folder);
    try {
      await host.git.syncHooks();
    } catch (error) {
      if (error instanceof NotSupportedError) {
        io.stdout('The git backend ([repository] BACKEND) runs no hooks: nothing to write.\n');
        return 0;
      }
      throw error;
    }
    const missing = before.filter((f) => !f.present).map((f) => f.name);
    io.stdout(`${missing.length ? `Missing before: ${missing.join(', ')}. ` : ''}Wrote the server hooks in ${folder}.\n`);
    return 0;
  } finally {
    await host.close();
  }
}

/** The hook files RepoHost writes, and whether each is there and executable. */
export const HOOKS_FOLDER = '.hooks';
const HOOK_FILES = ['pre-receive', 'push-check.cjs'];
export async function hookFiles(folder: string): Promise<{ name: string; present: boolean }[]> {
  return Promise.all(
    HOOK_FILES.map(async (name) => {
      const info = await stat(path.join(folder, name)).catch(() => undefined);
      return { name, present: info !== undefined && info.isFile() && (info.mode & 0o100) !== 0 };
    }),
  );
}

function regenerateKeys(_input: Parsed, _global: GlobalOptions, io: CliIo): number {
  io.stdout('RepoHost maintains no authorized_keys file: nothing to rewrite. OpenSSH asks "repohost keys" for each connection (AuthorizedKeysCommand; see "repohost keys --help").\n');
  return 0;
}

async function regenerateSecrets({ values }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
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
