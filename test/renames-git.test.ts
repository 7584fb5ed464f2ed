/**
 * git through the old names of renamed and transferred repositories and accounts, with the real git and ssh
 * clients: over HTTP the server redirects (301 for a repository, 307 for an account, as Forgejo does) and git goes on
 * at the new URL; over SSH the renamed repository is served in place, as Forgejo's serv does. Both only for those
 * who may see it: anyone else meets the answer of a name that never existed.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userActor } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let counter = 0;
const freshDir = (label: string) => path.join(scratch, `${label}-${++counter}`);

function exec(file: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: options.cwd ?? scratch, env: { ...gitEnv, ...options.env }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

async function gitOk(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Result> {
  const result = await exec('git', args, options);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}):\n${result.stderr}\n${result.stdout}`);
  return result;
}

/** Commits a new file and pushes it to `remote`; returns the commit id. */
async function commitAndPush(work: string, remote: string, env: Record<string, string> = {}): Promise<string> {
  await writeFile(path.join(work, `f-${randomBytes(3).toString('hex')}.txt`), randomBytes(8).toString('hex'));
  await gitOk(['add', '-A'], { cwd: work });
  await gitOk(['commit', '-q', '-m', 'change'], { cwd: work });
  await gitOk(['push', '-q', remote, 'HEAD:main'], { cwd: work, env });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).stdout.trim();
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-renames-git-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Git Tester\n\temail = tester@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('git through old names', () => {
  let ts: TestServer;
  let port: number;
  let sshPort: number;
  let alice: Record<string, string>;
  let bob: Record<string, string>;
  let aliceToken: string;
  let bobToken: string;
  let admin: Record<string, string>;
  const keyFiles: Record<string, string> = {};

  const httpUrl = (repo: string, user?: string, secret?: string) => `http://${user ? `${user}:${secret}@` : ''}127.0.0.1:${port}/${repo}.git`;
  const sshEnv = (who: string) => ({
    GIT_SSH_COMMAND: `ssh -F /dev/null -i ${keyFiles[who]} -p ${sshPort} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR`,
  });

  async function headOf(fullName: string): Promise<string> {
    const res = await ts.fetch(`/api/v1/repos/${fullName}/branches/main`, { headers: alice });
    expect(res.status).toBe(200);
    return ((await res.json()) as { commit: { id: string } }).commit.id;
  }

  async function rename(fullName: string, name: string): Promise<void> {
    const res = await ts.fetch(`/api/v1/repos/${fullName}`, jsonInit('PATCH', { name }, alice));
    expect(res.status, await res.clone().text()).toBe(200);
  }

  async function keygen(who: string): Promise<string> {
    const file = path.join(scratch, 'keys', who);
    await mkdir(path.dirname(file), { recursive: true });
    expect((await exec('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', who, '-f', file])).code).toBe(0);
    keyFiles[who] = file;
    return (await readFile(`${file}.pub`, 'utf8')).trim();
  }

  beforeAll(async () => {
    ts = await startTestServer({ server: { START_SSH_SERVER: true, SSH_LISTEN_HOST: '127.0.0.1', SSH_LISTEN_PORT: 0 } });
    port = Number(new URL(ts.url).port);
    sshPort = ts.host.settings.server.SSH_PORT;
    const [aliceUser, bobUser] = [await createUser(ts.host, 'alice'), await createUser(ts.host, 'bob')];
    await createUser(ts.host, 'root', { admin: true });
    aliceToken = await createToken(ts.host, 'alice');
    bobToken = await createToken(ts.host, 'bob');
    alice = tokenHeader(aliceToken);
    bob = tokenHeader(bobToken);
    admin = tokenHeader(await createToken(ts.host, 'root'));
    await ts.host.keys.add(userActor(aliceUser), aliceUser, { title: 'laptop', key: await keygen('alice') });
    await ts.host.keys.add(userActor(bobUser), bobUser, { title: 'laptop', key: await keygen('bob') });
    const owner = userActor(aliceUser);
    for (const [name, isPrivate] of [['pub', false], ['priv', true], ['ssh', false], ['sshpriv', true], ['deployed', true]] as const) {
      await ts.host.repos.create(owner, { name, auto_init: true, private: isPrivate });
    }
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it('over HTTP, redirects info/refs to the new name; git clones, fetches and pushes through the old URL', async () => {
    await rename('alice/pub', 'pub2');
    const raw = await fetch(`http://127.0.0.1:${port}/alice/pub.git/info/refs?service=git-upload-pack`, { redirect: 'manual' });
    expect(raw.status).toBe(301);
    expect(raw.headers.get('location')).toBe('/alice/pub2.git/info/refs?service=git-upload-pack');

    const work = freshDir('pub');
    await gitOk(['clone', '-q', httpUrl('alice/pub'), work]);
    expect(await readFile(path.join(work, 'README.md'), 'utf8')).toContain('# pub');
    const pushed = await commitAndPush(work, httpUrl('alice/pub', 'alice', aliceToken));
    expect(await headOf('alice/pub2')).toBe(pushed);
    await gitOk(['fetch', '-q', httpUrl('alice/pub')], { cwd: work });
    expect((await gitOk(['rev-parse', 'FETCH_HEAD'], { cwd: work })).stdout.trim()).toBe(pushed);
  });

  it("over HTTP, a private repository's old name leads nowhere for those who may not see it", async () => {
    await rename('alice/priv', 'priv2');
    const work = freshDir('priv');
    await gitOk(['clone', '-q', httpUrl('alice/priv', 'alice', aliceToken), work]);
    expect(await commitAndPush(work, httpUrl('alice/priv', 'alice', aliceToken))).toBe(await headOf('alice/priv2'));

    const anonymous = await fetch(`http://127.0.0.1:${port}/alice/priv.git/info/refs?service=git-upload-pack`, { redirect: 'manual' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('location')).toBeNull();
    const asBob = await fetch(`http://127.0.0.1:${port}/alice/priv.git/info/refs?service=git-upload-pack`, { redirect: 'manual', headers: bob });
    expect(asBob.status).toBe(404);
    expect(asBob.headers.get('location')).toBeNull();
    const clone = await exec('git', ['clone', '-q', httpUrl('alice/priv', 'bob', bobToken), freshDir('bob')]);
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).not.toContain('priv2');
  });

  it('over HTTP, an account renamed: its old name redirects (307) and git follows to the repository', async () => {
    const res = await ts.fetch('/api/v1/admin/users/alice/rename', jsonInit('POST', { new_username: 'alicia' }, admin));
    expect(res.status, await res.clone().text()).toBe(204);
    try {
      const raw = await fetch(`http://127.0.0.1:${port}/alice/pub.git/info/refs?service=git-receive-pack`, { redirect: 'manual', headers: alice });
      expect(raw.status).toBe(307);
      expect(raw.headers.get('location')).toBe('/alicia/pub.git/info/refs?service=git-receive-pack');
      // Two renames, two hops: alice/pub → alicia/pub → alicia/pub2.
      const work = freshDir('owner');
      await gitOk(['clone', '-q', httpUrl('alice/pub'), work]);
      const pushed = await commitAndPush(work, httpUrl('alice/pub', 'alicia', aliceToken));
      expect(await headOf('alicia/pub2')).toBe(pushed);
    } finally {
      // The push's after-commit work reads the repository where it was: let it finish before the folder moves back.
      await ts.host.events.idle();
      const back = await ts.fetch('/api/v1/admin/users/alicia/rename', jsonInit('POST', { new_username: 'alice' }, admin));
      expect(back.status).toBe(204);
    }
  });

  it('over SSH, serves the renamed repository in place, with the same permissions', async () => {
    await rename('alice/ssh', 'ssh2');
    await rename('alice/sshpriv', 'sshpriv2');
    for (const name of ['ssh', 'sshpriv']) {
      const work = freshDir(name);
      await gitOk(['clone', '-q', `git@127.0.0.1:alice/${name}.git`, work], { env: sshEnv('alice') });
      expect(await readFile(path.join(work, 'README.md'), 'utf8')).toContain(`# ${name}`);
      const pushed = await commitAndPush(work, 'origin', sshEnv('alice'));
      expect(await headOf(`alice/${name}2`)).toBe(pushed);
    }
    // bob may read the public one only, and pushes nowhere; the private one is not found under either name.
    const work = freshDir('bob-ssh');
    await gitOk(['clone', '-q', 'git@127.0.0.1:alice/ssh.git', work], { env: sshEnv('bob') });
    const push = await exec('git', ['push', 'origin', 'HEAD:main'], { cwd: work, env: sshEnv('bob') });
    expect(push.code).not.toBe(0);
    const hidden = await exec('git', ['clone', '-q', 'git@127.0.0.1:alice/sshpriv.git', freshDir('bob-priv')], { env: sshEnv('bob') });
    expect(hidden.code).not.toBe(0);
    expect(hidden.stderr).toContain('Cannot find repository: alice/sshpriv');
    expect(hidden.stderr).not.toContain('sshpriv2');
  });

  it("over SSH, a deploy key reaches its repository under the old name, and no other", async () => {
    const deployKey = await keygen('deploy');
    const added = await ts.fetch('/api/v1/repos/alice/deployed/keys', jsonInit('POST', { title: 'ci', key: deployKey, read_only: true }, alice));
    expect(added.status).toBe(201);
    await rename('alice/deployed', 'deployed2');
    const work = freshDir('deploy');
    await gitOk(['clone', '-q', 'git@127.0.0.1:alice/deployed.git', work], { env: sshEnv('deploy') });
    expect(await readFile(path.join(work, 'README.md'), 'utf8')).toContain('# deployed');
    const other = await exec('git', ['clone', '-q', 'git@127.0.0.1:alice/sshpriv.git', freshDir('deploy-other')], { env: sshEnv('deploy') });
    expect(other.code).not.toBe(0);
  });
});
