/**
 * The contents API checked with the real git client, in sha1 and sha256 repositories: a clone after a multi-file
 * change has exactly the tree, author, committer, dates and message the API reported; entries pushed with git
 * (symbolic links, submodules, executables, nested folders) read back as Forgejo shows them; an update keeps the
 * executable bit; and a large blob is described without its content.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, symlink, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentsResponseSchema, FilesResponseSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

let ts: TestServer;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let token: string;
let port: number;
let counter = 0;

function git(args: string[], cwd = scratch): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: gitEnv, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

async function gitOk(args: string[], cwd = scratch): Promise<string> {
  const result = await git(args, cwd);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}):\n${result.stderr}`);
  return result.stdout;
}

const cloneUrl = (full: string) => `http://alice:${token}@127.0.0.1:${port}/${full}.git`;
const fresh = (label: string) => path.join(scratch, `${label}-${++counter}`);
const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const jsonOf = (res: Response): Promise<any> => res.json();

async function createRepo(body: Record<string, unknown>): Promise<string> {
  const name = `r${++counter}`;
  const res = await ts.fetch('/api/v1/user/repos', jsonInit('POST', { name, ...body }, tokenHeader(token)));
  expect(res.status, await res.clone().text()).toBe(201);
  return `alice/${name}`;
}

beforeAll(async () => {
  ts = await startTestServer();
  port = Number(new URL(ts.url).port);
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-contents-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Git Tester\n\temail = tester@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  await createUser(ts.host, 'alice');
  token = await createToken(ts.host, 'alice');
});

afterAll(async () => {
  await ts?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe.each(['sha1', 'sha256'] as const)('%s', (format) => {
  it('a clone after POST /contents has exactly the reported tree, author, committer, dates and message', async () => {
    const full = await createRepo({ auto_init: true, object_format_name: format });
    const before = await jsonOf(await ts.fetch(`/api/v1/repos/${full}/contents/README.md`));
    const binary = Buffer.from([0, 159, 146, 150, 255, 10]);
    const res = await ts.fetch(
      `/api/v1/repos/${full}/contents`,
      jsonInit(
        'POST',
        {
          message: 'Several files\n\nwith a body',
          files: [
            { operation: 'create', path: 'src/main.ts', content: b64('export {};\n') },
            { operation: 'create', path: 'src/nested/data.bin', content: b64(binary) },
            { operation: 'create', path: 'ünïcødé name.txt', content: b64('utf-8 name\n') },
            { operation: 'delete', path: 'README.md', sha: before.sha },
          ],
          author: { name: 'Ann Author', email: 'ann@example.com' },
          committer: { name: 'Cy Committer', email: 'cy@example.com' },
          dates: { author: '2020-01-02T05:04:05+02:00', committer: '2021-02-03T04:05:06Z' },
        },
        tokenHeader(token),
      ),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const body = await jsonOf(res);
    expect(matchesSchema(FilesResponseSchema, body), schemaErrors(FilesResponseSchema, body).join('\n')).toBe(true);
    expect(body.files[3]).toBeNull();

    const work = fresh('clone');
    await gitOk(['clone', '-q', cloneUrl(full), work]);
    expect((await gitOk(['rev-parse', '--show-object-format'], work)).trim()).toBe(format);
    expect((await gitOk(['rev-parse', 'HEAD'], work)).trim()).toBe(body.commit.sha);
    expect((await gitOk(['rev-parse', 'HEAD^{tree}'], work)).trim()).toBe(body.commit.tree.sha);
    expect((await gitOk(['rev-parse', 'HEAD^'], work)).trim()).toBe(body.commit.parents[0].sha);
    const tree = (await gitOk(['-c', 'core.quotePath=false', 'ls-tree', '-r', 'HEAD'], work)).trim().split('\n');
    expect(tree.map((line) => line.split('\t')[1])).toEqual(['src/main.ts', 'src/nested/data.bin', 'ünïcødé name.txt']);
    for (const [i, line] of [body.files[0], body.files[1], body.files[2]].entries()) expect(tree[i]).toBe(`100644 blob ${line.sha}\t${line.path}`);
    const log = await gitOk(['log', '-1', '--format=%an|%ae|%aI|%cn|%ce|%cI%n%B'], work);
    expect(log).toBe('Ann Author|ann@example.com|2020-01-02T05:04:05+02:00|Cy Committer|cy@example.com|2021-02-03T04:05:06+00:00\nSeveral files\n\nwith a body\n\n');
    expect(body.commit.message).toBe('Several files\n\nwith a body\n');
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(path.join(work, 'src/nested/data.bin'))).toEqual(binary);
    expect((await gitOk(['fsck', '--strict'], work)).trim()).toBe('');
  });

  it('entries pushed with git read back as Forgejo shows them: symlink, submodule, executable, large file', async () => {
    const full = await createRepo({ object_format_name: format });
    const work = fresh('push');
    await gitOk(['init', '-q', `--object-format=${format}`, work]);
    await mkdir(path.join(work, 'dir'));
    await writeFile(path.join(work, 'dir', 'run.sh'), '#!/bin/sh\necho hi\n');
    await chmod(path.join(work, 'dir', 'run.sh'), 0o755);
    await symlink('dir/run.sh', path.join(work, 'link'));
    await writeFile(path.join(work, 'big.bin'), Buffer.alloc(2048, 7));
    await writeFile(path.join(work, '.gitmodules'), '[submodule "lib"]\n\tpath = lib\n\turl = https://example.com/lib.git\n');
    await gitOk(['add', '.'], work);
    const fakeCommit = format === 'sha1' ? '1'.repeat(40) : '1'.repeat(64);
    await gitOk(['update-index', '--add', '--cacheinfo', `160000,${fakeCommit},lib`], work);
    await gitOk(['commit', '-q', '-m', 'pushed'], work);
    await gitOk(['push', '-q', cloneUrl(full), 'main'], work);
    const head = (await gitOk(['rev-parse', 'HEAD'], work)).trim();

    const root = await jsonOf(await ts.fetch(`/api/v1/repos/${full}/contents`));
    for (const entry of root) expect(matchesSchema(ContentsResponseSchema, entry), schemaErrors(ContentsResponseSchema, entry).join('\n')).toBe(true);
    const byName = Object.fromEntries(root.map((e: { name: string }) => [e.name, e]));
    expect(Object.keys(byName)).toEqual(['.gitmodules', 'big.bin', 'dir', 'lib', 'link']);
    expect(byName.link).toMatchObject({ type: 'symlink', target: 'dir/run.sh', content: null, size: 10, last_commit_sha: head });
    expect(byName.link.download_url).toBe(`${ts.url}${full}/raw/branch/main/link`);
    expect(byName.lib).toMatchObject({
      type: 'submodule',
      submodule_git_url: 'https://example.com/lib.git',
      sha: fakeCommit,
      html_url: null,
      git_url: null,
      download_url: null,
      _links: { self: `${ts.url}api/v1/repos/${full}/contents/lib?ref=main`, git: null, html: null },
    });
    expect(byName.dir).toMatchObject({ type: 'dir', size: 0 });

    const script = await jsonOf(await ts.fetch(`/api/v1/repos/${full}/contents/dir/run.sh`));
    expect(script.type).toBe('file');
    // An update keeps the executable bit, as Forgejo does.
    const res = await ts.fetch(`/api/v1/repos/${full}/contents/dir/run.sh`, jsonInit('PUT', { content: b64('#!/bin/sh\necho bye\n'), sha: script.sha }, tokenHeader(token)));
    expect(res.status, await res.clone().text()).toBe(200);
    await gitOk(['pull', '-q', cloneUrl(full), 'main'], work);
    expect((await gitOk(['ls-tree', 'HEAD', 'dir/run.sh'], work)).startsWith('100755 blob ')).toBe(true);
    expect((await gitOk(['log', '-1', '--format=%s'], work)).trim()).toBe('Update dir/run.sh');
  });
});

it('a blob above [api] DEFAULT_MAX_BLOB_SIZE is described with an empty content', async () => {
  const small = await startTestServer({ api: { DEFAULT_MAX_BLOB_SIZE: 100 } });
  try {
    await createUser(small.host, 'carol');
    const carol = tokenHeader(await createToken(small.host, 'carol'));
    expect((await small.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'big' }, carol))).status).toBe(201);
    const made = await small.fetch('/api/v1/repos/carol/big/contents/big.txt', jsonInit('POST', { content: b64('x'.repeat(500)) }, carol));
    expect(made.status).toBe(201);
    expect((await jsonOf(made)).content).toMatchObject({ size: 500, content: '', encoding: 'base64' });
    const read = await jsonOf(await small.fetch('/api/v1/repos/carol/big/contents/big.txt'));
    expect(read).toMatchObject({ size: 500, content: '', encoding: 'base64' });
  } finally {
    await small.cleanup();
  }
});
