import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { CreateRepoOptionSchema, ValidationError, normalizeScopes, parseInput, scopesGrant } from '@repohost/core';

describe('token scopes', () => {
  it('normalizes: dedupes, write implies read, all swallows the rest', () => {
    expect(normalizeScopes(['read:user', 'write:user', 'read:user'])).toEqual(['write:user']);
    expect(normalizeScopes(['read:repository,read:issue'])).toEqual(['read:issue', 'read:repository']);
    expect(normalizeScopes(['all', 'read:user'])).toEqual(['all']);
    expect(normalizeScopes(['all', 'public-only'])).toEqual(['public-only', 'all']);
    expect(normalizeScopes(['read:user', 'public-only'])).toEqual(['public-only', 'read:user']);
    const everyWrite = ['activitypub', 'admin', 'misc', 'notification', 'organization', 'package', 'issue', 'repository', 'user'].map((c) => `write:${c}`);
    expect(normalizeScopes(everyWrite)).toEqual(['all']);
    expect(normalizeScopes([' ', '', 'sudo'])).toEqual([]);
    expect(() => normalizeScopes(['write:everything'])).toThrow(/invalid access token scope/);
    expect(() => normalizeScopes(['admin'])).toThrow(/invalid access token scope/);
  });

  it('grants by category and level', () => {
    expect(scopesGrant(['write:repository'], 'repository', 'read')).toBe(true);
    expect(scopesGrant(['read:repository'], 'repository', 'write')).toBe(false);
    expect(scopesGrant(['read:repository'], 'user', 'read')).toBe(false);
    expect(scopesGrant(['all'], 'admin', 'write')).toBe(true);
    expect(scopesGrant(['public-only'], 'user', 'read')).toBe(false);
  });
});

describe('input validation', () => {
  it('matches field names case-insensitively and drops unknown fields', () => {
    const value = parseInput(CreateRepoOptionSchema, { NAME: 'x', Private: true, Auto_Init: true, bogus: 1 });
    expect(value).toEqual({ name: 'x', private: true, auto_init: true });
  });

  it('prefers the exact spelling when both are sent', () => {
    expect(parseInput(CreateRepoOptionSchema, { Name: 'upper', name: 'exact' })).toEqual({ name: 'exact' });
  });

  it('names the field of the first problem', () => {
    const failure = (input: unknown) => {
      try {
        parseInput(CreateRepoOptionSchema, input);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).message;
      }
      throw new Error('expected a validation error');
    };
    expect(failure({})).toBe('[name]: Required');
    expect(failure({ name: 5 })).toMatch(/^\[name\]: must be string/);
    expect(failure({ name: 'x'.repeat(101) })).toBe('[name]: MaxSize(100)');
    expect(failure({ name: 'x', object_format_name: 'md5' })).toBe('[object_format_name]: must be one of: sha1, sha256');
    expect(failure([1, 2])).toMatch(/JSON object|object/);
  });

  it('validates nested objects and arrays with case-insensitive keys', () => {
    const schema = Type.Object({ items: Type.Array(Type.Object({ owner: Type.String() })) });
    expect(parseInput(schema, { Items: [{ OWNER: 'a' }] })).toEqual({ items: [{ owner: 'a' }] });
  });
});
