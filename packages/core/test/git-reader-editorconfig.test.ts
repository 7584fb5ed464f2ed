/** The `.editorconfig` reader behind `GET /repos/{owner}/{repo}/editorconfig/{filepath}`: globs and defaults. */
import { describe, expect, test } from 'vitest';
import { editorConfigFor, globPattern, parseEditorConfig } from '../src/gitdata/editorconfig.js';

describe('editorconfig', () => {
  test.each([
    ['*', 'a.txt', true],
    ['*', 'dir/a.txt', true],
    ['*.js', 'lib/x.js', true],
    ['*.js', 'lib/x.ts', false],
    ['/*.js', 'x.js', true],
    ['/*.js', 'lib/x.js', false],
    ['lib/*.js', 'lib/x.js', true],
    ['lib/*.js', 'lib/sub/x.js', false],
    ['lib/**.js', 'lib/sub/x.js', true],
    ['src/**/x.js', 'src/x.js', true],
    ['{Makefile,*.mk}', 'Makefile', true],
    ['{Makefile,*.mk}', 'build/rules.mk', true],
    ['{Makefile,*.mk}', 'Makefile.old', false],
    ['file{1..3}.txt', 'file2.txt', true],
    ['file{1..3}.txt', 'file4.txt', false],
    ['[ab].c', 'b.c', true],
    ['[!ab].c', 'b.c', false],
    ['a?.c', 'ab.c', true],
    ['a?.c', 'a/.c', false],
    ['{single}.c', '{single}.c', true],
    ['*.{js,{ts,tsx}}', 'x.tsx', true],
  ])('%s matches %s: %s', async (glob, path, matches) => {
    expect((await globPattern(glob)).test(path)).toBe(matches);
  });

  test('later sections win; values of known properties lowered; tab defaults', async () => {
    const sections = await parseEditorConfig('root = true\n# comment\n[*]\nindent_style = space\nindent_size = 2\nEnd_Of_Line = CRLF\n\n[*.go]\nindent_style = tab\nindent_size = tab\ntab_width = 8\n\n[*.py]\nindent_style = tab\nindent_size =\n');
    expect(editorConfigFor(sections, 'a.txt')).toEqual({ indent_style: 'space', indent_size: '2', end_of_line: 'crlf' });
    expect(editorConfigFor(sections, 'x/main.go')).toEqual({ indent_style: 'tab', indent_size: '8', end_of_line: 'crlf' });
    expect(editorConfigFor(await parseEditorConfig('[*]\nindent_style = tab\n'), 'a')).toEqual({ indent_style: 'tab', indent_size: 'tab' });
    expect(editorConfigFor(await parseEditorConfig('[*.md]\ncharset = UTF-8\n'), 'a.txt')).toEqual({});
    // Unreadable globs match nothing instead of failing.
    expect(editorConfigFor(await parseEditorConfig('[[\nindent_style = tab\n[{a,b\ncharset = utf-8\n'), 'a')).toEqual({});
  });

  test('globs match in linear time: many stars against a long path', async () => {
    const sections = await parseEditorConfig('[*a*a*a*a*a*a*a*a*a*a*a*a*c]\nindent_style = tab\n[{*a*,*b*}{*a*,*b*}{*a*,*b*}*c]\ncharset = utf-8\n');
    const started = Date.now();
    expect(editorConfigFor(sections, `${'a'.repeat(20000)}.txt`)).toEqual({});
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
