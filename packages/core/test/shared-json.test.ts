/**
 * `stringifyShared` writes what `JSON.stringify` writes, serializing each object made by `sharedInJson` once; text
 * that merely looks like its stand-ins stays as it is. `stringifySharedBytes` is the same text as UTF-8. An object made
 * by `keptInJson` is serialized once per id and inputs, across calls.
 */
import { describe, expect, it } from 'vitest';
import { keptInJson, sharedInJson, stringifyShared, stringifySharedBytes } from '@repohost/core';

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

  it('keeps the JSON of keptInJson objects across calls while their id and inputs are the same, and only then', () => {
    let reads = 0;
    // The getter counts serializations (the copy keptInJson makes reads the top level only).
    const branch = (id: string, inputs: (string | boolean | null)[], name: string) =>
      keptInJson(
        {
          name,
          commit: {
            id,
            get message() {
              reads++;
              return 'é 🎉 "q"';
            },
          },
          protected: false,
        },
        id,
        inputs,
      );
    const plain = (name: string, id: string) => ({ name, commit: { id, message: 'é 🎉 "q"' }, protected: false });
    const unique = `${Date.now()}-${Math.random()}`;
    const a = `a-${unique}`;
    const b = `b-${unique}`;
    // A list of kept objects, joined from their bytes; then again from the kept bytes, nothing read.
    expect(stringifySharedBytes([branch(a, ['main', true], 'main'), branch(b, ['dev', true], 'dev')]).toString()).toBe(JSON.stringify([plain('main', a), plain('dev', b)]));
    expect(reads).toBe(2);
    expect(stringifySharedBytes([branch(a, ['main', true], 'main'), branch(b, ['dev', true], 'dev')]).toString()).toBe(JSON.stringify([plain('main', a), plain('dev', b)]));
    expect(reads).toBe(2);
    // Kept bytes are what the id and inputs say, even where the object says otherwise: that is the caller's promise.
    expect(stringifySharedBytes([branch(a, ['main', true], 'other')]).toString()).toBe(JSON.stringify([plain('main', a)]));
    // Other inputs for the same id: written anew, and both variants kept.
    expect(stringifySharedBytes([branch(a, ['main', false], 'main-2')]).toString()).toBe(JSON.stringify([plain('main-2', a)]));
    expect(reads).toBe(3);
    expect(stringifySharedBytes([branch(a, ['main', true], 'x'), branch(a, ['main', false], 'y')]).toString()).toBe(JSON.stringify([plain('main', a), plain('main-2', a)]));
    expect(reads).toBe(3);
    // Inside other JSON (spliced), in the text form, and mixed with plain items: the same as JSON.stringify.
    const value = { items: [branch(a, ['main', true], 'main'), { plain: 1 }, branch(b, ['dev', true], 'dev')], n: null };
    const expected = JSON.stringify({ items: [plain('main', a), { plain: 1 }, plain('dev', b)], n: null });
    expect(stringifyShared(value)).toBe(expected);
    expect(stringifySharedBytes(value).toString()).toBe(expected);
    expect(stringifySharedBytes([branch(b, ['dev', true], 'dev'), 'text', 1]).toString()).toBe(JSON.stringify([plain('dev', b), 'text', 1]));
    expect(reads).toBe(3);
    // At most four variants per id: a fifth drops the oldest, which is then written anew.
    for (let i = 0; i < 4; i++) stringifySharedBytes([branch(b, [`v${i}`, null], `v${i}`)]);
    expect(reads).toBe(7);
    expect(stringifySharedBytes([branch(b, ['dev', true], 'dev-again')]).toString()).toBe(JSON.stringify([plain('dev-again', b)]));
    expect(reads).toBe(8);
    // Too large to keep: written each time.
    const large = () =>
      keptInJson(
        {
          text: 'x'.repeat(20_000),
          counted: {
            get n() {
              reads++;
              return 1;
            },
          },
        },
        `large-${unique}`,
        [],
      );
    stringifySharedBytes([large()]);
    stringifySharedBytes([large()]);
    expect(reads).toBe(10);
    // Anywhere else it is the plain object it was made from, with nothing more to see or compare.
    const outside = keptInJson({ name: 'main', n: 1 }, a, ['main']);
    expect(JSON.stringify(outside)).toBe('{"name":"main","n":1}');
    expect(Object.keys(outside)).toEqual(['name', 'n']);
    expect(outside).toEqual({ name: 'main', n: 1 });
    expect({ ...outside }).toEqual({ name: 'main', n: 1 });
  });
});
