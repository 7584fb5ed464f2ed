/**
 * Teams and git over HTTP, with the real git client: a team's members clone and push an organization's private
 * repository as the team's units allow, and lose it when the team, the membership or the repository goes.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';

interface GitResult {
  code: number;
  stderr: string;
}

interface Account {
  name: string;
  token: string;
  h: Record<string, string>;
}

describe('teams and git over HTTP', () => {
  let s: TestServer;
  let scratch: string;
  let gitEnv: NodeJS.ProcessEnv;
  let owner: Account;
  let org: string;
  let counter = 0;

  function git(args: string[], cwd?: string): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      execFile('git', args, { cwd: cwd ?? scratch, env: gitEnv, timeout: 60_000 }, (error, _stdout, stderr) => {
        if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr: String(stderr) });
      });
    });
  }

  function cloneUrl(repoPath: string, who?: Account): string {
    const auth = who ? `${encodeURIComponent(who.name)}:${encodeURIComponent(who.token)}@` : '';
    return `http://${auth}127.0.0.1:${new URL(s.url).port}/${repoPath}.git`;
  }

  async function account(prefix: string): Promise<Account> {
    const name = uniq(prefix);
    await createUser(s.host, name);
    const token = await createToken(s.host, name);
    return { name, token, h: tokenHeader(token) };
  }

  const call = (method: string, apiPath: string, who: Account, body?: unknown) =>
    s.fetch(`/api/v1${apiPath}`, body === undefined ? { method, headers: who.h } : jsonInit(method, body, who.h));

  async function team(body: Record<string, unknown>): Promise<number> {
    const res = await call('POST', `/orgs/${org}/teams`, owner, { name: uniq('t'), ...body });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await json(res)).id;
  }

  async function join(teamId: number, who: Account): Promise<void> {
    expect((await call('PUT', `/teams/${teamId}/members/${who.name}`, owner)).status).toBe(204);
  }

  async function cover(teamId: number, repo: string): Promise<void> {
    expect((await call('PUT', `/teams/${teamId}/repos/${org}/${repo}`, owner)).status).toBe(204);
  }

  /** Clones `org/repo` as `who`; the clone's folder, or undefined when git refused. */
  async function clone(repo: string, who: Account): Promise<string | undefined> {
    counter += 1;
    const dir = path.join(scratch, `clone-${counter}`);
    const result = await git(['clone', '-q', cloneUrl(`${org}/${repo}`, who), dir]);
    return result.code === 0 ? dir : undefined;
  }

  /** Commits a file in `dir` and pushes it; git's exit code. */
  async function push(dir: string): Promise<GitResult> {
    counter += 1;
    await writeFile(path.join(dir, `file-${counter}.txt`), `change ${counter}\n`);
    for (const args of [['add', '.'], ['commit', '-q', '-m', `change ${counter}`]]) expect((await git(args, dir)).code).toBe(0);
    return git(['push', '-q', 'origin', 'HEAD:main'], dir);
  }

  beforeAll(async () => {
    s = await startTestServer();
    scratch = await mkdtemp(path.join(tmpdir(), 'repohost-teams-git-'));
    const home = path.join(scratch, 'home');
    await mkdir(home);
    await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Team Tester\n\temail = team@example.com\n[init]\n\tdefaultBranch = main\n');
    gitEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
    owner = await account('own');
    org = uniq('org');
    expect((await call('POST', '/orgs', owner, { username: org })).status).toBe(201);
  });
  afterAll(async () => {
    await s?.cleanup();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  async function privateRepo(): Promise<string> {
    const name = uniq('r');
    const res = await call('POST', `/orgs/${org}/repos`, owner, { name, private: true, auto_init: true });
    expect(res.status, await res.clone().text()).toBe(201);
    return name;
  }

  test('read team: clone, no push; write team: push; leaving the team: nothing', async () => {
    const repo = await privateRepo();
    const reader = await account('rd');
    const writer = await account('wr');
    const stranger = await account('st');
    const readTeam = await team({ permission: 'read', units: ['repo.code'] });
    const writeTeam = await team({ permission: 'write', units: ['repo.code', 'repo.issues'] });
    await join(readTeam, reader);
    await join(writeTeam, writer);

    // Not yet covering the repository: neither sees it.
    expect(await clone(repo, reader)).toBeUndefined();
    await cover(readTeam, repo);
    await cover(writeTeam, repo);

    const readerDir = await clone(repo, reader);
    expect(readerDir).toBeDefined();
    const refused = await push(readerDir!);
    expect(refused.code).not.toBe(0);

    const writerDir = await clone(repo, writer);
    expect(writerDir).toBeDefined();
    const pushed = await push(writerDir!);
    expect(pushed.code, pushed.stderr).toBe(0);

    expect(await clone(repo, stranger)).toBeUndefined();

    // Removed from the team: the clone is refused again.
    expect((await call('DELETE', `/teams/${writeTeam}/members/${writer.name}`, owner)).status).toBe(204);
    expect(await clone(repo, writer)).toBeUndefined();
    // The repository leaves the read team: so does the reader's access.
    expect((await call('DELETE', `/teams/${readTeam}/repos/${org}/${repo}`, owner)).status).toBe(204);
    expect(await clone(repo, reader)).toBeUndefined();
  });

  test('units: a team without the code unit cannot clone; raising the team to write lets its members push', async () => {
    const repo = await privateRepo();
    const member = await account('m');
    const teamId = await team({ units_map: { 'repo.code': 'none', 'repo.issues': 'write' }, includes_all_repositories: true });
    await join(teamId, member);
    expect(await clone(repo, member)).toBeUndefined();

    expect((await call('PATCH', `/teams/${teamId}`, owner, { units_map: { 'repo.code': 'read' } })).status).toBe(200);
    const dir = await clone(repo, member);
    expect(dir).toBeDefined();
    expect((await push(dir!)).code).not.toBe(0);

    expect((await call('PATCH', `/teams/${teamId}`, owner, { permission: 'write', units: ['repo.code'] })).status).toBe(200);
    const pushed = await push(dir!);
    expect(pushed.code, pushed.stderr).toBe(0);

    // The team is deleted: its member leaves the organization and the repository with it.
    expect((await call('DELETE', `/teams/${teamId}`, owner)).status).toBe(204);
    expect(await clone(repo, member)).toBeUndefined();
  });
});
