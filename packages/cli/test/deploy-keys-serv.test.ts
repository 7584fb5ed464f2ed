/**
 * Deploy keys through OpenSSH: `repohost keys` prints the authorized_keys line for a repository's deploy key, and
 * `repohost serv key-<id>` (run by that line, with SSH_ORIGINAL_COMMAND) lets it reach its repositories only, as
 * the built-in SSH server does (test/deploy-keys-ssh.test.ts): read-only keys clone and fetch, read-write keys
 * push too, every other repository is not found. The real `git` runs the built CLI through a stand-in for ssh+sshd.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoHost, SYSTEM, loadSettings, userActor, type User } from '@repohost/core';
import { testDatabaseEnv } from '@repohost/test-support';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

interface KeyPair {
  file: string;
  /** `type base64` */
  publicKey: string;
}

const root = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = path.join(root, 'packages', 'cli', 'dist', 'main.js');

let scratch: string;
let workPath: string;
let env: Record<string, string>;
let cleanupDb: (() => Promise<void>) | undefined;
let fakeSsh: string;
let counter = 0;

const freshDir = (label: string) => path.join(scratch, `${label}-${++counter}`);

function exec(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { cwd: options.cwd ?? scratch, env: options.env ?? env, timeout: 60_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end();
  });
}

const cli = (args: string[], extraEnv: Record<string, string> = {}) => exec(process.execPath, [CLI, '--work-path', workPath, ...args], { env: { ...env, ...extraEnv } });

