/**
 * The scanners that replaced backtracking patterns (regex-linearity.test.ts): each gives what its pattern gave on
 * ordinary input, and reads a long hostile input (the shape that made the pattern quadratic) in well under a second.
 */
import type { Heading, Paragraph, Root } from 'mdast';
import { describe, expect, test } from 'vitest';
import { findIssueReferences } from '../src/timeline/references.js';
import { identTail } from '../src/git/ident.js';
import { parseCommit } from '../src/git/memory/objects.js';
import { revisionSuffixStart } from '../src/git/memory/repository.js';
import { parseGitmodules } from '../src/git/text.js';
import { parseSignature } from '../src/gitdata/convert.js';
import { applyForgeSyntax, type ForgeSyntaxOptions, type HastInMdast } from '../src/markup/forge-syntax.js';
import { tokenizeHtml } from '../src/markup/html-fragment.js';
import { findMentions } from '../src/notifications/mentions.js';
import { trimEnd, trimStart } from '../src/text.js';
import { assertValidEmail } from '../src/users/names.js';
import { adjustManifest, matrixPlainBody } from '../src/webhooks/formats/index.js';

const LONG = 100_000;

/** Runs `work`, failing when it takes half a second or more (the patterns took seconds to hours; these take ms). */
function quickly<T>(work: () => T): T {
  const start = performance.now();
  const result = work();
  expect(performance.now() - start).toBeLessThan(500);
  return result;
}

function author(line: string) {
  return parseCommit(Buffer.from(`tree ${'a'.repeat(40)}\nauthor ${line}\ncommitter c <c> 1 +0000\n\nm`)).author;
}

describe('git ident lines', () => {
  test('read as the greedy pattern read them', () => {
    expect(author('A U Thor <a@example.com> 1700000000 +0100')).toEqual({ name: 'A U Thor', email: 'a@example.com', seconds: 1700000000, offset: '+0100' });
    // The name runs to the last ` <`; the email may hold `>`; seconds may be negative.
    expect(author('a <b> <c>d> -5 -0230')).toEqual({ name: 'a <b>', email: 'c>d', seconds: -5, offset: '-0230' });
    expect(author(' <> 0 +0000')).toEqual({ name: '', email: '', seconds: 0, offset: '+0000' });
    // Malformed: the whole line is the name.
    for (const line of ['a <b> 1 +000', 'a <b>  1 +0000', 'a<b> 1 +0000', 'a <b> x1 +0000', 'a\r <b> 1 +0000']) {
      expect(author(line)).toEqual({ name: line, email: '', seconds: 0, offset: '+0000' });
    }
  });

  test('read by the API as the lazy pattern read them', () => {
    expect(parseSignature('A U Thor <a@example.com> 1700000000 +0100')).toEqual({ name: 'A U Thor', email: 'a@example.com', seconds: 1700000000, offset: '+0100' });
    expect(parseSignature('Thor<t@x> 1 +0000')).toEqual({ name: 'Thor', email: 't@x', seconds: 1, offset: '+0000' });
    // The email opens at the first `<` after the last `>` before the tail's.
    expect(parseSignature('a <b> c <d <e> 1 +0000')).toEqual({ name: 'a <b> c', email: 'd <e', seconds: 1, offset: '+0000' });
    expect(parseSignature('a <b> -1 +0000')).toBeUndefined();
    expect(parseSignature('a\n <b> 1 +0000')).toBeUndefined();
    expect(parseSignature('<b>')).toBeUndefined();
  });

  test('a long line of near-misses is read at once', () => {
    quickly(() => expect(author(`${' <'.repeat(LONG / 2)}> 1 +0000`).email).toBe(''));
    quickly(() => expect(author(`${'a'.repeat(LONG)}> 1 +0000`).email).toBe(''));
    quickly(() => expect(parseSignature(`${'<'.repeat(LONG)}${'>'.repeat(LONG)} 1 +0000`)).toBeUndefined());
    quickly(() => expect(identTail(`${'> '.repeat(LONG)}1`, true)).toBeUndefined());
  });
});

describe('revision suffixes', () => {
  test('split where the pattern split them', () => {
    expect(revisionSuffixStart('main')).toBe(4);
    expect(revisionSuffixStart('main^{tree}')).toBe(4);
    expect(revisionSuffixStart('v1~2^2^{}~')).toBe(2);
    expect(revisionSuffixStart('a^{')).toBe(3);
    expect(revisionSuffixStart('a^{Tree}')).toBe(8);
    expect(revisionSuffixStart('^1')).toBe(0);
    expect(revisionSuffixStart('a\nb~1')).toBeUndefined();
  });

  test('a long run of suffix characters ending in a name is read at once', () => {
    quickly(() => expect(revisionSuffixStart(`${'~'.repeat(LONG)}x`)).toBe(LONG + 1));
    quickly(() => expect(revisionSuffixStart(`${'^{'.repeat(LONG / 2)}x`)).toBe(LONG + 1));
  });
});

