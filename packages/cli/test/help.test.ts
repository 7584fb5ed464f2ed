import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, groups, leaves } from '@repohost/cli';
import { useCliWorkspace } from './cli-workspace.js';

describe('repohost --help, -h and --version', () => {
  const ws = useCliWorkspace('repohost-help-');

  it('every command and subcommand answers --help and -h with its usage and flags, exits 0 and does nothing else', async () => {
    const all = [...groups(COMMANDS).map((g) => ({ path: g.path, flags: [] as string[] })), ...leaves(COMMANDS).map((l) => ({ path: l.path, flags: Object.keys(l.command.flags ?? {}) }))];
    // The table has what the issue asked for: a leaf per verb, Forgejo's spelling beside Gitea's.
    const names = all.map((c) => c.path.join(' '));
    for (const expected of ['web', 'migrate', 'admin user create', 'admin user reset-mfa', 'admin regenerate hooks', 'admin regenerate keys', 'admin repo-sync-releases', 'doctor check', 'dump', 'restore']) {
      expect(names).toContain(expected);
    }
    for (const command of all) {
      for (const flag of ['--help', '-h']) {
        // With a required flag given too: help wins over running, wherever it stands.
        const r = await ws.cli([...command.path, ...(command.flags.includes('username') ? ['--username', 'x'] : []), flag]);
        expect({ command: command.path, code: r.code, err: r.err }).toEqual({ command: command.path, code: 0, err: '' });
        const usage = ['Usage: repohost', ...command.path].join(' ');
        const first = r.out.split('\n')[0]!;
        expect({ first, isUsage: first === usage || first.startsWith(`${usage} `) }).toEqual({ first, isUsage: true });
        for (const name of command.flags) expect(r.out).toContain(`--${name}`);
      }
    }
    // Nothing ran: no database, no data folder, no key file.
    expect(await readdir(ws.work)).toEqual([]);
  });

  it('a group lists its commands; help, no command and an unknown one', async () => {
    const admin = await ws.cli(['admin', '--help']);
    expect(admin.code).toBe(0);
    expect(admin.err).toBe('');
    for (const sub of ['user', 'auth', 'repo', 'regenerate', 'repo-sync-releases']) expect(admin.out).toMatch(new RegExp(`^  ${sub}\\b`, 'm'));
    expect(admin.out).not.toContain('unknown command');

    const bare = await ws.cli(['admin']);
    expect(bare.code).toBe(1);
    expect(bare.out).toContain('Usage: repohost admin <command>');

    const unknown = await ws.cli(['admin', 'frobnicate']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('unknown command "admin frobnicate"');
    expect(unknown.err).toContain('repohost admin --help');

    const leafFlag = await ws.cli(['admin', 'user', 'list', '--bogus']);
    expect(leafFlag.code).toBe(1);
    expect(leafFlag.err).toContain("Unknown option '--bogus'");
    expect(leafFlag.err).toContain('repohost admin user list --help');
  });

  it('migrate --help does not migrate', async () => {
    const r = await ws.cli(['migrate', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: repohost migrate');
    expect(existsSync(path.join(ws.work, 'data'))).toBe(false);
  });

  it('--version and -v print the version, before or without a command', async () => {
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const r = await ws.cli([flag]);
      expect(r).toEqual({ code: 0, out: `repohost version ${version}\n`, err: '' });
    }
    const top = await ws.cli(['--help']);
    expect(top.out).toContain('--version, -v');
  });

  it('admin user reset-mfa is reset-2fa under Forgejo\'s name', async () => {
    const created = await ws.cli(['admin', 'user', 'create', '--username', 'alice', '--password', 'a-good-password', '--email', 'alice@example.com']);
    expect(created.code).toBe(0);
    const reset = await ws.cli(['admin', 'user', 'reset-mfa', '--username', 'alice']);
    expect(reset).toEqual({ code: 0, out: 'alice has no two-factor authentication to reset\n', err: '' });
    const unknown = await ws.cli(['admin', 'user', 'reset-mfa', '-u', 'nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('user does not exist');
  });
});
