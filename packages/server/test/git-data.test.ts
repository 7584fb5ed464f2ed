/**
 * Git data endpoints over real git, sha1 and sha256: `/git/blobs`, `/git/trees`, `/git/refs`, `/git/tags`,
 * `/raw`, `/media`, `/editorconfig`. Repositories are filled by pushing with the `git` client; answers are checked
 * against what `git` itself says of the same objects.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  AnnotatedTagSchema,
  GitBlobResponseSchema,
  GitTreeResponseSchema,
  NoteSchema,
  ReferenceSchema,
  matchesSchema,
  userActor,
  type User,
} from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

let s: TestServer;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let alice: User;
let bob: User;
let aliceToken: string;
let bobToken: string;
let h: Record<string, string>;

function run(args: string[], cwd = scratch, input?: Buffer): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', args, { cwd, env: gitEnv, maxBuffer: 64 * 1024 * 1024, timeout: 60_000, encoding: 'buffer' }, (error, stdout, stderr) => {
      if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr: String(stderr) });
    });
    if (input) child.stdin?.end(input);
  });
}

async function git(args: string[], cwd = scratch): Promise<string> {
  const result = await run(args, cwd);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}):\n${result.stderr}`);
  return result.stdout.toString('utf8').trim();
}

interface Fixture {
  full: string;
  base: string;
  work: string;
  head: string;
  tagId: string;
  notesCommit: string;
}

const BIG = 'b'.repeat(200_000);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

/** A repository with files of every kind, a branch with a slash, a lightweight and an annotated tag. */
async function fixture(format: 'sha1' | 'sha256', isPrivate = false): Promise<Fixture> {
  const name = uniq(`data-${format}`);
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, object_format_name: format, private: isPrivate }, h));
  expect(res.status).toBe(201);
  const full = `${alice.name}/${name}`;
  const work = path.join(scratch, uniq('work'));
  await git(['init', '-q', `--object-format=${format}`, '-b', 'main', work]);
  await mkdir(path.join(work, 'src/lib'), { recursive: true });
  await writeFile(path.join(work, 'README.md'), '# hello\n');
  await writeFile(path.join(work, 'src/main.ts'), 'export const x = 1;\n');
  await writeFile(path.join(work, 'src/lib/util.ts'), 'export {};\n');
  await writeFile(path.join(work, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
  await writeFile(path.join(work, 'big.txt'), BIG);
  await writeFile(path.join(work, 'image.png'), PNG);
  await writeFile(path.join(work, 'logo.svg'), '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>\n');
  await writeFile(path.join(work, 'naïve file.txt'), 'unicode name\n');
  await writeFile(path.join(work, '.editorconfig'), 'root = true\n\n[*]\nindent_style = space\nindent_size = 2\nend_of_line = LF\n\n[*.go]\nindent_style = tab\n\n[{Makefile,*.mk}]\nindent_style = tab\ntab_width = 8\n\n[src/**.ts]\nindent_size = 4\ncharset = utf-8\n');
  await symlink('README.md', path.join(work, 'link'));
  await git(['add', '-A'], work);
  await git(['commit', '-q', '-m', 'first'], work);
  await git(['branch', 'feature/x'], work);
  await git(['tag', 'light'], work);
  await git(['tag', '-a', 'v1.0', '-m', 'release one'], work);
  await git(['notes', 'add', '-m', 'a note on the first commit', 'HEAD'], work);
  const url = `${s.url.replace('http://', `http://${alice.name}:${aliceToken}@`)}${full}.git`;
  await git(['push', '-q', url, 'main', 'feature/x', 'light', 'v1.0', 'refs/notes/commits'], work);
  const head = await git(['rev-parse', 'HEAD'], work);
  const tagId = await git(['rev-parse', 'v1.0'], work);
  const notesCommit = await git(['rev-parse', 'refs/notes/commits'], work);
  return { full, base: `${s.url}api/v1/repos/${full}`, work, head, tagId, notesCommit };
}

beforeAll(async () => {
  s = await startTestServer();
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-git-data-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Tester\n\temail = tester@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_COMMITTER_DATE: '1700000000 +0130', GIT_AUTHOR_DATE: '1700000000 +0130' };
  alice = await createUser(s.host, uniq('alice'));
  bob = await createUser(s.host, uniq('bob'));
  aliceToken = await createToken(s.host, alice.name);
  bobToken = await createToken(s.host, bob.name);
  h = tokenHeader(aliceToken);
});
afterAll(async () => {
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe.each(['sha1', 'sha256'] as const)('git data (%s)', (format) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture(format);
  });

  test('blobs: base64 content, full sha, size; unknown, abbreviated or not hex 400 as Forgejo answers', async () => {
    const id = await git(['rev-parse', 'HEAD:README.md'], f.work);
    const res = await s.fetch(`/api/v1/repos/${f.full}/git/blobs/${id}`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(matchesSchema(GitBlobResponseSchema, body)).toBe(true);
    expect(body).toEqual({ content: Buffer.from('# hello\n').toString('base64'), encoding: 'base64', sha: id, size: 8, url: `${f.base}/git/blobs/${id}` });
    // An upper-case id is the same id; an abbreviated one is not a full id (Forgejo reads full ids only).
    expect((await json(await s.fetch(`/api/v1/repos/${f.full}/git/blobs/${id.toUpperCase()}`))).sha).toBe(id);
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/blobs/${id.slice(0, 10)}`), 400, s.url)).toBe(
      `length 10 has no matched object format: ${id.slice(0, 10)}`,
    );
    const png = await json(await s.fetch(`/api/v1/repos/${f.full}/git/blobs/${await git(['rev-parse', 'HEAD:image.png'], f.work)}`));
    expect(Buffer.from(png.content, 'base64').equals(PNG)).toBe(true);
    const unknown = 'e'.repeat(id.length);
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/blobs/${unknown}`), 400, s.url)).toBe(`object does not exist [id: ${unknown}, rel_path: ]`);
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/blobs/not-hex`), 400, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/blobs/${'g'.repeat(id.length)}`), 400, s.url);
    // A tree is not a blob.
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/blobs/${await git(['rev-parse', 'HEAD^{tree}'], f.work)}`), 400, s.url);
  });

  test('trees: entries as git lists them, recursive, paged', async () => {
    const treeId = await git(['rev-parse', 'HEAD^{tree}'], f.work);
    const res = await s.fetch(`/api/v1/repos/${f.full}/git/trees/${f.head}`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(matchesSchema(GitTreeResponseSchema, body)).toBe(true);
    expect(body.sha).toBe(treeId);
    expect(body.url).toBe(`${f.base}/git/trees/${treeId}`);
    expect(body.page).toBe(1);
    expect(body.truncated).toBe(false);
    const listed = (await git(['ls-tree', '-l', 'HEAD'], f.work)).split('\n').map((line) => {
      const [meta, name] = line.split('\t') as [string, string];
      const [mode, type, sha, size] = meta.split(/ +/) as [string, string, string, string];
      return { mode, type, sha, size: size === '-' ? 0 : Number(size), path: name.replace(/^"|"$/g, '') };
    });
    expect(body.total_count).toBe(listed.length);
    for (const entry of listed) {
      const got = body.tree.find((e: { sha: string; path: string }) => e.sha === entry.sha && (e.path === entry.path || entry.path.includes('\\')));
      expect(got, entry.path).toMatchObject({ mode: entry.mode, type: entry.type, size: entry.size });
      expect(got.url).toBe(`${f.base}/git/${entry.type}s/${entry.sha}`);
    }
    expect(body.tree.find((e: { path: string }) => e.path === 'run.sh').mode).toBe('100755');
    expect(body.tree.find((e: { path: string }) => e.path === 'link').mode).toBe('120000');
    expect(body.tree.find((e: { path: string }) => e.path === 'naïve file.txt')).toBeDefined();

    const deep = await json(await s.fetch(`/api/v1/repos/${f.full}/git/trees/main?recursive=true`));
    const all = (await git(['ls-tree', '-r', '-t', '--name-only', '-z', 'HEAD'], f.work)).split('\0').filter(Boolean);
    expect(deep.tree.map((e: { path: string }) => e.path)).toEqual(all);
    expect(deep.total_count).toBe(all.length);

    const p1 = await json(await s.fetch(`/api/v1/repos/${f.full}/git/trees/${f.head}?recursive=1&per_page=3&page=1`));
    expect(p1.tree.map((e: { path: string }) => e.path)).toEqual(all.slice(0, 3));
    expect(p1).toMatchObject({ page: 1, truncated: true, total_count: all.length });
    const last = Math.ceil(all.length / 3);
    const pn = await json(await s.fetch(`/api/v1/repos/${f.full}/git/trees/${f.head}?recursive=1&per_page=3&page=${last}`));
    expect(pn.tree.map((e: { path: string }) => e.path)).toEqual(all.slice((last - 1) * 3));
    expect(pn.truncated).toBe(false);
    const past = await json(await s.fetch(`/api/v1/repos/${f.full}/git/trees/${f.head}?per_page=3&page=99`));
    expect(past).toMatchObject({ tree: [], truncated: false, page: 99 });

    // Whatever names no tree is Forgejo's 400 "sha not found".
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/trees/${'0'.repeat(f.head.length)}`), 400, s.url)).toBe(`sha not found [${'0'.repeat(f.head.length)}]`);
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/trees/nope`), 400, s.url)).toBe('sha not found [nope]');
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/trees/--all`), 400, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/trees/main~1`), 400, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/trees/--output=x`), 400, s.url);
  });

  test('refs: all, by prefix, one exact ref answered alone, none 404', async () => {
    const all = await json(await s.fetch(`/api/v1/repos/${f.full}/git/refs`));
    expect(all.every((r: unknown) => matchesSchema(ReferenceSchema, r))).toBe(true);
    expect(all.map((r: { ref: string }) => r.ref)).toEqual(['refs/heads/feature/x', 'refs/heads/main', 'refs/notes/commits', 'refs/tags/light', 'refs/tags/v1.0']);
    const v1 = all.find((r: { ref: string }) => r.ref === 'refs/tags/v1.0');
    expect(v1).toEqual({ ref: 'refs/tags/v1.0', url: `${f.base}/git/refs/tags/v1.0`, object: { sha: f.tagId, type: 'tag', url: `${f.base}/git/tags/${f.tagId}` } });
    const heads = await json(await s.fetch(`/api/v1/repos/${f.full}/git/refs/heads`));
    expect(heads.map((r: { ref: string }) => r.ref)).toEqual(['refs/heads/feature/x', 'refs/heads/main']);
    // A plain string prefix, as Forgejo matches.
    const ma = await json(await s.fetch(`/api/v1/repos/${f.full}/git/refs/heads/ma`));
    expect(ma).toEqual([{ ref: 'refs/heads/main', url: `${f.base}/git/refs/heads/main`, object: { sha: f.head, type: 'commit', url: `${f.base}/git/commits/${f.head}` } }]);
    const exact = await json(await s.fetch(`/api/v1/repos/${f.full}/git/refs/heads/feature/x`));
    expect(matchesSchema(ReferenceSchema, exact)).toBe(true);
    expect(exact.ref).toBe('refs/heads/feature/x');
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/refs/heads/nothing`), 404, s.url);
  });

  test('annotated tags; a commit, an unknown id or not a full id is 400 as Forgejo answers', async () => {
    const res = await s.fetch(`/api/v1/repos/${f.full}/git/tags/${f.tagId}`);
    expect(res.status).toBe(200);
    const tag = await json(res);
    expect(matchesSchema(AnnotatedTagSchema, tag)).toBe(true);
    expect(tag).toEqual({
      tag: 'v1.0',
      sha: f.tagId,
      url: `${f.base}/git/tags/${f.tagId}`,
      message: 'release one\n',
      object: { sha: f.head, type: 'commit', url: `${f.base}/git/commits/${f.tagId}` },
      tagger: { name: 'Tester', email: 'tester@example.com', date: '2023-11-14T23:43:20+01:30' },
      verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' },
      archive_download_count: { zip: 0, tar_gz: 0 },
    });
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/tags/${f.head}`), 400, s.url)).toBe(`object does not exist [id: ${f.head}, rel_path: ]`);
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/tags/${'e'.repeat(f.head.length)}`), 400, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/tags/${f.tagId.slice(0, 12)}`), 400, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/tags/v1.0`), 400, s.url);
  });

  test('notes: the message and the notes commit that wrote it; none 404, bad ref 422', async () => {
    for (const name of [f.head, 'main', f.head.slice(0, 12)]) {
      const res = await s.fetch(`/api/v1/repos/${f.full}/git/notes/${name}?files=false`);
      expect(res.status, name).toBe(200);
      const note = await json(res);
      expect(matchesSchema(NoteSchema, note)).toBe(true);
      expect(note.message).toBe('a note on the first commit\n');
      expect(note.commit.sha).toBe(f.notesCommit);
      expect(note.commit.files).toBeNull();
    }
    const withFiles = await json(await s.fetch(`/api/v1/repos/${f.full}/git/notes/${f.head}`));
    expect(withFiles.commit.files).toEqual([{ filename: f.head, status: 'added' }]);
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/notes/${await git(['rev-parse', 'HEAD^{tree}'], f.work)}`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/notes/nope`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/git/notes/a..b`), 422, s.url);
  });

  test('raw and media: bytes, types, ref forms, symlinks, conditional GET', async () => {
    const readme = await s.fetch(`/api/v1/repos/${f.full}/raw/README.md`);
    expect(readme.status).toBe(200);
    expect(readme.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(readme.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''README.md");
    expect(readme.headers.get('x-gitea-object-type')).toBe('file');
    expect(readme.headers.get('content-length')).toBe('8');
    const etag = readme.headers.get('etag');
    expect(etag).toBe(`"${await git(['rev-parse', 'HEAD:README.md'], f.work)}"`);
    expect(await readme.text()).toBe('# hello\n');
    const cached = await s.fetch(`/api/v1/repos/${f.full}/raw/README.md`, { headers: { 'if-none-match': etag! } });
    expect(cached.status).toBe(304);

    const nested = await s.fetch(`/api/v1/repos/${f.full}/raw/src/lib/util.ts?ref=feature/x`);
    expect(await nested.text()).toBe('export {};\n');
    // Forgejo's legacy form: the ref leads the path.
    expect(await (await s.fetch(`/api/v1/repos/${f.full}/raw/feature/x/src/main.ts`)).text()).toBe('export const x = 1;\n');
    expect(await (await s.fetch(`/api/v1/repos/${f.full}/raw/v1.0/README.md`)).text()).toBe('# hello\n');
    expect(await (await s.fetch(`/api/v1/repos/${f.full}/raw/${f.head}/README.md`)).text()).toBe('# hello\n');
    expect(await (await s.fetch(`/api/v1/repos/${f.full}/raw/${encodeURIComponent('naïve file.txt')}`)).text()).toBe('unicode name\n');

    const png = await s.fetch(`/api/v1/repos/${f.full}/media/image.png`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await png.arrayBuffer()).equals(PNG)).toBe(true);
    const svg = await s.fetch(`/api/v1/repos/${f.full}/raw/logo.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toContain('sandbox');
    const link = await s.fetch(`/api/v1/repos/${f.full}/raw/link`);
    expect(link.headers.get('x-gitea-object-type')).toBe('symlink');
    expect(await link.text()).toBe('README.md');

    // Large files are streamed, whole.
    const big = await s.fetch(`/api/v1/repos/${f.full}/raw/big.txt`);
    expect(big.headers.get('content-length')).toBe(String(BIG.length));
    expect(await big.text()).toBe(BIG);
    const head = await s.fetch(`/api/v1/repos/${f.full}/raw/big.txt`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(BIG.length));
    expect(await head.text()).toBe('');

    // (`src/../README.md` is resolved by the client before it is sent; the escaped form below reaches the server.)
    for (const missing of ['nothing.txt', 'src', '.git/config', 'src//main.ts']) {
      await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/raw/${missing}`), 404, s.url);
    }
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/raw/src%2F..%2FREADME.md`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/raw/README.md?ref=nope`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/raw/README.md?ref=--upload-pack=x`), 404, s.url);
  });

  test('editorconfig: the properties that apply to a path', async () => {
    const get = async (p: string) => {
      const res = await s.fetch(`/api/v1/repos/${f.full}/editorconfig/${p}`);
      expect(res.status).toBe(200);
      return json(res);
    };
    expect(await get('README.md')).toEqual({ indent_style: 'space', indent_size: '2', end_of_line: 'lf' });
    expect(await get('main.go')).toEqual({ indent_style: 'tab', indent_size: '2', end_of_line: 'lf' });
    expect(await get('Makefile')).toEqual({ indent_style: 'tab', indent_size: '2', end_of_line: 'lf' });
    expect(await get('src/lib/util.ts')).toEqual({ indent_style: 'space', indent_size: '4', end_of_line: 'lf', charset: 'utf-8' });
    await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/editorconfig/README.md?ref=nope`), 404, s.url);
  });
});

