/**
 * `repohost serv` answers `git-lfs-authenticate` as OpenSSH runs it (SSH_ORIGINAL_COMMAND): the JSON git-lfs reads,
 * with a bearer token the LFS routes accept for that repository and operation; refusals on stderr. The built-in
 * SSH server's answer, and git-lfs using it, are in packages/server/test/lfs.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LfsService, userActor } from '@repohost/core';
import { createUser } from '@repohost/test-support';
import { useCliWorkspace } from './cli-workspace';

describe('repohost serv: git-lfs-authenticate', () => {
  const ws = useCliWorkspace('repohost-cli-lfs-', {
    FORGEJO__SERVER__LFS_START_SERVER: 'true',
    FORGEJO__SERVER__ROOT_URL: 'http://forge.example/',
    FORGEJO__SECURITY__SECRET_KEY: 'lfs-serv-test-secret-key',
  });

  it('prints a token for the repository and operation, and refuses what the key may not do', async () => {
    const keyFile = path.join(ws.work, 'key');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'alice@example.com', '-f', keyFile]);
    const publicKey = (await readFile(`${keyFile}.pub`, 'utf8')).trim();
    const keyId = await ws.withHost(async (host) => {
      const alice = await createUser(host, 'alice');
      const bob = await createUser(host, 'bob');
      await host.repos.create(userActor(alice), { name: 'assets', private: true });
      await host.repos.create(userActor(bob), { name: 'public-assets' });
      return (await host.keys.add(userActor(alice), alice, { title: 'laptop', key: publicKey })).id;
    });
    const serv = async (command: string) => {
      ws.env['SSH_ORIGINAL_COMMAND'] = command;
      return ws.cli(['serv', `key-${keyId}`]);
    };

    const download = await serv("git-lfs-authenticate 'alice/assets.git' download");
    expect(download.code, download.err).toBe(0);
    const answer = JSON.parse(download.out) as { header: { Authorization: string }; href: string; expires_at: string };
    expect(answer.href).toBe('http://forge.example/alice/assets.git/info/lfs');
    expect(answer.header.Authorization).toMatch(/^Bearer /);
    await ws.withHost(async (host) => {
      const lfs = host.service(LfsService);
      const found = await lfs.tokenActor(answer.header.Authorization.slice('Bearer '.length));
      expect(found?.claims).toMatchObject({ op: 'download' });
      const access = await lfs.resolve(found!.actor, 'alice', 'assets.git', 'read');
      expect(lfs.tokenCovers(found!.claims, access, 'read')).toBe(true);
      expect(lfs.tokenCovers(found!.claims, access, 'write')).toBe(false);
    });

    // Reading someone else's public repository is fine; writing to it is not.
    expect((await serv('git-lfs-authenticate bob/public-assets download')).code).toBe(0);
    const upload = await serv('git-lfs-authenticate bob/public-assets upload');
    expect(upload.code).toBe(1);
    expect(upload.err).toBe('RepoHost: User permission denied\n');
    const missing = await serv('git-lfs-authenticate bob/nothing download');
    expect(missing.err).toBe('RepoHost: Cannot find repository: bob/nothing\n');
    const verb = await serv('git-lfs-authenticate alice/assets delete');
    expect(verb.err).toBe('RepoHost: Unknown LFS verb: delete\n');
    const short = await serv('git-lfs-authenticate alice/assets');
    expect(short.err).toBe('RepoHost: Too few arguments\n');
  });
});
