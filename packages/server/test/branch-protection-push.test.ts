/**
 * Branch protection enforced on `git push` with the real client, over HTTP and SSH: the pre-receive hook hands
 * the push to the server, which refuses with Forgejo's messages (seen by the client as `remote: …`), and the refs
 * do not move. Covered: push closed or whitelisted, force pushes, deletions, protected and unprotected files,
 * unsigned commits, glob rules on new branches, a refused update taking the whole push with it, concurrent pushes
 * judged each for its own pusher, and a repository without rules left alone.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { userActor } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';

interface Account {
  name: string;
  token: string;
  h: Record<string, string>;
}

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

let s: TestServer;
let owner: Account;
let writer: Account;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let counter = 0;

function run(file: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { ...gitEnv, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

const git = (args: string[], cwd: string, env?: Record<string, string>) => run('git', args, cwd, env);

async function gitOk(args: string[], cwd: string): Promise<string> {
  const result = await git(args, cwd);
  expect(result.code, `git ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result.stdout.trim();
}

async function account(prefix: string): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name);
  const token = await createToken(s.host, name);
  return { name, token, h: tokenHeader(token) };
}

const call = (method: string, apiPath: string, who: Account, body?: unknown) =>
  s.fetch(`/api/v1${apiPath}`, body === undefined ? { method, headers: who.h } : jsonInit(method, body, who.h));

function cloneUrl(full: string, who: Account): string {
  return `http://${encodeURIComponent(who.name)}:${encodeURIComponent(who.token)}@127.0.0.1:${new URL(s.url).port}/${full}.git`;
}

/** A repository of the owner with a first commit; the writer is a collaborator with write. */
async function repo(): Promise<string> {
  const name = uniq('r');
  const res = await call('POST', '/user/repos', owner, { name, auto_init: true });
  expect(res.status, await res.clone().text()).toBe(201);
  const full = `${owner.name}/${name}`;
  expect((await call('PUT', `/repos/${full}/collaborators/${writer.name}`, owner, { permission: 'write' })).status).toBe(204);
  return full;
}

async function protect(full: string, body: Record<string, unknown>): Promise<void> {
  const res = await call('POST', `/repos/${full}/branch_protections`, owner, body);
  expect(res.status, await res.clone().text()).toBe(201);
}

async function clone(full: string, who: Account): Promise<string> {
  const dir = path.join(scratch, `clone-${++counter}`);
  await gitOk(['clone', '-q', cloneUrl(full, who), dir], scratch);
  return dir;
}

async function commit(dir: string, file = `file-${++counter}.txt`, content = `change ${counter}\n`): Promise<string> {
  await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
  await writeFile(path.join(dir, file), content);
  await gitOk(['add', '--', file], dir);
  await gitOk(['commit', '-q', '-m', `change ${file}`], dir);
  return gitOk(['rev-parse', 'HEAD'], dir);
}

/** Where the server's branch is now (undefined: absent). */
async function serverRef(full: string, ref: string): Promise<string | undefined> {
  const [o, n] = full.split('/');
  const refs = await s.host.git.readRefs({ owner: o!, name: n! }, [ref]);
  return refs.get(ref);
}

function expectRefused(result: Result, message: string): void {
  expect(result.code, result.stderr).not.toBe(0);
  expect(result.stderr).toContain(`remote: ${message}`);
  expect(result.stderr).toContain('pre-receive hook declined');
}

