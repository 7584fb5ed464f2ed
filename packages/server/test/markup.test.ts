/**
 * `POST /markdown`, `POST /markdown/raw` and `POST /markup` over HTTP: HTML answers, Forgejo's modes and fields
 * (matched case-insensitively), wiki and repository contexts, file mode, errors in the API's format, bounded
 * bodies, and bytes that are not UTF-8.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json } from './helpers';

let s: TestServer;
let root: string;

beforeAll(async () => {
  s = await startTestServer();
  root = s.url;
  await createUser(s.host, 'r-lyeh');
});
afterAll(() => s?.cleanup());

async function html(res: Response, status = 200): Promise<string> {
  const body = await res.text();
  expect(res.status, body).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
  return body;
}

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return s.fetch(`/api/v1${path}`, jsonInit('POST', body, headers));
}

const WIKI_TEXT = `Wiki! Enjoy :)
- [[Links, Language bindings, Engine bindings|Links]]
- [[Tips]]
- Bezier widget (by @r-lyeh) https://github.com/ocornut/imgui/issues/786`;

describe('POST /markdown', () => {
  test('renders gfm and comment modes in a wiki context as Forgejo does', async () => {
    const full = `${root}gogits/gogs/`;
    const expected = `<p>Wiki! Enjoy :)</p>
<ul>
<li><a href="${full}wiki/Links" rel="nofollow">Links, Language bindings, Engine bindings</a></li>
<li><a href="${full}wiki/Tips" rel="nofollow">Tips</a></li>
<li>Bezier widget (by <a href="${root}r-lyeh" class="mention" rel="nofollow">@r-lyeh</a>) <a href="https://github.com/ocornut/imgui/issues/786" rel="nofollow">https://github.com/ocornut/imgui/issues/786</a></li>
</ul>
`;
    for (const mode of ['gfm', 'comment']) {
      expect(await html(await post('/markdown', { Mode: mode, Text: WIKI_TEXT, Context: 'gogits/gogs', Wiki: true }))).toBe(expected);
      expect(await html(await post('/markup', { Mode: mode, Text: WIKI_TEXT, Context: 'gogits/gogs', Wiki: true }))).toBe(expected);
    }
    expect(await html(await post('/markup', { Mode: 'file', FilePath: 'path/test.md', Text: WIKI_TEXT, Context: 'gogits/gogs', Wiki: true }))).toBe(expected);
  });

  test('field names match case-insensitively, as Go decodes them', async () => {
    const body = await html(await post('/markdown', { text: '**bold** #1', mode: 'comment', context: `${root}o/r` }));
    expect(body).toBe(`<p><strong>bold</strong> <a href="${root}o/r/issues/1" class="ref-issue" rel="nofollow">#1</a></p>\n`);
  });

  test('the default mode is raw markdown: no forge syntax, no wiki links', async () => {
    expect(await html(await post('/markdown', { Text: '[[Name|Link]] @r-lyeh :tada:' }))).toBe('<p>[[Name|Link]] @r-lyeh :tada:</p>\n');
    expect(await html(await post('/markdown', { Text: 'a\nb', Mode: 'unknown-mode' }))).toBe('<p>a<br>\nb</p>\n');
  });

  test('no text, or no body at all, renders as an empty document', async () => {
    expect(await html(await post('/markdown', {}))).toBe('');
    expect(await html(await s.fetch('/api/v1/markdown', { method: 'POST' }))).toBe('');
    expect(await html(await post('/markdown', { Text: null, Mode: 'gfm' }))).toBe('');
  });

  test('anyone may render: anonymous, a token without scopes', async () => {
    await createUser(s.host, 'renderer');
    const token = await createToken(s.host, 'renderer', ['read:user']);
    expect(await html(await post('/markdown', { Text: '# Hi', Mode: 'gfm' }, tokenHeader(token)))).toBe('<h1 id="user-content-hi">Hi</h1>\n');
  });

  test('a field of the wrong type is a 422 in the API error format', async () => {
    const message = await expectApiError(await post('/markdown', { Text: 5 }), 422, root);
    expect(message).toMatch(/Text/);
    await expectApiError(await s.fetch('/api/v1/markdown', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"Text": ' }), 422, root);
  });

  test('scripts and event handlers do not survive', async () => {
    const body = await html(await post('/markdown', { Mode: 'gfm', Text: 'a <script>alert(1)</script><img src=x onerror=alert(1)> [x](javascript:alert(1))' }));
    expect(body).toBe('<p>a <img src="x"/> <a rel="nofollow">x</a></p>\n');
    // A line that starts with <script> is an HTML block: dropped whole, with its script.
    expect(await html(await post('/markdown', { Mode: 'gfm', Text: '<script>alert(1)</script>\n\nafter' }))).toBe('<p>after</p>\n');
  });

  test('a body past 10 MiB is refused with 413', async () => {
    const res = await post('/markdown', { Text: 'a'.repeat(10 * 1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect((await json(res)).message).toMatch(/too large/);
  });

  test('deeply nested quotes are a 422, not a crash', async () => {
    await expectApiError(await post('/markdown', { Mode: 'gfm', Text: '>'.repeat(50000) }), 422, root);
  });
});

describe('POST /markdown/raw', () => {
  test('renders a text/plain body as raw markdown', async () => {
    const res = await s.fetch('/api/v1/markdown/raw', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '## Title\n\n[[Name|Link]] <b onclick="x()">b</b>' });
    expect(await html(res)).toBe('<h2 id="user-content-title">Title</h2>\n<p>[[Name|Link]] <b>b</b></p>\n');
  });

  test('an empty body renders as nothing; bytes that are not UTF-8 read as U+FFFD', async () => {
    expect(await html(await s.fetch('/api/v1/markdown/raw', { method: 'POST', body: '' }))).toBe('');
    const res = await s.fetch('/api/v1/markdown/raw', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: Buffer.from([0x61, 0xff, 0xfe, 0x62]) });
    expect(await html(res)).toBe('<p>a\uFFFD\uFFFDb</p>\n');
  });

  test('a body past 10 MiB is refused with 413', async () => {
    const res = await s.fetch('/api/v1/markdown/raw', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'a'.repeat(10 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
  });
});

describe('POST /markup', () => {
  test('an unknown or missing mode is a 422 "Unknown mode"', async () => {
    expect(await expectApiError(await post('/markup', { Mode: 'unknown', Text: '## Test' }), 422, root)).toBe('Unknown mode: unknown');
    expect(await expectApiError(await post('/markup', { Text: '## Test' }), 422, root)).toBe('Unknown mode: ');
    // Nothing to render is never an error.
    expect(await html(await post('/markup', { Mode: 'unknown' }))).toBe('');
  });

  test('file mode picks the renderer from FilePath', async () => {
    expect(await html(await post('/markup', { Mode: 'file', FilePath: 'data/x.csv', Text: 'a,b\n1,<2>' }))).toBe(
      '<table class="data-table"><tr><th class="line-num">1</th><th>a</th><th>b</th></tr><tr><td class="line-num">2</td><td>1</td><td>&lt;2&gt;</td></tr></table>',
    );
    expect(await html(await post('/markup', { Mode: 'file', FilePath: 'notes.txt', Text: '<b>x</b>' }))).toBe('<pre>&lt;b&gt;x&lt;/b&gt;</pre>');
    expect(await html(await post('/markup', { Mode: 'file', FilePath: 'odd.unknown', Text: '## Test' }))).toBe('<pre>## Test</pre>');
  });

  test('relative links follow Context, BranchPath and the file folder', async () => {
    const body = await html(await post('/markup', { Mode: 'file', FilePath: 'docs/README.md', Context: 'o/r', BranchPath: 'branch/main', Text: '[n](next.md) ![i](i.png)' }));
    expect(body).toBe(
      `<p><a href="${root}o/r/src/branch/main/docs/next.md" rel="nofollow">n</a> ` +
        `<a href="${root}o/r/media/branch/main/docs/i.png" target="_blank" rel="nofollow noopener"><img src="${root}o/r/media/branch/main/docs/i.png" alt="i" loading="lazy"/></a></p>\n`,
    );
  });

  test("a Context inside a repository tree (Gitea's file preview) gives the ref and folder: images go to media, links to src", async () => {
    const text = '[n](next.md) ![i](i.png)';
    const expected = (folder: string) =>
      `<p><a href="${root}o/r/src/branch/feat/x/${folder}next.md" rel="nofollow">n</a> ` +
      `<a href="${root}o/r/media/branch/feat/x/${folder}i.png" target="_blank" rel="nofollow noopener"><img src="${root}o/r/media/branch/feat/x/${folder}i.png" alt="i" loading="lazy"/></a></p>\n`;
    expect(await html(await post('/markup', { Mode: 'gfm', Context: 'o/r/src/branch/feat/x', Text: text }))).toBe(expected(''));
    expect(await html(await post('/markup', { Mode: 'file', FilePath: 'docs/README.md', Context: 'o/r/src/branch/feat/x/docs', Text: text }))).toBe(expected('docs/'));
    expect(await html(await post('/markdown', { Mode: 'gfm', Context: `${root}o/r/src/branch/feat/x`, Text: text }))).toBe(expected(''));
    // Not a tree path: taken as it is.
    expect(await html(await post('/markup', { Mode: 'gfm', Context: 'o/r/wiki/x/y', Text: '![i](i.png)' }))).toContain(`src="${root}o/r/wiki/x/y/i.png"`);
  });

  test('gfm mode links commits and issues only inside a repository context', async () => {
    const sha = '65f1bf27bc3bd70e73d9f5b4e1f7e1d6b8c1a2b3';
    const inRepo = await html(await post('/markup', { Mode: 'gfm', Context: 'o/r', Text: `#7 ${sha}` }));
    expect(inRepo).toBe(`<p><a href="${root}o/r/issues/7" class="ref-issue" rel="nofollow">#7</a> <a href="${root}o/r/commit/${sha}" rel="nofollow"><code>65f1bf27bc</code></a></p>\n`);
    expect(await html(await post('/markup', { Mode: 'gfm', Text: `#7 ${sha}` }))).toBe(`<p>#7 ${sha}</p>\n`);
  });
});

describe('the swagger document', () => {
  test('documents the three operations under miscellaneous, raw as text/plain', async () => {
    const doc = await json(await s.fetch('/swagger.v1.json'));
    expect(doc.paths['/markdown'].post).toMatchObject({ operationId: 'renderMarkdown', tags: ['miscellaneous'], consumes: ['application/json'], produces: ['text/html'] });
    expect(doc.paths['/markdown/raw'].post).toMatchObject({ operationId: 'renderMarkdownRaw', consumes: ['text/plain'], produces: ['text/html'] });
    expect(doc.paths['/markup'].post).toMatchObject({ operationId: 'renderMarkup', produces: ['text/html'] });
    expect(doc.definitions.MarkupOption.properties).toHaveProperty(['FilePath']);
  });
});
