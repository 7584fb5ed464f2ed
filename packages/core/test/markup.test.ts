/**
 * The markup renderer against a corpus of markdown inputs with expected HTML (fixtures/markup/corpus: `NAME.md`
 * whose first line `%% mode=… context=… wiki=… branch=… file=…` gives the render options, and `NAME.html`), an XSS
 * corpus that must come out inert, file renderers, hostile input, and the cache. Mentions are looked up in the
 * real database: `r-lyeh` exists, `hidden-one` is private.
 *
 * `UPDATE_MARKUP_FIXTURES=1` writes the `.html` of cases that have none (review them before committing).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ANONYMOUS, PayloadTooLargeError, SYSTEM, UnavailableError, ValidationError, userActor, type MarkupMode, type RenderOptions } from '@repohost/core';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/markup');
const CORPUS = path.join(FIXTURES, 'corpus');
const ROOT_URL = 'http://localhost:3000/';

let t: TestHost;

beforeAll(async () => {
  t = await openTestHost({ server: { ROOT_URL } });
  await createUser(t.host, 'r-lyeh');
  await createUser(t.host, 'hidden-one', { visibility: 'private' });
});
afterAll(() => t?.cleanup());

function render(options: RenderOptions): Promise<string> {
  return t.host.markup.render(ANONYMOUS, options);
}

/** The options line of a corpus case, and its markdown. */
function corpusCase(file: string): { options: RenderOptions; text: string } {
  const source = readFileSync(path.join(CORPUS, file), 'utf8');
  const newline = source.indexOf('\n');
  const header = source.slice(0, newline);
  const fields = new Map(header.replace(/^%%\s*/, '').split(/\s+/).map((kv) => kv.split('=') as [string, string]));
  const options: RenderOptions = {
    text: source.slice(newline + 1),
    mode: (fields.get('mode') ?? 'gfm') as MarkupMode,
    context: fields.get('context'),
    wiki: fields.get('wiki') === 'true',
    branchPath: fields.get('branch'),
    filePath: fields.get('file'),
  };
  return { options, text: options.text };
}

describe('markdown corpus', () => {
  const cases = readdirSync(CORPUS).filter((f) => f.endsWith('.md')).sort();
  test('has a case for every feature', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });
  for (const file of cases) {
    test(file, async () => {
      const { options } = corpusCase(file);
      const html = await render(options);
      const expectedFile = path.join(CORPUS, file.replace(/\.md$/, '.html'));
      if (!existsSync(expectedFile) && process.env.UPDATE_MARKUP_FIXTURES) writeFileSync(expectedFile, html);
      expect(html).toBe(readFileSync(expectedFile, 'utf8'));
    });
  }
});