beforeAll(async () => {
  s = await startTestServer({ server: { START_SSH_SERVER: true, SSH_LISTEN_HOST: '127.0.0.1', SSH_LISTEN_PORT: 0 } });
  [owner, writer] = await Promise.all([account('own'), account('wr')]);
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-protect-push-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Push Tester\n\temail = push@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
});
afterAll(async () => {
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('pushes to protected branches over HTTP', () => {
  test('push closed: everyone is refused and the branch stays; whitelisted: only the whitelist gets in', async () => {
    const full = await repo();
    await protect(full, { rule_name: 'main', enable_push: false });
    const before = await serverRef(full, 'refs/heads/main');
    const dir = await clone(full, writer);
    await commit(dir);
    expectRefused(await git(['push', 'origin', 'HEAD:main'], dir), 'Not allowed to push to protected branch main');
    const ownerDir = await clone(full, owner);
    await commit(ownerDir);
    expectRefused(await git(['push', 'origin', 'HEAD:main'], ownerDir), 'Not allowed to push to protected branch main');
    expect(await serverRef(full, 'refs/heads/main')).toBe(before);

    expect((await call('PATCH', `/repos/${full}/branch_protections/main`, owner, { enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [owner.name] })).status).toBe(200);
    expectRefused(await git(['push', 'origin', 'HEAD:main'], dir), 'Not allowed to push to protected branch main');
    const pushed = await git(['push', 'origin', 'HEAD:main'], ownerDir);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(await serverRef(full, 'refs/heads/main')).toBe(await gitOk(['rev-parse', 'HEAD'], ownerDir));
    // The accepted push was recorded as any push is.
    const branch = await json(await call('GET', `/repos/${full}/branches/main`, owner));
    expect(branch.commit.id).toBe(await gitOk(['rev-parse', 'HEAD'], ownerDir));
  });

  test('force pushes and deletions are refused even to those who may push', async () => {
    const full = await repo();
    const dir = await clone(full, owner);
    await commit(dir);
    await gitOk(['push', '-q', 'origin', 'HEAD:main', 'HEAD:refs/heads/stable'], dir);
    await protect(full, { rule_name: 'stable', enable_push: true });
    await protect(full, { rule_name: 'main', enable_push: true });
    const tip = await serverRef(full, 'refs/heads/main');
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], dir);
    await commit(dir);
    expectRefused(await git(['push', '--force', 'origin', 'HEAD:main'], dir), 'branch main is protected from force push');
    expect(await serverRef(full, 'refs/heads/main')).toBe(tip);
    expectRefused(await git(['push', 'origin', ':stable'], dir), 'branch stable is protected from deletion');
    expect(await serverRef(full, 'refs/heads/stable')).toBe(tip);
    // The default branch keeps its own, earlier refusal.
    expect((await git(['push', 'origin', ':main'], dir)).stderr).toContain('remote: branch main is the default branch and cannot be deleted');
  });

  test('protected files refuse even whitelisted pushers; unprotected files let anyone with write in', async () => {
    const full = await repo();
    await protect(full, {
      rule_name: 'main',
      enable_push: true,
      enable_push_whitelist: true,
      push_whitelist_usernames: [owner.name],
      protected_file_patterns: '*.lock;ci/**',
      unprotected_file_patterns: 'docs/**',
    });
    const ownerDir = await clone(full, owner);
    await commit(ownerDir, 'yarn.lock');
    expectRefused(await git(['push', 'origin', 'HEAD:main'], ownerDir), 'branch main is protected from changing file yarn.lock');
    await gitOk(['reset', '-q', '--hard', 'origin/main'], ownerDir);
    await commit(ownerDir, 'src/app.ts');
    expect((await git(['push', 'origin', 'HEAD:main'], ownerDir)).code).toBe(0);

    const dir = await clone(full, writer);
    await commit(dir, 'docs/guide.md');
    const docs = await git(['push', 'origin', 'HEAD:main'], dir);
    expect(docs.code, docs.stderr).toBe(0);
    await commit(dir, 'src/other.ts');
    expectRefused(await git(['push', 'origin', 'HEAD:main'], dir), 'Not allowed to push to protected branch main');
    expect(await serverRef(full, 'refs/heads/main')).not.toBe(await gitOk(['rev-parse', 'HEAD'], dir));
  });

  test('require_signed_commits refuses an unsigned commit, naming it', async () => {
    const full = await repo();
    await protect(full, { rule_name: 'main', enable_push: true, require_signed_commits: true });
    const dir = await clone(full, owner);
    const id = await commit(dir);
    expectRefused(await git(['push', 'origin', 'HEAD:main'], dir), `branch main is protected from unverified commit ${id}`);
  });

  test('require_signed_commits lets in commits signed with a verified key of the committer, read from the quarantine', async () => {
    const full = await repo();
    await protect(full, { rule_name: 'main', enable_push: true, require_signed_commits: true });
    const keyFile = path.join(scratch, `signing-${++counter}`);
    expect((await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'signer@example.com', '-f', keyFile], scratch)).code).toBe(0);
    const created = await call('POST', '/user/keys', owner, { title: 'signing', key: (await readFile(`${keyFile}.pub`, 'utf8')).trim() });
    expect(created.status, await created.clone().text()).toBe(201);
    const user = await userNamed(s.host, owner.name);
    const tokenFile = path.join(scratch, `token-${counter}`);
    await writeFile(tokenFile, s.host.keys.verificationToken(user));
    expect((await run('ssh-keygen', ['-Y', 'sign', '-f', keyFile, '-n', 'gitea', tokenFile], scratch)).code).toBe(0);
    const signature = await readFile(`${tokenFile}.sig`, 'utf8');
    expect((await s.host.keys.verify(userActor(user), user, (await json(created)).id, signature)).verified).toBe(1);

    const dir = await clone(full, owner);
    const signing = ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${keyFile}`, '-c', `user.email=${user.email}`];
    for (const i of [1, 2]) {
      await writeFile(path.join(dir, `signed-${i}.txt`), `${i}\n`);
      await gitOk(['add', '-A'], dir);
      await gitOk([...signing, 'commit', '-q', '-S', '-m', `signed ${i}`], dir);
    }
    const pushed = await git(['push', 'origin', 'HEAD:main'], dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(await serverRef(full, 'refs/heads/main')).toBe(await gitOk(['rev-parse', 'HEAD'], dir));
    // Only the commits the push brings are checked: an unsigned one on top is named.
    const unsigned = await commit(dir);
    expectRefused(await git(['push', 'origin', 'HEAD:main'], dir), `branch main is protected from unverified commit ${unsigned}`);
  });

  test('a glob rule covers branches that do not exist yet; one refused update refuses the whole push', async () => {
    const full = await repo();
    await protect(full, { rule_name: 'release/*', enable_push: false });
    const dir = await clone(full, writer);
    const id = await commit(dir);
    const result = await git(['push', 'origin', 'HEAD:refs/heads/feature/x', 'HEAD:refs/heads/release/1.0'], dir);
    expectRefused(result, 'Not allowed to push to protected branch release/1.0');
    expect(await serverRef(full, 'refs/heads/release/1.0')).toBeUndefined();
    expect(await serverRef(full, 'refs/heads/feature/x')).toBeUndefined();
    // `*` stays inside a segment: release/1.0/hotfix is not covered.
    expect((await git(['push', 'origin', 'HEAD:refs/heads/release/1.0/hotfix', 'HEAD:refs/heads/feature/x'], dir)).code).toBe(0);
    expect(await serverRef(full, 'refs/heads/feature/x')).toBe(id);
  });

  test('an exact rule wins over a glob: the exact rule may open what the glob closes', async () => {
    const full = await repo();
    await protect(full, { rule_name: 'rel*', enable_push: false });
    await protect(full, { rule_name: 'release', enable_push: true });
    const dir = await clone(full, writer);
    await commit(dir);
    expect((await git(['push', 'origin', 'HEAD:refs/heads/release'], dir)).code).toBe(0);
    expectRefused(await git(['push', 'origin', 'HEAD:refs/heads/relx'], dir), 'Not allowed to push to protected branch relx');
  });

  test('concurrent pushes are judged each for its own pusher', async () => {
    const full = await repo();
    await protect(full, { rule_name: 'wl-*', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [owner.name] });
    const [ownerDir, writerDir] = await Promise.all([clone(full, owner), clone(full, writer)]);
    await commit(ownerDir);
    await commit(writerDir);
    const [mine, theirs] = await Promise.all([git(['push', 'origin', 'HEAD:refs/heads/wl-owner'], ownerDir), git(['push', 'origin', 'HEAD:refs/heads/wl-writer'], writerDir)]);
    expect(mine.code, mine.stderr).toBe(0);
    expectRefused(theirs, 'Not allowed to push to protected branch wl-writer');
  });

  test('a repository without rules: pushes are not checked by the server at all', async () => {
    const full = await repo();
    const { id } = await json(await call('GET', `/repos/${full}`, owner));
    expect(await s.host.protection.hasRules(id)).toBe(false);
    const dir = await clone(full, writer);
    await commit(dir);
    const result = await git(['push', 'origin', 'HEAD:main'], dir);
    expect(result.code, result.stderr).toBe(0);
    const hook = await readFile(path.join(s.host.settings.repository.ROOT, '.hooks', 'pre-receive'), 'utf8');
    // The hook asks the server only when told to (REPOHOST_HOOK_ENDPOINT), which a push without rules never is.
    expect(hook).toContain('if [ -n "$REPOHOST_HOOK_ENDPOINT" ]');
  });
});

describe('pushes to protected branches over SSH', () => {
  test('the same refusal reaches an SSH client, and the branch stays', async () => {
    const full = await repo();
    await protect(full, { rule_name: 'main', enable_push: false });
    const keyFile = path.join(scratch, `key-${++counter}`);
    const made = await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'writer@example.com', '-f', keyFile], scratch);
    expect(made.code, made.stderr).toBe(0);
    const publicKey = (await readFile(`${keyFile}.pub`, 'utf8')).trim();
    const res = await call('POST', '/user/keys', writer, { title: 'laptop', key: publicKey });
    expect(res.status, await res.clone().text()).toBe(201);
    const port = s.host.settings.server.SSH_PORT;
    const ssh = {
      GIT_SSH_COMMAND: `ssh -F /dev/null -i ${keyFile} -p ${port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR`,
    };
    const dir = await clone(full, writer);
    await gitOk(['remote', 'set-url', 'origin', `ssh://git@127.0.0.1:${port}/${full}.git`], dir);
    const before = await serverRef(full, 'refs/heads/main');
    await commit(dir);
    expectRefused(await git(['push', 'origin', 'HEAD:main'], dir, ssh), 'Not allowed to push to protected branch main');
    expect(await serverRef(full, 'refs/heads/main')).toBe(before);
    const other = await git(['push', 'origin', 'HEAD:refs/heads/side'], dir, ssh);
    expect(other.code, other.stderr).toBe(0);
  });

  test('a deploy key is judged as a key: refused past a whitelist unless the rule lets deploy keys in', async () => {
    const full = await repo();
    await protect(full, { rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [owner.name] });
    const keyFile = path.join(scratch, `deploy-${++counter}`);
    expect((await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'deploy@example.com', '-f', keyFile], scratch)).code).toBe(0);
    const publicKey = (await readFile(`${keyFile}.pub`, 'utf8')).trim();
    const res = await call('POST', `/repos/${full}/keys`, owner, { title: 'ci', key: publicKey, read_only: false });
    expect(res.status, await res.clone().text()).toBe(201);
    const port = s.host.settings.server.SSH_PORT;
    const ssh = {
      GIT_SSH_COMMAND: `ssh -F /dev/null -i ${keyFile} -p ${port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR`,
    };
    const dir = await clone(full, owner);
    await gitOk(['remote', 'set-url', 'origin', `ssh://git@127.0.0.1:${port}/${full}.git`], dir);
    await commit(dir);
    // The key pushes as the owner, who is whitelisted; the key itself is not.
    expectRefused(await git(['push', 'origin', 'HEAD:main'], dir, ssh), 'Not allowed to push to protected branch main');
    const edited = await call('PATCH', `/repos/${full}/branch_protections/main`, owner, { enable_push: true, enable_push_whitelist: true, push_whitelist_deploy_keys: true });
    expect((await json(edited)).push_whitelist_deploy_keys).toBe(true);
    const pushed = await git(['push', 'origin', 'HEAD:main'], dir, ssh);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(await serverRef(full, 'refs/heads/main')).toBe(await gitOk(['rev-parse', 'HEAD'], dir));
  });
});
