/**
 * What the merge, update and scheduled-merge tests share (not a test file itself): a server with an owner, a
 * writer, a reader and a stranger; repositories with a clone to push from with the real git client; pull
 * requests opened and read through the API.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { PullRequestSchema, schemaErrors, type SettingsOverrides } from '@repohost/core';
import { createToken, createUser, jsonInit, PASSWORD, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';

export interface MergeWorld {
  s: TestServer;
  owner: string;
  h: Record<string, string>;
  writer: string;
  writerH: Record<string, string>;
  reader: string;
  readerH: Record<string, string>;
  stranger: string;
  strangerH: Record<string, string>;
  scratch: string;
  git(args: string[], cwd: string): Promise<string>;
  remote(full: string, user?: string): string;
  newRepo(options?: { private?: boolean; owner?: string; headers?: Record<string, string> }): Promise<{ full: string; clone: string }>;
  commit(clone: string, branch: string, files: Record<string, string>, options?: { from?: string; message?: string }): Promise<string>;
  tip(clone: string, branch: string): Promise<string>;
  openPull(full: string, head: string, base?: string, headers?: Record<string, string>, title?: string): Promise<number>;
  getPull(full: string, index: number): Promise<any>;
  merge(full: string, index: number, body: Record<string, unknown>, headers?: Record<string, string>): Promise<Response>;
  settings(full: string, changes: Record<string, unknown>): Promise<void>;
  collaborator(full: string, user: string, permission: 'read' | 'write'): Promise<void>;
  eventually(check: () => Promise<boolean>): Promise<void>;
  close(): Promise<void>;
}

export async function mergeWorld(overrides: SettingsOverrides = {}): Promise<MergeWorld> {
  const s = await startTestServer(overrides);
  const scratch = await mkdtemp(path.join(tmpdir(), 'repohost-merge-'));
  const account = async (prefix: string) => {
    const name = uniq(prefix);
    await createUser(s.host, name);
    return { name, headers: tokenHeader(await createToken(s.host, name)) };
  };
  const [o, w, r, x] = [await account('mo'), await account('mw'), await account('mr'), await account('ms')];

  const git = (args: string[], cwd: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const env = { PATH: process.env.PATH, HOME: scratch, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
      execFile('git', args, { cwd, env, timeout: 60_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr}`));
        else resolve(String(stdout).trim());
      });
    });

  const remote = (full: string, user = o.name) => `http://${user}:${PASSWORD}@${s.url.replace(/^http:\/\//, '')}${full}.git`;

  const world: MergeWorld = {
    s,
    owner: o.name,
    h: o.headers,
    writer: w.name,
    writerH: w.headers,
    reader: r.name,
    readerH: r.headers,
    stranger: x.name,
    strangerH: x.headers,
    scratch,
    git,
    remote,
    async newRepo(options = {}) {
      const name = uniq('pm');
      const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true, private: options.private ?? false }, options.headers ?? o.headers));
      expect(res.status).toBe(201);
      const full = `${options.owner ?? o.name}/${name}`;
      const clone = path.join(scratch, uniq('c'));
      await git(['clone', '-q', remote(full, options.owner ?? o.name), clone], scratch);
      await git(['config', 'user.name', 'Tester'], clone);
      await git(['config', 'user.email', 'tester@example.com'], clone);
      return { full, clone };
    },
    async commit(clone, branch, files, options = {}) {
      await git(['fetch', '-q', 'origin'], clone);
      const exists = (await git(['ls-remote', '--heads', 'origin', branch], clone)) !== '';
      await git(['checkout', '-q', '-B', branch, exists ? `origin/${branch}` : `origin/${options.from ?? 'main'}`], clone);
      for (const [file, content] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(clone, file)), { recursive: true });
        await writeFile(path.join(clone, file), content);
        await git(['add', file], clone);
      }
      await git(['commit', '-q', '-m', options.message ?? `change ${Object.keys(files).join(', ')}`], clone);
      await git(['push', '-q', 'origin', `${branch}:${branch}`], clone);
      return git(['rev-parse', 'HEAD'], clone);
    },
    async tip(clone, branch) {
      await git(['fetch', '-q', '--prune', 'origin'], clone);
      return git(['rev-parse', `origin/${branch}`], clone);
    },
    async openPull(full, head, base = 'main', headers = o.headers, title = `pull ${head}`) {
      const res = await s.fetch(`/api/v1/repos/${full}/pulls`, jsonInit('POST', { head, base, title, body: 'please merge' }, headers));
      expect(res.status, await res.clone().text()).toBe(201);
      return (await json(res)).number as number;
    },
    async getPull(full, index) {
      const res = await s.fetch(`/api/v1/repos/${full}/pulls/${index}`, { headers: o.headers });
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(schemaErrors(PullRequestSchema, body)).toEqual([]);
      return body;
    },
    merge(full, index, body, headers = o.headers) {
      return s.fetch(`/api/v1/repos/${full}/pulls/${index}/merge`, jsonInit('POST', body, headers));
    },
    async settings(full, changes) {
      const res = await s.fetch(`/api/v1/repos/${full}`, jsonInit('PATCH', changes, o.headers));
      expect(res.status, await res.clone().text()).toBe(200);
    },
    async collaborator(full, user, permission) {
      const res = await s.fetch(`/api/v1/repos/${full}/collaborators/${user}`, jsonInit('PUT', { permission }, o.headers));
      expect(res.status).toBe(204);
    },
    async eventually(check) {
      for (let i = 0; i < 100; i++) {
        if (await check()) return;
        await new Promise((done) => setTimeout(done, 50));
      }
      throw new Error('timed out');
    },
    async close() {
      await s?.cleanup();
      await rm(scratch, { recursive: true, force: true });
    },
  };
  return world;
}
