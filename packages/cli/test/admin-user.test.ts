/**
 * `repohost admin user …` beyond create and delete basics: Gitea's list layout, `must-change-password` with
 * `--all`/`--exclude`/`--unset`, `reset-2fa`, and that the CLI goes through the same administration service as the
 * API (the last administrator stays; an owner of repositories needs `--purge`).
 */
import { describe, expect, it } from 'vitest';
import { userActor } from '@repohost/core';
import { useCliWorkspace } from './cli-workspace';


describe('repohost admin user', () => {
  const ws = useCliWorkspace('repohost-cli-admin-');
  const cli = ws.cli;

  async function create(name: string, extra: string[] = []): Promise<void> {
    const r = await cli(['admin', 'user', 'create', '--username', name, '--password', 'secret-pass-1', '--email', `${name}@example.com`, ...extra]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  }

  const withHost = ws.withHost;

  it('lists as Gitea prints: tab-aligned columns, --admin without IsAdmin and 2FA', async () => {
    await create('alice', ['--admin']);
    await create('bob');
    const all = await cli(['admin', 'user', 'list']);
    expect(all.code).toBe(0);
    expect(all.out.split('\n')).toEqual([
      'ID   Username Email             IsActive IsAdmin 2FA',
      '1    alice    alice@example.com true     true    false',
      '2    bob      bob@example.com   true     false   false',
      '',
    ]);
    const admins = await cli(['admin', 'user', 'list', '--admin']);
    expect(admins.out.split('\n')).toEqual(['ID   Username Email             IsActive', '1    alice    alice@example.com true', '']);
  });

  it('sets and clears must-change-password for named users, all users, or all but some', async () => {
    await create('alice', ['--admin']);
    await create('bob', ['--must-change-password=false']);
    await create('carol', ['--must-change-password=false']);
    const state = () =>
      withHost(async (host) => {
        const out: Record<string, number> = {};
        for (const name of ['alice', 'bob', 'carol']) out[name] = (await host.users.findByName(name))!.must_change_password;
        return out;
      });
    expect(await state()).toEqual({ alice: 0, bob: 0, carol: 0 });

    const named = await cli(['admin', 'user', 'must-change-password', 'BOB']);
    expect(named).toMatchObject({ code: 0, out: 'Updated 1 users setting MustChangePassword to true\n' });
    expect(await state()).toEqual({ alice: 0, bob: 1, carol: 0 });

    const all = await cli(['admin', 'user', 'must-change-password', '--all', '--exclude', 'alice', '-e', 'carol']);
    expect(all.out).toBe('Updated 1 users setting MustChangePassword to true\n');
    expect((await cli(['admin', 'user', 'must-change-password', '-A'])).out).toBe('Updated 3 users setting MustChangePassword to true\n');
    expect(await state()).toEqual({ alice: 1, bob: 1, carol: 1 });

    const unset = await cli(['admin', 'user', 'must-change-password', '--unset', 'alice', 'carol']);
    expect(unset.out).toBe('Updated 2 users setting MustChangePassword to false\n');
    expect(await state()).toEqual({ alice: 0, bob: 1, carol: 0 });

    const none = await cli(['admin', 'user', 'must-change-password']);
    expect(none.code).toBe(1);
    expect(none.err).toContain('either usernames or --all must be provided');
  });

  it('reset-2fa says there is nothing to reset; an unknown user is an error', async () => {
    await create('alice', ['--admin']);
    const r = await cli(['admin', 'user', 'reset-2fa', '-u', 'alice']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('no two-factor authentication');
    const unknown = await cli(['admin', 'user', 'reset-2fa', '--username', 'nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('user does not exist');
    expect((await cli(['admin', 'user', 'reset-2fa'])).code).toBe(1);
  });

  it('deletes through the administration service: --purge for owners of repositories, never the last admin', async () => {
    await create('alice', ['--admin']);
    await create('bob');
    await withHost(async (host) => {
      const bob = (await host.users.findByName('bob'))!;
      await host.repos.create(userActor(bob), { name: 'keep', auto_init: true });
    });
    const refused = await cli(['admin', 'user', 'delete', '-u', 'bob']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('user still has ownership of repositories');
    expect((await cli(['admin', 'user', 'delete', '-u', 'bob', '--purge'])).code).toBe(0);
    await withHost(async (host) => {
      expect(await host.users.findByName('bob')).toBeUndefined();
      expect(await host.git.exists({ owner: 'bob', name: 'keep' })).toBe(false);
    });
    const last = await cli(['admin', 'user', 'delete', '--id', '1']);
    expect(last.code).toBe(1);
    expect(last.err).toContain('can not delete the last admin user');
  });

  it('creates with the API\'s rules: a short password is refused, --admin makes an administrator', async () => {
    const short = await cli(['admin', 'user', 'create', '--username', 'eve', '--password', 'short', '--email', 'eve@example.com']);
    expect(short.code).toBe(1);
    expect(short.err).toContain('password is too short');
    await create('root', ['--admin']);
    await withHost(async (host) => {
      expect(await host.users.findByName('eve')).toBeUndefined();
      expect((await host.users.findByName('root'))!).toMatchObject({ is_admin: 1, must_change_password: 0 });
    });
  });
});
