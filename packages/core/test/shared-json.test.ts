/**
 * `stringifyShared` writes what `JSON.stringify` writes, serializing each object made by `sharedInJson` once; text
 * that merely looks like its stand-ins stays as it is. `stringifySharedBytes` is the same text as UTF-8.
 */
import { describe, expect, it } from 'vitest';
import { sharedInJson, stringifyShared, stringifySharedBytes } from '@repohost/core';

describe('stringifyShared', () => {
  it('writes what JSON.stringify writes, with shared objects in many places, nested, and in arrays', () => {
    const owner = sharedInJson({ id: 1, login: 'alice', full_name: 'Alice "A" \u0000 \\ \u2028' });
    const repo = sharedInJson({ id: 7, name: 'big', owner, permissions: { admin: true }, parent: null as unknown });
    const fork = sharedInJson({ id: 8, name: 'fork', owner, parent: repo });
    const items = Array.from({ length: 5 }, (_, i) => ({ number: i, base: { repo }, head: { repo: i % 2 ? fork : repo }, user: owner, labels: [] as unknown[] }));
    const value = { items, again: [repo, fork, owner], empty: {} };
    const plain = JSON.parse(JSON.stringify(value)) as unknown;
    expect(stringifyShared(value)).toBe(JSON.stringify(plain));
    expect(JSON.parse(stringifyShared(value))).toEqual(plain);
    expect(stringifySharedBytes(value).equals(Buffer.from(JSON.stringify(plain)))).toBe(true);
    // Serialized once per answer, however often it appears (a getter counts the reads).
    let reads = 0;
    const counted = sharedInJson({
      get name() {
        reads++;
        return 'counted';
      },
    });
    expect(stringifyShared(Array.from({ length: 40 }, () => ({ repo: counted })))).toBe(JSON.stringify(Array.from({ length: 40 }, () => ({ repo: { name: 'counted' } }))));
    expect(reads).toBe(1);
    // Outside stringifyShared a shared object is itself: a webhook payload or an embedder sees nothing else.
    expect(JSON.stringify(repo)).toBe(JSON.stringify({ id: 7, name: 'big', owner: { id: 1, login: 'alice', full_name: 'Alice "A" \u0000 \\ \u2028' }, permissions: { admin: true }, parent: null }));
    expect(Object.keys(repo)).toEqual(['id', 'name', 'owner', 'permissions', 'parent']);
    expect({ ...repo }).toEqual({ id: 7, name: 'big', owner, permissions: { admin: true }, parent: null });
  });

  it('leaves text alone that starts like a stand-in, and answers without shared objects unchanged', () => {
    const lookalikes = ['\u0000', '\u00000', '\u0000abc:0', '"\\u0000', `\u0000${'0'.repeat(24)}:0`];
    const repo = sharedInJson({ id: 1, description: lookalikes[4] });
    const value = lookalikes.map((title, i) => ({ title, repo, i }));
    expect(stringifyShared(value)).toBe(JSON.stringify(JSON.parse(JSON.stringify(value))));
    expect(stringifyShared(lookalikes)).toBe(JSON.stringify(lookalikes));
    expect(stringifyShared({ a: 1, b: [null, 'x'] })).toBe('{"a":1,"b":[null,"x"]}');
    expect(stringifyShared(undefined)).toBe(undefined);
    expect(stringifySharedBytes(value).toString()).toBe(stringifyShared(value));
    expect(stringifySharedBytes(lookalikes).toString()).toBe(JSON.stringify(lookalikes));
  });

  it('splices bytes around text of every width: multi-byte characters before, between and inside shared objects', () => {
    const owner = sharedInJson({ login: 'zoë', bio: '日本語 🎉 \u0000 "quoted"', emoji: '\ud83c' });
    const repo = sharedInJson({ name: 'ünïcode', owner, description: '𝔘𝔫𝔦𝔠𝔬𝔡𝔢' });
    const items = Array.from({ length: 30 }, (_, i) => ({ title: `${'é'.repeat(i)} 🚀 ${i}`, repo, author: i % 3 ? owner : { login: 'plain' }, lone: '\udc00' }));
    const expected = Buffer.from(JSON.stringify(JSON.parse(JSON.stringify(items))));
    const bytes = stringifySharedBytes(items);
    expect(bytes.length).toBe(expected.length);
    expect(bytes.equals(expected)).toBe(true);
    // A lone surrogate in a shared object is escaped by JSON.stringify, so the bytes stay valid UTF-8.
    const lone = sharedInJson({ text: 'a\ud800b' });
    expect(stringifySharedBytes([lone, lone]).toString()).toBe(JSON.stringify([{ text: 'a\ud800b' }, { text: 'a\ud800b' }]));
  });
});