/** The payloads of xss.txt: one per line, `\n` standing for a line break; `#` lines are comments. */
function xssPayloads(): string[] {
  return readFileSync(path.join(FIXTURES, 'xss.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.replace(/\\n/g, '\n'));
}

const DANGEROUS_ELEMENTS = /<(script|iframe|frame|frameset|object|embed|applet|style|link|meta|base|form|svg|math|textarea|select|button|template|noscript|xmp|plaintext)\b/i;
const TAG = /<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/g;
const ATTRIBUTE = /\s+([^\s=>/]+)(?:="([^"]*)")?/g;
const SAFE_URL = /^(?:https?:|mailto:|#|\/|[^:]*$|[^:]*[/?#])/i;

function decodeAttribute(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#([0-9]+);?/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Why an HTML output is not inert, or undefined when it is. */
function unsafe(html: string): string | undefined {
  if (DANGEROUS_ELEMENTS.test(html)) return `dangerous element: ${DANGEROUS_ELEMENTS.exec(html)![0]}`;
  for (const tag of html.matchAll(TAG)) {
    for (const attribute of (tag[2] ?? '').matchAll(ATTRIBUTE)) {
      const name = attribute[1]!.toLowerCase();
      const value = decodeAttribute(attribute[2] ?? '').replace(/[\s\u0000-\u001f]/g, '');
      if (name.startsWith('on')) return `event handler ${name} on <${tag[1]}>`;
      if (name === 'style') return `style attribute on <${tag[1]}>`;
      if (['href', 'src', 'action', 'formaction', 'xlink:href', 'srcset', 'background', 'poster', 'data'].includes(name) && !SAFE_URL.test(value)) {
        return `unsafe URL ${name}="${value}" on <${tag[1]}>`;
      }
    }
  }
  // Whatever is left must not be able to start a tag: every `<` is one of the tags above or escaped.
  const stray = html.replace(TAG, '').replace(/<\/[a-zA-Z][a-zA-Z0-9-]*>/g, '');
  if (stray.includes('<')) return `unescaped '<' in: ${stray.slice(Math.max(0, stray.indexOf('<') - 20), stray.indexOf('<') + 40)}`;
  return undefined;
}

describe('XSS corpus', () => {
  const payloads = xssPayloads();
  test('has at least 50 payloads', () => {
    expect(payloads.length).toBeGreaterThanOrEqual(50);
  });
  for (const mode of ['comment', 'gfm', 'markdown'] as const) {
    test(`every payload comes out inert in ${mode} mode`, async () => {
      for (const payload of payloads) {
        const html = await render({ text: payload, mode, context: 'gogits/gogs' });
        expect(unsafe(html), `${JSON.stringify(payload)} → ${html}`).toBeUndefined();
      }
    });
  }
  test('also inert in wiki mode and as a markdown file', async () => {
    for (const payload of payloads) {
      for (const options of [{ mode: 'gfm', wiki: true }, { mode: 'file', filePath: 'docs/x.md', branchPath: 'branch/main' }] as const) {
        const html = await render({ text: payload, context: 'gogits/gogs', ...options });
        expect(unsafe(html), `${JSON.stringify(payload)} → ${html}`).toBeUndefined();
      }
    }
  });
  test('the checker itself catches what it must', () => {
    expect(unsafe('<a href="javascript:alert(1)">x</a>')).toMatch(/unsafe URL/);
    expect(unsafe('<a href="jav&#x09;ascript:alert(1)">x</a>')).toMatch(/unsafe URL/);
    expect(unsafe('<img src="x" onerror="alert(1)"/>')).toMatch(/event handler/);
    expect(unsafe('<p style="x">')).toMatch(/style/);
    expect(unsafe('<script>alert(1)</script>')).toMatch(/dangerous/);
    expect(unsafe('<p>a <b</p>')).toMatch(/unescaped/);
    expect(unsafe('<p><a href="https://x" rel="nofollow">x</a> &lt;script&gt;</p>')).toBeUndefined();
  });
});

describe('links and attributes', () => {
  test('every link is rel=nofollow; images open in a new tab with noopener', async () => {
    const html = await render({ text: '[a](https://a.example) <a href="https://b.example" target="_blank">b</a> ![c](c.png)', mode: 'gfm' });
    expect(html).toBe(
      '<p><a href="https://a.example" rel="nofollow">a</a> <a href="https://b.example" target="_blank" rel="nofollow noopener">b</a> ' +
        '<a href="/c.png" target="_blank" rel="nofollow noopener"><img src="/c.png" alt="c" loading="lazy"/></a></p>\n',
    );
  });

  test('a private account is linked only for viewers who may see it', async () => {
    const text = 'ping @hidden-one and @r-lyeh';
    const anonymous = await render({ text, mode: 'comment' });
    expect(anonymous).toContain('@hidden-one and');
    expect(anonymous).toContain(`<a href="${ROOT_URL}r-lyeh" class="mention" rel="nofollow">@r-lyeh</a>`);
    const self = userActor(await t.host.users.resolve(SYSTEM, 'hidden-one'));
    const seen = await t.host.markup.render(self, { text, mode: 'comment' });
    expect(seen).toContain(`<a href="${ROOT_URL}hidden-one" class="mention" rel="nofollow">@hidden-one</a>`);
    // The anonymous rendering, cached, did not change.
    expect(await render({ text, mode: 'comment' })).toBe(anonymous);
  });

  test('a mention links once its account exists, cache or not', async () => {
    const text = 'hello @late-comer';
    expect(await render({ text, mode: 'comment' })).toBe('<p>hello @late-comer</p>\n');
    await createUser(t.host, 'late-comer');
    expect(await render({ text, mode: 'comment' })).toBe(`<p>hello <a href="${ROOT_URL}late-comer" class="mention" rel="nofollow">@late-comer</a></p>\n`);
  });
});

describe('modes and files', () => {
  test('empty text renders as nothing, in every mode', async () => {
    for (const mode of ['comment', 'gfm', 'markdown', 'file'] as const) expect(await render({ text: '', mode })).toBe('');
  });

  test('an unknown mode is a validation error', async () => {
    await expect(render({ text: 'x', mode: 'nope' as MarkupMode })).rejects.toBeInstanceOf(ValidationError);
    await expect(t.host.markup.renderMarkupOption(ANONYMOUS, { Text: '## x', Mode: 'unknown' })).rejects.toThrow('Unknown mode: unknown');
    // /markdown renders any other mode as raw markdown, as Forgejo does.
    expect(await t.host.markup.renderMarkdownOption(ANONYMOUS, { Text: '[[Name|Link]]', Mode: 'whatever' })).toBe('<p>[[Name|Link]]</p>\n');
  });

  test('CSV and TSV files render as tables, escaped', async () => {
    const csv = await render({ text: 'name,note\n"Smith, J","says ""<hi>"""\n', mode: 'file', filePath: 'data/people.csv' });
    expect(csv).toBe(
      '<table class="data-table"><tr><th class="line-num">1</th><th>name</th><th>note</th></tr>' +
        '<tr><td class="line-num">2</td><td>Smith, J</td><td>says &#34;&lt;hi&gt;&#34;</td></tr></table>',
    );
    const tsv = await render({ text: 'a\tb\r\n1\t2', mode: 'file', filePath: 'x.TSV' });
    expect(tsv).toBe('<table class="data-table"><tr><th class="line-num">1</th><th>a</th><th>b</th></tr><tr><td class="line-num">2</td><td>1</td><td>2</td></tr></table>');
  });

  test('plain text and unknown extensions are escaped inside a <pre>', async () => {
    for (const filePath of ['notes.txt', 'Makefile', 'weird.unknown', 'x.rst']) {
      expect(await render({ text: '<script>alert(1)</script> & "q"', mode: 'file', filePath })).toBe('<pre>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;q&#34;</pre>');
    }
  });
});

describe('hostile input', () => {
  test('deeply nested quotes and lists render or are refused, quickly', async () => {
    for (const text of ['>'.repeat(20000) + ' deep', '- '.repeat(5000) + 'x', Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i * 2)}- item`).join('\n'), '['.repeat(20000), '*a '.repeat(20000), '<div>'.repeat(10000)]) {
      const started = Date.now();
      try {
        const html = await render({ text, mode: 'gfm' });
        expect(unsafe(html)).toBeUndefined();
      } catch (error) {
        // Refused as too deep, too slow, or (the indented list) larger than [markdown] MAX_RENDER_SIZE.
        expect(error instanceof ValidationError || error instanceof PayloadTooLargeError, String(error)).toBe(true);
      }
      expect(Date.now() - started).toBeLessThan(10000);
    }
  });

  describe('the render budget', () => {
    let budgeted: TestHost;
    // 24 KB that the parser takes many seconds over (quadratic: nested image brackets), far past the 3 s budget
    // whatever the machine's speed (half of it took about the budget, and once finished within it under CI load).
    const slow = `${'!['.repeat(4000)}x${'](y)'.repeat(4000)}`;

    beforeAll(async () => {
      budgeted = await openTestHost({ server: { ROOT_URL }, markdown: { RENDER_TIMEOUT: 3, RENDER_WORKERS: 1, MAX_RENDER_SIZE: 65536 } });
      await createUser(budgeted.host, 'r-lyeh');
    });
    afterAll(() => budgeted?.cleanup());

    /** The longest the event loop went without a turn while `work` ran. */
    async function loopStall<T>(work: () => Promise<T>): Promise<{ stall: number; result: PromiseSettledResult<T> }> {
      let last = performance.now();
      let stall = 0;
      const ticker = setInterval(() => {
        const now = performance.now();
        stall = Math.max(stall, now - last);
        last = now;
      }, 5);
      const [result] = await Promise.allSettled([work()]);
      clearInterval(ticker);
      return { stall, result: result! };
    }

    /**
     * Waits until the pool answers within its budget. A cold worker loads the renderer from source, which on a loaded
     * machine (every test file at once) can take longer than this host's 3 s budget by itself.
     */
    async function warmPool(): Promise<void> {
      for (let attempt = 0; attempt < 10; attempt++) {
        if (await budgeted.host.markup.render(ANONYMOUS, { text: 'warm', mode: 'gfm' }).then(() => true, () => false)) return;
      }
    }

    test('a render past RENDER_TIMEOUT (3 s here, to leave room for a cold worker loading from source) is stopped with a 422 reason, while the event loop keeps turning', async () => {
      // A warm pool: loading piscina into this test process is not what is measured.
      await warmPool();
      expect(await budgeted.host.markup.render(ANONYMOUS, { text: 'warm', mode: 'gfm' })).toBe('<p>warm</p>\n');
      const started = Date.now();
      const { stall, result } = await loopStall(() => budgeted.host.markup.render(ANONYMOUS, { text: slow, mode: 'gfm' }));
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.message).toBe('[Text]: the document took longer than 3 s to render');
      expect(Date.now() - started).toBeLessThan(6000);
      expect(stall).toBeLessThan(100);
      // The stopped worker is replaced: the next render works, mentions still resolved before it.
      await warmPool();
      expect(await budgeted.host.markup.render(ANONYMOUS, { text: '**@r-lyeh** and @nobody-here', mode: 'comment' })).toBe(
        '<p><strong><a href="http://localhost:3000/r-lyeh" class="mention" rel="nofollow">@r-lyeh</a></strong> and @nobody-here</p>\n',
      );
    });

    test('stored text that cannot be rendered shows escaped, never fails the page', async () => {
      expect(await budgeted.host.markup.renderOrEscape(ANONYMOUS, { text: `<b>${slow}`, mode: 'gfm' })).toBe(`<pre>&lt;b&gt;${slow}</pre>`);
      const large = `<i>${'x'.repeat(65536)}`;
      await expect(budgeted.host.markup.render(ANONYMOUS, { text: large, mode: 'gfm' })).rejects.toThrow(PayloadTooLargeError);
      expect(await budgeted.host.markup.renderOrEscape(ANONYMOUS, { text: large, mode: 'gfm' })).toBe(`<pre>&lt;i&gt;${'x'.repeat(65536)}</pre>`);
      // The worker stopped above is replaced by a cold one: wait for it, then hold the stored text to a real render.
      await warmPool();
      expect(await budgeted.host.markup.renderOrEscape(ANONYMOUS, { text: '*fine*', mode: 'gfm' })).toBe('<p><em>fine</em></p>\n');
    });

    test('a full render queue refuses more with 503 at once, and the queued ones end within their budget', async () => {
      // One worker, 32 waiting: distinct texts, so the cache answers none of them.
      const started = Date.now();
      const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => budgeted.host.markup.render(ANONYMOUS, { text: `${slow} ${i}`, mode: 'gfm' })));
      const reasons = results.map((r) => (r.status === 'rejected' ? (r.reason as Error).constructor.name : 'rendered'));
      expect(reasons.filter((r) => r === 'UnavailableError')).toHaveLength(7);
      expect(reasons.filter((r) => r === 'ValidationError')).toHaveLength(33);
      expect(Date.now() - started).toBeLessThan(6000);
      expect(results.find((r) => r.status === 'rejected' && r.reason instanceof UnavailableError)).toBeDefined();
    });
  });

  test('NUL and lone surrogates come out as U+FFFD, never raw', async () => {
    const html = await render({ text: 'a\u0000b \ud800 c', mode: 'gfm' });
    expect(html).not.toContain('\u0000');
    expect(html).toContain('a\uFFFDb');
  });
});

describe('cache', () => {
  test('the same text and options render once; other options render again', async () => {
    const text = `cache probe ${Date.now()} :tada:`;
    const first = await render({ text, mode: 'gfm' });
    expect(await render({ text, mode: 'gfm' })).toBe(first);
    expect(await render({ text, mode: 'markdown' })).not.toBe(first);
  });
});