describe('Last-Modified on raw and media', () => {
  test('is the time of the last commit that changed the file; If-Modified-Since at or after it is a 304', async () => {
    const f = await fixture('sha1');
    const first = f.head;
    const saved = gitEnv;
    gitEnv = { ...gitEnv, GIT_COMMITTER_DATE: '1800000000 +0200', GIT_AUTHOR_DATE: '1750000000 +0000' };
    try {
      await writeFile(path.join(f.work, 'src/main.ts'), 'export const x = 2;\n');
      await git(['commit', '-q', '-am', 'second'], f.work);
      await git(['push', '-q', `${s.url.replace('http://', `http://${alice.name}:${aliceToken}@`)}${f.full}.git`, 'main'], f.work);
    } finally {
      gitEnv = saved;
    }
    const changedAt = new Date(1800000000 * 1000).toUTCString();
    const firstAt = new Date(1700000000 * 1000).toUTCString();
    for (const kind of ['raw', 'media']) {
      const changed = await s.fetch(`/api/v1/repos/${f.full}/${kind}/src/main.ts`);
      expect(changed.status).toBe(200);
      expect(changed.headers.get('last-modified')).toBe(changedAt);
      // Unchanged by the newer commit: the time of the commit that last changed it.
      expect((await s.fetch(`/api/v1/repos/${f.full}/${kind}/README.md`)).headers.get('last-modified')).toBe(firstAt);
      expect((await s.fetch(`/api/v1/repos/${f.full}/${kind}/src/main.ts?ref=${first}`)).headers.get('last-modified')).toBe(firstAt);
      const notModified = await s.fetch(`/api/v1/repos/${f.full}/${kind}/src/main.ts`, { headers: { 'if-modified-since': changedAt } });
      expect(notModified.status).toBe(304);
      expect(await notModified.text()).toBe('');
      const later = new Date((1800000000 + 3600) * 1000).toUTCString();
      expect((await s.fetch(`/api/v1/repos/${f.full}/${kind}/src/main.ts`, { headers: { 'if-modified-since': later } })).status).toBe(304);
      const earlier = await s.fetch(`/api/v1/repos/${f.full}/${kind}/src/main.ts`, { headers: { 'if-modified-since': firstAt } });
      expect(earlier.status).toBe(200);
      expect(await earlier.text()).toBe('export const x = 2;\n');
      // Not an HTTP date: ignored, as Go's parser ignores it.
      for (const value of ['yesterday', '2030-01-01T00:00:00Z']) {
        expect((await s.fetch(`/api/v1/repos/${f.full}/${kind}/src/main.ts`, { headers: { 'if-modified-since': value } })).status).toBe(200);
      }
    }
  });
});

test('media serves an LFS pointer as its blob while no LFS object is stored, as Forgejo does', async () => {
  const f = await fixture('sha1');
  const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${'4'.repeat(64)}\nsize 12345\n`;
  await writeFile(path.join(f.work, 'asset.bin'), pointer);
  await git(['add', 'asset.bin'], f.work);
  await git(['commit', '-q', '-m', 'lfs pointer'], f.work);
  await git(['push', '-q', `${s.url.replace('http://', `http://${alice.name}:${aliceToken}@`)}${f.full}.git`, 'main'], f.work);
  const media = await s.fetch(`/api/v1/repos/${f.full}/media/asset.bin`);
  expect(media.status).toBe(200);
  expect(media.headers.get('content-length')).toBe(String(pointer.length));
  expect(media.headers.get('etag')).toBe(`"${await git(['rev-parse', 'HEAD:asset.bin'], f.work)}"`);
  expect(await media.text()).toBe(pointer);
});

describe('access and empty repositories', () => {
  test('a private repository is 404 to others and anonymous, readable by its owner', async () => {
    const f = await fixture('sha1', true);
    const id = await git(['rev-parse', 'HEAD:README.md'], f.work);
    for (const path of [`git/blobs/${id}`, `git/trees/${f.head}`, 'git/refs', `git/tags/${f.tagId}`, `git/notes/${f.head}`, 'raw/README.md', 'media/README.md', 'editorconfig/README.md']) {
      await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/${path}`), 404, s.url);
      await expectApiError(await s.fetch(`/api/v1/repos/${f.full}/${path}`, { headers: tokenHeader(bobToken) }), 404, s.url);
      expect((await s.fetch(`/api/v1/repos/${f.full}/${path}`, { headers: h })).status, path).toBe(200);
    }
  });

  test('an empty repository has no refs, trees or files', async () => {
    const name = uniq('empty');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name }, h))).status).toBe(201);
    const full = `${alice.name}/${name}`;
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/git/refs`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/git/trees/main`), 400, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/raw/README.md`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/editorconfig/README.md`), 404, s.url);
  });

  test('a blob over [api] DEFAULT_MAX_BLOB_SIZE keeps its size and withholds its content', async () => {
    const limited = await startTestServer({ api: { DEFAULT_MAX_BLOB_SIZE: 1000 } });
    try {
      const owner = await createUser(limited.host, uniq('carol'));
      await limited.host.repos.create(userActor(owner), { name: 'big', auto_init: true });
      const key = { owner: owner.lower_name, name: 'big' };
      const head = await limited.host.git.resolveRevision(key, 'HEAD');
      const commit = await limited.host.git.commitFiles(key, {
        branch: 'main',
        message: 'big',
        author: { name: 'C', email: 'c@example.com' },
        files: [{ path: 'big.txt', content: 'x'.repeat(5000) }],
        expectedOldId: head!.id,
      });
      const blob = await limited.host.git.resolveRevision(key, `${commit}:big.txt`);
      const body = await json(await limited.fetch(`/api/v1/repos/${owner.name}/big/git/blobs/${blob!.id}`));
      expect(body).toMatchObject({ sha: blob!.id, size: 5000, encoding: 'base64', content: '' });
    } finally {
      await limited.cleanup();
    }
  });
});
