/**
 * Deploy keys end to end: keys made by `ssh-keygen`, added through the API, used by the real `ssh` and `git`
 * clients against the built-in SSH server. A read-only deploy key clones and fetches its repository only; a
 * read-write one pushes too; neither reaches any other repository, public or private.
 */
import { execFile } from 'node:child_process';
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

function exec(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { cwd: options.cwd ?? scratch, env: options.env ?? gitEnv, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end();
  });
}

const freshDir = (label: string) => path.join(scratch, `${label}-${++counter}`);

function git(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Result> {
  return exec('git', args, { cwd: options.cwd, env: { ...gitEnv, ...options.env } });
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

interface KeyPair {
  file: string;
  line: string;
}

async function keygen(label: string): Promise<KeyPair> {
  const file = path.join(scratch, 'keys', label);
  await mkdir(path.dirname(file), { recursive: true });
  const made = await exec('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `${label}@ci`, '-f', file]);
  expect(made.code, made.stderr).toBe(0);
  return { file, line: (await readFile(`${file}.pub`, 'utf8')).trim() };
}

function sshCommand(key: KeyPair, port: number): string {
  return `ssh -F /dev/null -i ${key.file} -p ${port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR`;
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-deploy-keys-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Deployer\n\temail = deployer@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('deploy keys over SSH', () => {
  let ts: TestServer;
  let port: number;
  let auth: Record<string, string>;
  const keys: Record<'readOnly' | 'readWrite' | 'shared', KeyPair> = {} as never;
  const as = (key: KeyPair) => ({ GIT_SSH_COMMAND: sshCommand(key, port) });
  const url = (repo: string) => `git@127.0.0.1:alice/${repo}.git`;

  async function addDeployKey(repo: string, title: string, key: KeyPair, readOnly: boolean): Promise<{ id: number }> {
    const res = await ts.fetch(`/api/v1/repos/alice/${repo}/keys`, jsonInit('POST', { title, key: key.line, read_only: readOnly }, auth));
    const body = (await res.json()) as { id: number };
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body;
  }

  beforeAll(async () => {
    ts = await startTestServer({ server: { START_SSH_SERVER: true, SSH_LISTEN_HOST: '127.0.0.1', SSH_LISTEN_PORT: 0 } });
    port = ts.host.settings.server.SSH_PORT;
    const alice = await createUser(ts.host, 'alice');
    auth = tokenHeader(await createToken(ts.host, 'alice'));
    for (const [name, isPrivate] of [['deployed', true], ['other', true], ['public', false]] as const) {
      await ts.host.repos.create(userActor(alice), { name, auto_init: true, private: isPrivate });
    }
    [keys.readOnly, keys.readWrite, keys.shared] = await Promise.all([keygen('ro'), keygen('rw'), keygen('shared')]);
    await addDeployKey('deployed', 'read only', keys.readOnly, true);
    await addDeployKey('deployed', 'read write', keys.readWrite, false);
    await addDeployKey('deployed', 'shared ro', keys.shared, true);
    await addDeployKey('other', 'shared rw', keys.shared, false);
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it('a read-only key clones and fetches its repository, but may not push to it', async () => {
    const work = freshDir('ro');
    await gitOk(['clone', '-q', url('deployed'), work], { env: as(keys.readOnly) });
    expect(await readFile(path.join(work, 'README.md'), 'utf8')).toContain('deployed');
    await gitOk(['fetch', '-q', 'origin'], { cwd: work, env: as(keys.readOnly) });
    const before = (await gitOk(['ls-remote', url('deployed'), 'refs/heads/main'], { env: as(keys.readOnly) })).stdout;
    await commitFile(work, 'ro.txt', 'read only\n');
    const push = await git(['push', 'origin', 'main'], { cwd: work, env: as(keys.readOnly) });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/RepoHost: Deploy Key: \d+:read only is not authorized to write to alice\/deployed\./);
    expect((await gitOk(['ls-remote', url('deployed'), 'refs/heads/main'], { env: as(keys.readOnly) })).stdout).toBe(before);
  });

  it('a read-write key pushes to its repository, and the push is recorded', async () => {
    const work = freshDir('rw');
    await gitOk(['clone', '-q', url('deployed'), work], { env: as(keys.readWrite) });
    const id = await commitFile(work, 'rw.txt', 'read write\n');
    await gitOk(['push', 'origin', 'main'], { cwd: work, env: as(keys.readWrite) });
    const remote = (await gitOk(['ls-remote', url('deployed'), 'refs/heads/main'], { env: as(keys.readOnly) })).stdout;
    expect(remote.split('\t')[0]).toBe(id);
    const repo = (await (await ts.fetch('/api/v1/repos/alice/deployed', { headers: auth })).json()) as { empty: boolean };
    expect(repo.empty).toBe(false);
    expect(await ts.host.repoStorage.pending()).toEqual([]);
  });

  it('reaches no other repository, public or private, nor one that does not exist', async () => {
    for (const key of [keys.readOnly, keys.readWrite]) {
      for (const repo of ['other', 'public', 'missing']) {
        const clone = await git(['clone', '-q', url(repo), freshDir('nope')], { env: as(key) });
        expect(clone.code).not.toBe(0);
        expect(clone.stderr).toContain(`RepoHost: Cannot find repository: alice/${repo}`);
      }
    }
  });

  it('one key deploys two repositories with its mode on each', async () => {
    const deployed = freshDir('shared-deployed');
    await gitOk(['clone', '-q', url('deployed'), deployed], { env: as(keys.shared) });
    await commitFile(deployed, 'shared.txt', 'no\n');
    const refused = await git(['push', 'origin', 'main'], { cwd: deployed, env: as(keys.shared) });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('is not authorized to write to alice/deployed');

    const other = freshDir('shared-other');
    await gitOk(['clone', '-q', url('other'), other], { env: as(keys.shared) });
    const id = await commitFile(other, 'shared.txt', 'yes\n');
    await gitOk(['push', 'origin', 'main'], { cwd: other, env: as(keys.shared) });
    expect((await gitOk(['ls-remote', url('other'), 'refs/heads/main'], { env: as(keys.shared) })).stdout.split('\t')[0]).toBe(id);
  });

  it('greets a deploy key without a shell, and refuses it once the key is deleted', async () => {
    const greeting = await exec('ssh', [...sshCommand(keys.readOnly, port).split(' ').slice(1), 'git@127.0.0.1']);
    expect(greeting.stderr).toContain("You've successfully authenticated with the deploy key named read only, but RepoHost does not provide shell access.");

    const listed = (await (await ts.fetch('/api/v1/repos/alice/deployed/keys', { headers: auth })).json()) as { id: number; title: string }[];
    const readOnly = listed.find((k) => k.title === 'read only')!;
    expect((await ts.fetch(`/api/v1/repos/alice/deployed/keys/${readOnly.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    const clone = await git(['clone', '-q', url('deployed'), freshDir('deleted')], { env: as(keys.readOnly) });
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toContain('Permission denied (publickey)');
  });
});
