/**
 * `@mentions` as the notification fan-out finds them in issue bodies and comments: names after a start, a space,
 * `(` or `[`, before an end, a space or punctuation; none inside code.
 */
import { describe, expect, test } from 'vitest';
import { findMentions } from '@repohost/core';

describe('findMentions', () => {
  test('names where a mention may stand, lower-cased, each once', () => {
    expect(findMentions('@Alice and @bob, (@carol) [@dave] @alice')).toEqual(['alice', 'bob', 'carol', 'dave']);
    expect(findMentions('ping @erin.')).toEqual(['erin']);
    expect(findMentions('@frank: look; @grace? @heidi! @ivan-j @j.doe')).toEqual(['frank', 'grace', 'heidi', 'ivan-j', 'j.doe']);
    expect(findMentions("@kim's idea")).toEqual(['kim']);
  });

  test('not in addresses, words or code', () => {
    expect(findMentions('mail me at someone@example.com')).toEqual([]);
    expect(findMentions('x@y and @')).toEqual([]);
    expect(findMentions('use `@notme` here')).toEqual([]);
    expect(findMentions('```\n@insidefence\n```\nafter @outside')).toEqual(['outside']);
    expect(findMentions('~~~js\n@tilde\n~~~')).toEqual([]);
    expect(findMentions('no one')).toEqual([]);
  });
});
