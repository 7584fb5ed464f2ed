/** The data folder holds password and token hashes and private code: only the server's account may read it. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RepoHost, loadSettings, userActor } from '@repohost/core';
import { TEST_DB, createUser } from '@repohost/test-support';

/** A 1×1 transparent PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function walk(dir: string): Promise<string[]> {
  const out = [dir];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else out.push(full);
  }
  return out;
}

describe.runIf(TEST_DB === 'sqlite')('data files', () => {
  it('are created readable and writable by the owner only: database, folders, repositories, pushes, attachments, avatars', async () => {
    const workPath = await mkdtemp(path.join(tmpdir(), 'repohost-perm-'));
    // A permissive umask, as a careless service manager might set: the modes must not depend on it.
    const umask = process.umask(0o022);
    try {
      // A new installation that generates its key file: that file too must be the owner's alone.
      const host = await RepoHost.open({ settings: loadSettings({ workPath }), noSecretKey: 'generate' });
      const alice = await createUser(host, 'alice');
      await host.repos.create(userActor(alice), { name: 'demo', auto_init: true });
      await host.git.commitFiles({ owner: 'alice', name: 'demo' }, { branch: 'more', message: 'm', author: { name: 'a', email: 'a@b.c' }, files: [{ path: 'x', content: 'y' }] });
      // Blob storage (data/attachments) and uploaded avatars (data/avatars) are made on first use.
      const access = await host.repos.resolve(userActor(alice), 'alice', 'demo');
      const issue = await host.issues.create(userActor(alice), access, { title: 'with a file' });
      await host.issueAttachments.uploadToIssue(userActor(alice), access, issue, async () => ({ name: 'notes.txt', source: Readable.from([Buffer.from('hello')]) }));
      await host.userAvatars.upload(userActor(alice), alice, { image: PNG_1X1 });
      await host.close();
      const data = host.settings.server.APP_DATA_PATH;
      const entries = await walk(data);
      expect(entries.some((e) => e.endsWith('forgejo.db'))).toBe(true);
      expect(entries.some((e) => e === path.join(data, 'secret_key'))).toBe(true);
      expect(entries.some((e) => e.includes(path.join('alice', 'demo.git', 'objects')))).toBe(true);
      expect(entries.filter((e) => e.startsWith(path.join(data, 'attachments') + path.sep)).length).toBeGreaterThan(1);
      expect(entries.filter((e) => e.startsWith(path.join(data, 'avatars') + path.sep)).length).toBeGreaterThan(0);
      for (const entry of entries) {
        const mode = (await stat(entry)).mode & 0o777;
        expect({ entry, others: mode & 0o077 }).toEqual({ entry, others: 0 });
      }
    } finally {
      process.umask(umask);
      await rm(workPath, { recursive: true, force: true });
    }
  });
});