describe('raw HTML tokens', () => {
  test('tags, attributes and text as before', () => {
    expect(tokenizeHtml(`<a href="x" title='y&amp;' data-z=w checked >t</a><br/>`)).toEqual([
      { kind: 'start', name: 'a', attributes: [['href', 'x'], ['title', 'y&'], ['data-z', 'w'], ['checked', '']], selfClosing: false },
      { kind: 'text', value: 't' },
      { kind: 'end', name: 'a' },
      { kind: 'start', name: 'br', attributes: [], selfClosing: true },
    ]);
    // A `<` whose tag never closes is text, and a tag later inside it still counts.
    expect(tokenizeHtml(`<a b="<i>" "`)).toEqual([{ kind: 'text', value: '<a b="' }, { kind: 'start', name: 'i', attributes: [], selfClosing: false }, { kind: 'text', value: '" "' }]);
  });

  test('long runs of unclosed tags and spaces are read at once', () => {
    quickly(() => expect(tokenizeHtml('<a '.repeat(LONG / 3))).toEqual([{ kind: 'text', value: '<a '.repeat(LONG / 3) }]));
    quickly(() => expect(tokenizeHtml(`<a${' '.repeat(LONG)}`)).toHaveLength(1));
    quickly(() => expect(tokenizeHtml(`<a b="<a b="`.repeat(LONG / 12))).toHaveLength(1));
    quickly(() => tokenizeHtml('<script></script>'.repeat(LONG / 17)));
  });
});

