import { existsSync } from 'node:fs';
import path from 'node:path';
import { RepoHost, KeyType } from '@repohost/core';
import { cliSettings, type GlobalOptions } from '../config.js';
import { UsageError, type CliIo } from '../io.js';
import type { LeafCommand, Parsed } from '../command.js';

export const KEYS: LeafCommand = {
  name: 'keys',
  summary: 'Print the authorized_keys line for an SSH key (OpenSSH AuthorizedKeysCommand)',
  description: `For OpenSSH's AuthorizedKeysCommand: prints the authorized_keys line that lets KEY in, running "repohost serv":
a user's key as its RepoHost account, a deploy key to its repositories only. Exits 1 for any other key.

Example sshd_config:
  Match User git
    AuthorizedKeysCommandUser git
    AuthorizedKeysCommand /path/to/repohost --config=/path/to/app.ini keys -e git -u %u -t %t -k %k
`,
  flags: {
    expected: { type: 'string', short: 'e', default: 'git', value: 'NAME', help: 'the login git uses (default "git"); for any other USER nothing is printed' },
    username: { type: 'string', short: 'u', value: 'USER', help: "the login the client asked for (sshd's %u)" },
    type: { type: 'string', short: 't', value: 'TYPE', help: "the key's type (sshd's %t)" },
    content: { type: 'string', short: 'k', value: 'KEY', help: "the key's base64 content (sshd's %k)" },
  },
  run: keys,
};

/** A word as a POSIX shell reads it back unchanged. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command that runs this CLI again: node and the script, so sshd's sparse PATH does not matter. */
function appCommand(): string[] {
  const script = process.argv[1];
  return script ? [process.execPath, path.resolve(script)] : [process.execPath];
}

/**
 * The authorized_keys entry for a key: `command="… serv key-<id>"` with the restrictions Gitea writes, so the key
 * can run git through RepoHost and nothing else. Only `"` needs escaping inside sshd's quoted option.
 */
export function authorizedKeyLine(options: { app: string[]; configFile?: string; workPath: string; keyId: number; content: string }): string {
  const config = options.configFile === undefined ? [] : [`--config=${options.configFile}`];
  const command = [...options.app, ...config, `--work-path=${options.workPath}`, 'serv', `key-${options.keyId}`].map(shellQuote).join(' ');
  const restrictions = 'no-port-forwarding,no-X11-forwarding,no-agent-forwarding,no-pty,no-user-rc,restrict';
  return `command="${command.replace(/"/g, '\\"')}",${restrictions} ${options.content}`;
}

async function keys({ values }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
  const v = values as { expected?: string; username?: string; type?: string; content?: string };
  if (v.username === undefined) throw new UsageError('No username provided');
  // sshd asks for every login; only the git login is ours to answer.
  if (v.username.trim() !== (v.expected ?? 'git').trim()) return 0;
  if (!v.type?.trim() || !v.content?.trim()) throw new UsageError('No key type and content provided');

  const settings = cliSettings(global, io);
  // Runs for every SSH connection: no migrations, no start-up repair (the server process does those).
  const host = await RepoHost.open({ settings, migrate: false, reconcile: false });
  try {
    const key = await host.keys.findByContent(`${v.type.trim()} ${v.content.trim()}`);
    // A user's key, or a repository's deploy key: `serv` decides what either may reach, as the built-in server does.
    if (!key || (key.type !== KeyType.User && key.type !== KeyType.Deploy)) {
      io.stderr('Error: no account or repository has this key\n');
      return 1;
    }
    // `serv` must read the same settings: the same work path, and the config file when there is one.
    const defaultConfig = path.join(settings.workPath, 'custom', 'conf', 'app.ini');
    const configFile = global.config ? path.resolve(io.cwd, global.config) : existsSync(defaultConfig) ? defaultConfig : undefined;
    io.stdout(`# repohost public key\n${authorizedKeyLine({ app: appCommand(), configFile, workPath: settings.workPath, keyId: key.id, content: key.content })}\n`);
    return 0;
  } finally {
    await host.close();
  }
}