function git(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Result> {
  return exec('git', args, { cwd: options.cwd, env: { ...env, ...options.env } });
}

async function gitOk(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Result> {
  const result = await git(args, options);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}):\n${result.stderr}`);
  return result;
}

async function commitFile(dir: string, file: string, content: string): Promise<string> {
  await writeFile(path.join(dir, file), content);
  await gitOk(['add', '--', file], { cwd: dir });
  await gitOk(['commit', '-q', '-m', `Add ${file}`], { cwd: dir });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).stdout.trim();
}

async function keygen(label: string): Promise<KeyPair> {
  const file = path.join(scratch, 'keys', label);
  await mkdir(path.dirname(file), { recursive: true });
  const made = await exec('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `${label}@ci`, '-f', file]);
  expect(made.code, made.stderr).toBe(0);
  return { file, publicKey: (await readFile(`${file}.pub`, 'utf8')).trim().split(' ').slice(0, 2).join(' ') };
}

/** Runs `fn` on a host over the same database and work path as the CLI (no start-up repair: the CLI shares it). */
async function withHost<T>(fn: (host: RepoHost) => Promise<T>): Promise<T> {
  const host = await RepoHost.open({ settings: loadSettings({ workPath, env }), reconcile: false });
  try {
    return await fn(host);
  } finally {
    await host.close();
  }
}

/** What sshd runs for the key: the command of the authorized_keys line `repohost keys` prints. */
async function authorizedCommand(key: KeyPair): Promise<string> {
  const [type, content] = key.publicKey.split(' ') as [string, string];
  const out = await cli(['keys', '-e', 'git', '-u', 'git', '-t', type, '-k', content]);
  expect(out.code, out.stderr).toBe(0);
  const match = /^command="((?:[^"\\]|\\.)*)",(\S+) (.+)$/m.exec(out.stdout);
  expect(match, out.stdout).not.toBeNull();
  expect(match![2]).toBe('no-port-forwarding,no-X11-forwarding,no-agent-forwarding,no-pty,no-user-rc,restrict');
  expect(match![3]).toBe(key.publicKey);
  return match![1]!.replace(/\\"/g, '"');
}

/** git's environment for reaching RepoHost with `key` through OpenSSH and `repohost serv`. */
async function through(key: KeyPair): Promise<Record<string, string>> {
  return { GIT_SSH_COMMAND: fakeSsh, GIT_SSH_VARIANT: 'ssh', REPOHOST_AUTHORIZED_COMMAND: await authorizedCommand(key) };
}

const url = (owner: string, repo: string) => `git@repohost:${owner}/${repo}.git`;

describe('deploy keys through OpenSSH: repohost keys and repohost serv', () => {
  const keys: Record<'readOnly' | 'readWrite' | 'shared' | 'user', KeyPair> = {} as never;
  /** `public_key` ids: what `serv key-<id>` names. */
  const ids: Record<'readOnly' | 'readWrite' | 'shared', number> = {} as never;

  beforeAll(async () => {
    const { ensureBuilt } = (await import(path.join(root, 'scripts', 'build-if-stale.mjs'))) as { ensureBuilt(): Promise<void> };
    await ensureBuilt();
    scratch = await mkdtemp(path.join(tmpdir(), 'repohost-deploy-serv-'));
    workPath = path.join(scratch, 'work');
    await mkdir(workPath);
    const home = path.join(scratch, 'home');
    await mkdir(home);
    await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Deployer\n\temail = deployer@example.com\n[init]\n\tdefaultBranch = main\n');
    const db = await testDatabaseEnv();
    cleanupDb = db.cleanup;
    env = { PATH: process.env.PATH ?? '', HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', ...db.env };
    [keys.readOnly, keys.readWrite, keys.shared, keys.user] = await Promise.all([keygen('ro'), keygen('rw'), keygen('shared'), keygen('user')]);

    // The first open migrates and makes the key file, as `repohost` would; later ones (and the CLI) read it.
    const host = await RepoHost.open({ settings: loadSettings({ workPath, env }), noSecretKey: 'generate' });
    try {
      const make = (name: string) => host.users.create(SYSTEM, { username: name, email: `${name}@example.com`, password: 'a-good-password' });
      const alice: User = await make('alice');
      const bob: User = await make('bob');
      const asAlice = userActor(alice);
      for (const [name, isPrivate] of [['deployed', true], ['other', true], ['public', false]] as const) {
        await host.repos.create(asAlice, { name, auto_init: true, private: isPrivate });
      }
      await host.repos.create(userActor(bob), { name: 'elsewhere', auto_init: true });
      await host.keys.add(userActor(bob), bob, { title: 'bob', key: keys.user.publicKey });
      const deployed = await host.repos.resolve(asAlice, 'alice', 'deployed');
      const other = await host.repos.resolve(asAlice, 'alice', 'other');
      const add = (access: typeof deployed, title: string, key: KeyPair, readOnly: boolean) =>
        host.keys.addDeployKey(asAlice, access, { title, key: key.publicKey, read_only: readOnly });
      ids.readOnly = (await add(deployed, 'read only', keys.readOnly, true)).key_id;
      ids.readWrite = (await add(deployed, 'read write', keys.readWrite, false)).key_id;
      ids.shared = (await add(deployed, 'shared ro', keys.shared, true)).key_id;
      expect((await add(other, 'shared rw', keys.shared, false)).key_id).toBe(ids.shared);
    } finally {
      await host.close();
    }
    // Stands in for ssh + sshd: the remote command is git's last argument; sshd runs the authorized command with it
    // in SSH_ORIGINAL_COMMAND.
    fakeSsh = path.join(scratch, 'fake-ssh');
    await writeFile(fakeSsh, '#!/bin/sh\nfor last; do :; done\nSSH_ORIGINAL_COMMAND="$last" exec sh -c "$REPOHOST_AUTHORIZED_COMMAND"\n');
    await chmod(fakeSsh, 0o755);
  }, 180_000);

  afterAll(async () => {
    await cleanupDb?.();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('repohost keys prints the authorized_keys line for a deploy key, naming its public key', async () => {
    expect(await authorizedCommand(keys.readOnly)).toBe(`${process.execPath} ${CLI} --work-path=${workPath} serv key-${ids.readOnly}`);
    expect(await authorizedCommand(keys.shared)).toBe(`${process.execPath} ${CLI} --work-path=${workPath} serv key-${ids.shared}`);
    // Only the git login is answered, for deploy keys as for user keys.
    const [type, content] = keys.readWrite.publicKey.split(' ') as [string, string];
    expect(await cli(['keys', '-e', 'git', '-u', 'root', '-t', type, '-k', content])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('a read-only deploy key clones and fetches its repository, but may not push to it', async () => {
    const as = await through(keys.readOnly);
    const work = freshDir('ro');
    await gitOk(['clone', '-q', url('alice', 'deployed'), work], { env: as });
    expect(await readFile(path.join(work, 'README.md'), 'utf8')).toContain('deployed');
    await gitOk(['fetch', '-q', 'origin'], { cwd: work, env: as });
    const before = (await gitOk(['ls-remote', url('alice', 'deployed'), 'refs/heads/main'], { env: as })).stdout;
    await commitFile(work, 'ro.txt', 'read only\n');
    const push = await git(['push', 'origin', 'main'], { cwd: work, env: as });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain(`RepoHost: Deploy Key: ${ids.readOnly}:read only is not authorized to write to alice/deployed.`);
    expect((await gitOk(['ls-remote', url('alice', 'deployed'), 'refs/heads/main'], { env: as })).stdout).toBe(before);

    // As sshd would run it for a push: refused before git starts, exit 1, nothing on stdout.
    const direct = await cli(['serv', `key-${ids.readOnly}`], { SSH_ORIGINAL_COMMAND: "git-receive-pack 'alice/deployed.git'" });
    expect(direct).toEqual({ code: 1, stdout: '', stderr: `RepoHost: Deploy Key: ${ids.readOnly}:read only is not authorized to write to alice/deployed.\n` });
  });

  it('a read-write deploy key pushes to its repository, and the push is recorded', async () => {
    const as = await through(keys.readWrite);
    const work = freshDir('rw');
    await gitOk(['clone', '-q', url('alice', 'deployed'), work], { env: as });
    const id = await commitFile(work, 'rw.txt', 'read write\n');
    await gitOk(['push', 'origin', 'main'], { cwd: work, env: as });
    const remote = (await gitOk(['ls-remote', url('alice', 'deployed'), 'refs/heads/main'], { env: await through(keys.readOnly) })).stdout;
    expect(remote.split('\t')[0]).toBe(id);
    await withHost(async (host) => {
      const access = await host.repos.resolve(SYSTEM, 'alice', 'deployed');
      expect(access.repo.is_empty).toBe(0);
      // Recorded as the built-in server records a deploy key's push: by the repository's owner.
      const [latest] = await host.repos.latestPushes(access, 1);
      expect(latest).toMatchObject({ pusher_id: access.owner.id, ref_name: 'refs/heads/main', new_commit_id: id });
      // No push is left half done for start-up to repair.
      expect(await host.repoStorage.pending()).toEqual([]);
    });
  });

  it('reaches no other repository, public or private, nor one that does not exist', async () => {
    for (const key of [keys.readOnly, keys.readWrite]) {
      const as = await through(key);
      for (const [owner, repo] of [['alice', 'other'], ['alice', 'public'], ['alice', 'missing'], ['bob', 'elsewhere']] as const) {
        const clone = await git(['clone', '-q', url(owner, repo), freshDir('nope')], { env: as });
        expect(clone.code, `${owner}/${repo}`).not.toBe(0);
        expect(clone.stderr).toContain(`RepoHost: Cannot find repository: ${owner}/${repo}`);
      }
    }
    // As sshd would run it: the same refusal and exit status as a user key gets for a repository it may not see.
    for (const service of ['git-upload-pack', 'git-receive-pack']) {
      const direct = await cli(['serv', `key-${ids.readWrite}`], { SSH_ORIGINAL_COMMAND: `${service} 'alice/public.git'` });
      expect(direct).toEqual({ code: 1, stdout: '', stderr: 'RepoHost: Cannot find repository: alice/public\n' });
    }
    const userKey = (await withHost((host) => host.keys.findByContent(keys.user.publicKey)))!;
    const asUser = await cli(['serv', `key-${userKey.id}`], { SSH_ORIGINAL_COMMAND: "git-upload-pack 'alice/other.git'" });
    expect(asUser).toEqual({ code: 1, stdout: '', stderr: 'RepoHost: Cannot find repository: alice/other\n' });
  });

  it('one key deploys two repositories with its mode on each', async () => {
    const as = await through(keys.shared);
    const deployed = freshDir('shared-deployed');
    await gitOk(['clone', '-q', url('alice', 'deployed'), deployed], { env: as });
    await commitFile(deployed, 'shared.txt', 'no\n');
    const refused = await git(['push', 'origin', 'main'], { cwd: deployed, env: as });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`RepoHost: Deploy Key: ${ids.shared}:shared ro is not authorized to write to alice/deployed.`);

    const other = freshDir('shared-other');
    await gitOk(['clone', '-q', url('alice', 'other'), other], { env: as });
    const id = await commitFile(other, 'shared.txt', 'yes\n');
    await gitOk(['push', 'origin', 'main'], { cwd: other, env: as });
    expect((await gitOk(['ls-remote', url('alice', 'other'), 'refs/heads/main'], { env: as })).stdout.split('\t')[0]).toBe(id);
  });

  it('greets a deploy key without a shell, and lets it in no more once it is deleted', async () => {
    const shell = await cli(['serv', `key-${ids.readOnly}`]);
    expect(shell.code).toBe(0);
    expect(shell.stdout).toBe('');
    expect(shell.stderr).toContain("Hi there! You've successfully authenticated with the deploy key named read only, but RepoHost does not provide shell access.");

    const as = await through(keys.readOnly);
    await withHost(async (host) => {
      const alice = (await host.users.findByName('alice'))!;
      const access = await host.repos.resolve(userActor(alice), 'alice', 'deployed');
      const listed = await host.keys.listDeployKeys(userActor(alice), access);
      await host.keys.deleteDeployKey(userActor(alice), access, listed.items.find((k) => k.name === 'read only')!.id);
    });
    // sshd asks again on the next connection: no line for the key now.
    const [type, content] = keys.readOnly.publicKey.split(' ') as [string, string];
    const again = await cli(['keys', '-e', 'git', '-u', 'git', '-t', type, '-k', content]);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    // A line written before the deletion (an authorized_keys file not yet rewritten) reaches nothing either.
    const clone = await git(['clone', '-q', url('alice', 'deployed'), freshDir('deleted')], { env: as });
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toContain(`RepoHost: Cannot find key: ${ids.readOnly}`);
  });
});