describe('code in comments', () => {
  test('references inside code do not count', () => {
    const indices = (text: string) => findIssueReferences(text).map((r) => r.index);
    expect(indices('```\n#1\n```\n#2')).toEqual([2]);
    expect(indices('~~~~ js\n#1\n~~~\n#2\n~~~~~\n#3')).toEqual([3]);
    expect(indices('   ```\n#1')).toEqual([]);
    expect(indices('    ```\n#1')).toEqual([1]);
    expect(indices('```\n#1\n  ```\n#2')).toEqual([2]);
    // An unmatched run gives up its first backticks in pairs, as the pattern's backtracking did.
    expect(indices('`#1` #2 ``#3 ` #4`` #5')).toEqual([2, 3, 5]);
    expect(indices('``` #1')).toEqual([1]);
  });

  test('long runs of backticks are read at once', () => {
    quickly(() => expect(findIssueReferences(`${'`'.repeat(LONG)} #1`).map((r) => r.index)).toEqual([1]));
    quickly(() => expect(findIssueReferences(`#1 ${'`a'.repeat(LONG / 2)}`)).toHaveLength(1));
    quickly(() => expect(findIssueReferences(`#1\n\`\`\`${'`'.repeat(LONG)}`)).toHaveLength(1));
    quickly(() => expect(findIssueReferences(`#1\n${'```\n'.repeat(LONG / 4)}`)).toHaveLength(1));
  });

  test('mentions inside code spans and fences do not count', () => {
    expect(findMentions('@a `@b` @c ``@d ` @e`` @f')).toEqual(['a', 'c', 'f']);
    expect(findMentions('@a ```@b `@c')).toEqual(['a', 'c']);
    expect(findMentions('```\n@a\n```\n@b')).toEqual(['b']);
  });

  test('long runs of backticks in a mention line are read at once', () => {
    quickly(() => expect(findMentions(`@a ${'`'.repeat(LONG)} @b`)).toEqual(['a', 'b']));
    quickly(() => expect(findMentions(`@a ${'``` `` '.repeat(LONG / 7)}`)).toEqual(['a']));
    quickly(() => expect(findMentions(`@a ${Array.from({ length: 400 }, (_, i) => '`'.repeat(400 - i)).join(' ')}`)).toEqual(['a']));
  });
});

describe('forge syntax', () => {
  const options: ForgeSyntaxOptions = {
    links: { base: '/o/r/wiki', branchPath: '', treePath: '', wiki: true },
    appUrl: 'http://localhost/',
    forgeExtensions: true,
    hardBreaks: false,
    mentionable: new Set(),
    source: '',
  };
  const paragraph = (value: string): Paragraph => {
    const tree: Root = { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', value }] }] };
    applyForgeSyntax(tree, options);
    return tree.children[0] as Paragraph;
  };
  const links = (node: Paragraph) =>
    node.children.filter((c) => (c as unknown as HastInMdast).type === 'hast').map((c) => (c as unknown as HastInMdast).data.element.children.map((t) => ('value' in t ? t.value : '')).join(''));

  test('wiki links as the pattern found them', () => {
    expect(links(paragraph('[[Page]] and [[Name|Other Page]]'))).toEqual(['Page', 'Name']);
    // The inner text runs to the first `]`, on its line.
    expect(links(paragraph('[[[a]] [[b]c]] [[\n]] [[]]'))).toEqual(['[a']);
  });

  test('a long run of `[` is read at once', () => {
    quickly(() => expect(links(paragraph('['.repeat(LONG)))).toEqual([]));
    quickly(() => expect(links(paragraph(`${'[[a\n'.repeat(LONG / 4)}]]`))).toEqual([]));
  });

  const headingId = (value: string) => {
    const heading: Heading = { type: 'heading', depth: 2, children: [{ type: 'text', value }] };
    applyForgeSyntax({ type: 'root', children: [heading] }, options);
    return [heading.data?.hProperties?.id, (heading.children[0] as { value: string }).value];
  };

  test('`{#id}` at the end of a heading names it', () => {
    expect(headingId('Title {#my-id}  ')).toEqual(['user-content-my-id', 'Title']);
    expect(headingId('Title{#x_1}')).toEqual(['user-content-x_1', 'Title']);
    expect(headingId('Title {#} ')).toEqual(['user-content-title-', 'Title {#} ']);
    expect(headingId('Title {#a b}')).toEqual(['user-content-title-a-b', 'Title {#a b}']);
  });

  test('a long run of spaces in a heading is read at once', () => {
    quickly(() => expect(headingId(`a${' '.repeat(LONG)}x{#id}`)[0]).toBe('user-content-id'));
    quickly(() => expect(headingId(`a${' '.repeat(LONG)}x`)[0]).toBe(`user-content-a${'-'.repeat(LONG)}x`));
  });
});

describe('webhook texts', () => {
  test('matrix links as the pattern wrote them', () => {
    expect(matrixPlainBody('<a href="http://x/1">one</a><br><a class="c" href="u">t&amp;</a>')).toBe('[one](http://x/1)\n[t&](u)');
    expect(matrixPlainBody('<a href="u">not\nclosed</a>')).toBe('<a href="u">not\nclosed</a>');
  });

  test('many unfinished matrix links are read at once', () => {
    quickly(() => matrixPlainBody('<a '.repeat(LONG / 3)));
    quickly(() => matrixPlainBody(`${'<a href="x">'.repeat(LONG / 12)}\n</a>`));
  });

  test('a manifest with many comments or spaces is read at once', () => {
    const repo = { clone_url: 'https://h/o/r.git', ssh_url: 'git@h:o/r.git', private: false };
    const sources = quickly(() => adjustManifest(`image: x\nsources: [a] ${' #'.repeat(LONG / 2)}\n`, repo, 'c0ffee', 'refs/heads/main', 'http://h'));
    expect(sources).toContain('  - "a"');
    const env = quickly(() => adjustManifest(`image: x\nenvironment:\n  a${' '.repeat(LONG)}: b # c\n`, repo, 'c0ffee', 'refs/heads/main', 'http://h'));
    expect(env).toContain('  "a": "b"');
    quickly(() => expect(() => adjustManifest(`image: x\nenvironment:\n  a${' '.repeat(LONG)}#: b\n`, repo, 'c', 'r', 'u')).toThrow());
  });
});

describe('small parsers', () => {
  test('.gitmodules values as the pattern read them', () => {
    expect([...parseGitmodules('[submodule "a"]\n  path = lib/a\n\turl="https://h/a.git"\n')]).toEqual([['lib/a', 'https://h/a.git']]);
    expect([...parseGitmodules('[submodule "a"]\npath =\nurl = u\n')]).toEqual([['', 'u']]);
    expect([...quickly(() => parseGitmodules(`[submodule "a"]\npath = ${' '.repeat(LONG)}x\u2028y\nurl = u\n`))]).toEqual([]);
  });

  test('email addresses as the pattern checked them', () => {
    for (const good of ['a@b.c', 'a.b@c', 'a@b-c', 'a@b.c.d', 'ä@b.c']) expect(() => assertValidEmail(good)).not.toThrow();
    for (const bad of ['a', 'a@', '@b.c', 'a@.b', 'a@b.', 'a@b_c', 'a b@c.d', 'a@b@c.d', 'a@<b>.c']) expect(() => assertValidEmail(bad)).toThrow();
  });

  test('trimming a long run that does not reach the end is linear', () => {
    quickly(() => expect(trimEnd(`${'/'.repeat(LONG)}x/`, '/')).toBe(`${'/'.repeat(LONG)}x`));
    quickly(() => expect(trimStart(`/x${'/'.repeat(LONG)}`, '/')).toBe(`x${'/'.repeat(LONG)}`));
  });
});
