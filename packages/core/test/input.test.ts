/**
 * Input read as Forgejo's Go decoder reads it, then validated; and parsed once (a core method handed what the
 * router parsed does not parse it again).
 */
import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { CreateRepoOptionSchema, CreateUserOptionSchema, ValidationError, acceptInput, decodeInput, parseInput, StringEnum } from '@repohost/core';

describe('reading a body as Go decodes it', () => {
  it('takes the Gitea SDK\'s CreateRepoOption as sent: empty enums mean the default', () => {
    // Exactly what code.gitea.io/sdk/gitea sends for CreateRepo(CreateRepoOption{Name: "x"}).
    const body = JSON.parse(
      '{"name":"x","description":"","private":false,"issue_labels":"","auto_init":false,"template":false,"gitignores":"","license":"","readme":"","default_branch":"","trust_model":"","object_format_name":""}',
    );
    const opts = parseInput(CreateRepoOptionSchema, body);
    expect(opts.name).toBe('x');
    expect(opts).not.toHaveProperty('trust_model');
    expect(opts).not.toHaveProperty('object_format_name');
    // An empty string in a free-text field stays what it is.
    expect(opts.description).toBe('');
    expect(opts.readme).toBe('');
  });

  it('reads null as absent, in any field', () => {
    const opts = parseInput(CreateUserOptionSchema, { username: 'u', email: 'u@example.com', visibility: null, must_change_password: null, full_name: null });
    expect(opts).toEqual({ username: 'u', email: 'u@example.com' });
    // A required field sent as null is missing.
    expect(() => parseInput(CreateRepoOptionSchema, { name: null })).toThrow(ValidationError);
    expect(() => parseInput(CreateRepoOptionSchema, { name: null })).toThrow(/\[name\]: Required/);
  });

  it('still refuses a value that is not in the enum, naming the field', () => {
    expect(() => parseInput(CreateRepoOptionSchema, { name: 'x', trust_model: 'nobody' })).toThrow(/\[trust_model\]: must be one of: default/);
    expect(() => parseInput(CreateRepoOptionSchema, { name: 'x', object_format_name: 'md5' })).toThrow(/\[object_format_name\]/);
    expect(() => parseInput(CreateRepoOptionSchema, { name: 'x', object_format_name: ' ' })).toThrow(/\[object_format_name\]/);
  });

  it('keeps "" where the enum itself has an empty member', () => {
    const schema = Type.Object({ mode: Type.Optional(StringEnum(['', 'a'])) });
    expect(parseInput(schema, { mode: '' })).toEqual({ mode: '' });
  });

  it('matches names case-insensitively; of two spellings the later one wins, as in Go', () => {
    expect(parseInput(CreateRepoOptionSchema, JSON.parse('{"NAME":"a","Private":true}'))).toEqual({ name: 'a', private: true });
    expect(parseInput(CreateRepoOptionSchema, JSON.parse('{"Name":"first","name":"second"}')).name).toBe('second');
    expect(parseInput(CreateRepoOptionSchema, JSON.parse('{"name":"first","Name":"second"}')).name).toBe('second');
    // A later null does not undo an earlier value (Go leaves the field alone).
    expect(parseInput(CreateRepoOptionSchema, JSON.parse('{"name":"kept","NAME":null}')).name).toBe('kept');
  });

  it('drops unknown fields, Object.prototype names included', () => {
    const body = JSON.parse('{"name":"p","__proto__":{"private":true},"constructor":1,"toString":"x","hasOwnProperty":[],"extra":{}}');
    const opts = parseInput(CreateRepoOptionSchema, body);
    expect(opts).toEqual({ name: 'p' });
    expect(Object.getPrototypeOf(opts)).toBe(Object.prototype);
  });

  it('wants JSON numbers for integers and JSON booleans for booleans', () => {
    const schema = Type.Object({ id: Type.Integer(), flag: Type.Optional(Type.Boolean()) });
    expect(parseInput(schema, { id: 5 })).toEqual({ id: 5 });
    expect(() => parseInput(schema, { id: '5' })).toThrow(/\[id\]/);
    expect(() => parseInput(schema, { id: 5.5 })).toThrow(/\[id\]/);
    expect(() => parseInput(schema, { id: 1, flag: 'true' })).toThrow(/\[flag\]/);
  });

  it('reads nested objects and arrays the same way; a null element is the element type\'s zero value', () => {
    const schema = Type.Object({
      items: Type.Array(Type.Object({ owner: Type.String(), kind: Type.Optional(StringEnum(['a', 'b'])) })),
      tags: Type.Optional(Type.Array(Type.String())),
    });
    expect(parseInput(schema, { ITEMS: [{ Owner: 'x', kind: '', junk: 1 }], tags: ['a', null] })).toEqual({ items: [{ owner: 'x' }], tags: ['a', ''] });
  });

  it('reads a null body as an empty object, and refuses bodies that are not objects', () => {
    expect(decodeInput(CreateRepoOptionSchema, null)).toEqual({});
    for (const body of [[], 'x', 42, true]) expect(() => parseInput(CreateRepoOptionSchema, body)).toThrow(ValidationError);
  });
});

describe('parsing once', () => {
  it('hands back what parseInput produced for the same schema without parsing it again', () => {
    const parsed = parseInput(CreateRepoOptionSchema, { name: 'x', trust_model: '' });
    expect(acceptInput(CreateRepoOptionSchema, parsed)).toBe(parsed);
  });

  it('parses anything else: a plain object, or one parsed for another schema', () => {
    const plain = { NAME: 'x', trust_model: '' };
    const accepted = acceptInput(CreateRepoOptionSchema, plain);
    expect(accepted).not.toBe(plain);
    expect(accepted).toEqual({ name: 'x' });
    const other = parseInput(Type.Object({ name: Type.String() }), { name: 'x'.repeat(200) });
    expect(() => acceptInput(CreateRepoOptionSchema, other)).toThrow(/MaxSize\(100\)/);
  });
});
