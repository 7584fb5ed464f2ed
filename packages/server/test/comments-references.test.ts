/**
 * Finding issue references in text, as Forgejo's cross references find them: `#N`, `!N` and `owner/repo#N`
 * between spaces or brackets, not in code, with the closing and reopening keywords before them.
 */
import { describe, expect, test } from 'vitest';
import { findIssueReferences } from '@repohost/core';

const refs = (text: string, plain = false) => findIssueReferences(text, { plain }).map((r) => [r.owner && `${r.owner}/${r.name}`, r.index, r.action]);

describe('findIssueReferences', () => {
  test('local and cross-repository references, where they stand alone', () => {
    expect(refs('see #1, (#2) [#3] and !4.')).toEqual([['', 1, 0], ['', 2, 0], ['', 3, 0], ['', 4, 0]]);
    expect(refs('in alice/demo#7 and org.x/repo-y!8')).toEqual([['alice/demo', 7, 0], ['org.x/repo-y', 8, 0]]);
    expect(refs('x#1 #1x #x ##2 a/b#c #0')).toEqual([]);
    expect(refs('"#5" \'#6\'')).toEqual([['', 5, 0], ['', 6, 0]]);
  });

  test('not inside code, unless the text is plain (a title)', () => {
    expect(refs('`#1` and\n```\n#2\n```\n    #3 indented\nbut #4')).toEqual([['', 4, 0]]);
    expect(refs('`#1`', true)).toEqual([]);
    expect(refs('title #9', true)).toEqual([['', 9, 0]]);
  });

  test('keywords before a reference give it an action', () => {
    expect(refs('closes #1, Fixes: #2, resolved alice/demo#3, reopens #4, mentions #5')).toEqual([
      ['', 1, 1],
      ['', 2, 1],
      ['', 4, 2],
      ['', 5, 0],
      ['alice/demo', 3, 1],
    ]);
  });

  test('numbers past what is exact are skipped', () => {
    expect(refs('#99999999999999999999')).toEqual([]);
  });
});
