/**
 * The maintenance verbs beside Gitea's: admin regenerate hooks|keys, admin repo-sync-releases, doctor check,
 * dump and restore.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RepoHost, loadSettings, userActor, type RepoHost as Host } from '@repohost/core';
import { TEST_DB } from '@repohost/test-support';
import { useCliWorkspace } from './cli-workspace.js';

const AUTHOR = { name: 'a', email: 'a@example.com' };

/** alice/demo with a commit, on the host the CLI uses (alice made by the CLI, which makes the installation). */
async function aliceDemo(host: Host) {
  const alice = (await host.users.findByName('alice'))!;
  await host.repos.create(userActor(alice), { name: 'demo', auto_init: true });
  const access = await host.repos.resolve(userActor(alice), 'alice', 'demo');
  return { alice, access, gitDir: path.join(host.settings.repository.ROOT, 'alice', 'demo.git') };
}

describe('repohost maintenance commands', () => {
  const ws = useCliWorkspace('repohost-maint-');
  const hooksDir = () => path.join(ws.work, 'data', 'forgejo-repositories', '.hooks');
  /** A new installation with alice/demo. */
  const setUp = async () => {
    const created = await ws.cli(['admin', 'user', 'create', '--username', 'alice', '--password', 'a-good-password', '--email', 'alice@example.com']);
    expect(created.code).toBe(0);
    return ws.withHost(aliceDemo);
  };

  it('admin regenerate hooks writes the shared server hooks again; keys says there is no file to write', async () => {
    await setUp();
    await rm(hooksDir(), { recursive: true, force: true });
    const hooks = await ws.cli(['admin', 'regenerate', 'hooks']);
    expect(hooks.err).toBe('');
    expect(hooks.code).toBe(0);
    expect(hooks.out).toBe(`Missing before: pre-receive, push-check.cjs. Wrote the server hooks in ${hooksDir()}.\n`);
    for (const file of ['pre-receive', 'push-check.cjs']) expect((await stat(path.join(hooksDir(), file))).mode & 0o777).toBe(0o700);

    const keys = await ws.cli(['admin', 'regenerate', 'keys']);
    expect(keys.code).toBe(0);
    expect(keys.out).toContain('RepoHost maintains no authorized_keys file');
    expect(keys.out).toContain('AuthorizedKeysCommand');
  });

  it('admin repo-sync-releases makes releases follow tags changed in git behind its back', async () => {
    const { alice, access, gitDir } = await setUp();
    const moved = await ws.withHost(async (host) => {
      for (const tag of ['v1', 'v2', 'v3']) await host.releases.create(userActor(alice), access, { tag_name: tag, target_commitish: access.repo.default_branch, name: tag });
      const next = await host.git.commitFiles({ owner: 'alice', name: 'demo' }, { branch: 'next', message: 'next', author: AUTHOR, files: [{ path: 'n', content: 'n' }] });
      // Changed with git directly: no push event tells RepoHost.
      execFileSync('git', ['--git-dir', gitDir, 'tag', '-d', 'v1']);
      execFileSync('git', ['--git-dir', gitDir, 'tag', '-f', 'v2', next]);
      return next;
    });
    const r = await ws.cli(['admin', 'repo-sync-releases']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe('alice/demo: 1 release(s) made drafts (tag gone), 1 moved with their tag\nSynchronized the releases of 1 repositories: 1 made drafts, 1 moved.\n');
    await ws.withHost(async (host) => {
      const owner = (await host.users.findByName('alice'))!;
      const access = await host.repos.resolve(userActor(owner), 'alice', 'demo');
      const byTag = async (tag: string) => host.releases.resolveByTag(userActor(owner), access, tag);
      expect((await byTag('v1')).is_draft).toBe(1);
      expect((await byTag('v2')).sha1).toBe(moved);
      expect((await byTag('v3')).is_draft).toBe(0);
    });
    // Once agreed, a second run changes nothing.
    const again = await ws.cli(['admin', 'repo-sync-releases']);
    expect(again.out).toBe('Synchronized the releases of 1 repositories: 0 made drafts, 0 moved.\n');
  });

  it('doctor check reports what the start-up checks find, and --fix repairs what they repair', async () => {
    const list = await ws.cli(['doctor', 'check', '--list']);
    expect(list.out.split('\n').filter(Boolean).map((l) => l.split(' ')[0])).toEqual(['storage-consistency', 'hooks', 'repo-health']);

    await setUp();
    const healthy = await ws.cli(['doctor', 'check']);
    expect(healthy.err).toBe('');
    expect(healthy.out).toContain(`not written yet: the first push writes them in ${hooksDir()}`);
    expect(healthy.out).toContain('[repo-health] ');
    expect(healthy.out).toContain('checked 1 repositories');
    expect(healthy.out.endsWith('All checks passed.\n')).toBe(true);
    expect(healthy.code).toBe(0);

    expect((await ws.cli(['admin', 'regenerate', 'hooks'])).code).toBe(0);
    await rm(path.join(hooksDir(), 'pre-receive'));
    const stray = path.join(ws.work, 'data', 'forgejo-repositories', 'alice', 'stray.git');
    execFileSync('git', ['init', '--bare', '-q', stray]);
    const broken = await ws.cli(['doctor', 'check', '--run', 'hooks', '--run', 'storage-consistency']);
    expect(broken.code).toBe(1);
    expect(broken.out).not.toContain('[repo-health]');
    expect(broken.out).toContain(`ERROR: missing or not executable in ${hooksDir()}: pre-receive (`);
    expect(broken.out).toContain('ERROR: 1 unadopted repositories in storage: alice/stray');
    expect(broken.out.endsWith('2 problem(s) found.\n')).toBe(true);
    expect(existsSync(path.join(hooksDir(), 'pre-receive'))).toBe(false);

    const fixed = await ws.cli(['doctor', 'check', '--run', 'hooks', '--fix']);
    expect(fixed.code).toBe(0);
    expect(fixed.out).toContain(`wrote pre-receive in ${hooksDir()}`);
    expect(existsSync(path.join(hooksDir(), 'pre-receive'))).toBe(true);

    const unknown = await ws.cli(['doctor', 'check', '--run', 'frobnicate']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('unknown check(s): frobnicate');
  });

  it('dump writes one archive that restore puts back; restore refuses a non-empty installation without --force', async () => {
    const { alice, access } = await setUp();
    const { commit, uuid } = await ws.withHost(async (host) => {
      const issue = await host.issues.create(userActor(alice), access, { title: 'with a file' });
      const file = await host.issueAttachments.uploadToIssue(userActor(alice), access, issue, async () => ({ name: 'notes.txt', source: Readable.from([Buffer.from('hello')]) }));
      const refs = await host.git.listRefs({ owner: 'alice', name: 'demo' }, 'refs/heads/');
      return { commit: refs[0]!.id, uuid: file.uuid };
    });
    const archive = path.join(ws.work, 'backup.tar.gz');
    const dumped = await ws.cli(['dump', '--file', archive]);
    expect(dumped.err).toBe('');
    expect(dumped.code).toBe(0);
    expect(dumped.out).toContain(`Wrote ${archive} (`);
    expect((await stat(archive)).mode & 0o077).toBe(0);
    // An existing archive is never overwritten.
    expect((await ws.cli(['dump', '--file', archive])).code).toBe(1);

    /** What a restored installation must hold. */
    const expectRestored = async (host: RepoHost) => {
      const alice = await host.users.findByName('alice');
      expect(alice).toBeDefined();
      const access = await host.repos.resolve(userActor(alice!), 'alice', 'demo');
      expect(access.repo.name).toBe('demo');
      expect((await host.git.listRefs({ owner: 'alice', name: 'demo' }, 'refs/heads/'))[0]?.id).toBe(commit);
      const download = await host.attachments.download(userActor(alice!), uuid);
      expect(download).toBeDefined();
    };

    if (TEST_DB === 'sqlite') {
      // Into a new installation: nothing to refuse.
      const other = await mkdtemp(path.join(tmpdir(), 'repohost-restore-'));
      try {
        const restored = await ws.cli(['--work-path', other, 'restore', archive]);
        expect(restored.err).toBe('');
        expect(restored.code).toBe(0);
        const host = await RepoHost.open({ settings: loadSettings({ workPath: other, env: ws.env }) });
        try {
          await expectRestored(host);
        } finally {
          await host.close();
        }
        expect((await stat(path.join(other, 'data', 'forgejo.db'))).mode & 0o077).toBe(0);
        const refused = await ws.cli(['--work-path', other, 'restore', archive]);
        expect(refused.code).toBe(1);
        expect(refused.err).toContain('this installation is not empty');
        expect(refused.err).toContain('--force');
        expect((await ws.cli(['--work-path', other, 'restore', '--force', archive])).code).toBe(0);
      } finally {
        await rm(other, { recursive: true, force: true });
      }
      return;
    }

    // PostgreSQL: the same database and schema, after a change the restore must undo.
    await ws.withHost(async (host) => {
      const alice = (await host.users.findByName('alice'))!;
      await host.repos.delete(userActor(alice), await host.repos.resolve(userActor(alice), 'alice', 'demo'));
    });
    const refused = await ws.cli(['restore', archive]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('this installation is not empty');
    const forced = await ws.cli(['restore', '--force', archive]);
    expect(forced.err).toBe('');
    expect(forced.code).toBe(0);
    await ws.withHost(expectRestored);
  });

  it('restore refuses what is not a dump', async () => {
    const notDump = path.join(ws.work, 'x.tar.gz');
    await writeFile(path.join(ws.work, 'a.txt'), 'a');
    execFileSync('tar', ['-czf', notDump, '-C', ws.work, 'a.txt']);
    const r = await ws.cli(['--work-path', path.join(ws.work, 'fresh'), 'restore', notDump]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('is not a dump made by "repohost dump"');
    await writeFile(notDump, 'not even an archive');
    const garbage = await ws.cli(['--work-path', path.join(ws.work, 'fresh'), 'restore', notDump]);
    expect(garbage.code).toBe(1);
    expect(garbage.err).toContain('is not a dump made by "repohost dump"');
    expect(garbage.err).not.toMatch(/\n\s+at /);
  });
});
