/**
 * `stringifyShared` writes what `JSON.stringify` writes, serializing each object made by `sharedInJson` once; text
 * that merely looks like its stand-ins stays as it is. `stringifySharedBytes` is the same text as UTF-8. An object made
 * by `keptInJson` is made and serialized once per id and inputs, across calls, and frozen while kept.
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

  it('keeps keptInJson objects and their JSON across calls while their id and inputs are the same, and only then', () => {
    let builds = 0;
    // Counts how often an object is made; `name` is what the builder makes, which the inputs promise to fix.
    const branch = (id: string, inputs: (string | boolean | null)[], name: string) =>
      keptInJson(id, inputs, () => {
        builds++;
        return { name, commit: { id, message: 'é 🎉 "q"' }, protected: false, contexts: ['ci'] };
      });
    const plain = (name: string, id: string) => ({ name, commit: { id, message: 'é 🎉 "q"' }, protected: false, contexts: ['ci'] });
    const unique = `${Date.now()}-${Math.random()}`;
    const a = `a-${unique}`;
    const b = `b-${unique}`;
    // A list of kept objects, joined from their bytes; then again the same objects, nothing made.
    const first = [branch(a, ['main', true], 'main'), branch(b, ['dev', true], 'dev')];
    expect(stringifySharedBytes(first).toString()).toBe(JSON.stringify([plain('main', a), plain('dev', b)]));
    expect(builds).toBe(2);
    const again = [branch(a, ['main', true], 'main'), branch(b, ['dev', true], 'dev')];
    expect(again[0]).toBe(first[0]);
    expect(stringifySharedBytes(again).toString()).toBe(JSON.stringify([plain('main', a), plain('dev', b)]));
    expect(builds).toBe(2);
    // A kept object is what the id and inputs say, even where the builder would say otherwise: the caller's promise.
    expect(stringifySharedBytes([branch(a, ['main', true], 'other')]).toString()).toBe(JSON.stringify([plain('main', a)]));
    expect(builds).toBe(2);
    // Other inputs for the same id: made anew, and both variants kept.
    expect(stringifySharedBytes([branch(a, ['main', false], 'main-2')]).toString()).toBe(JSON.stringify([plain('main-2', a)]));
    expect(builds).toBe(3);
    expect(stringifySharedBytes([branch(a, ['main', true], 'x'), branch(a, ['main', false], 'y')]).toString()).toBe(JSON.stringify([plain('main', a), plain('main-2', a)]));
    expect(builds).toBe(3);
    // Inside other JSON (spliced), in the text form, and mixed with plain items: the same as JSON.stringify.
    const value = { items: [branch(a, ['main', true], 'main'), { plain: 1 }, branch(b, ['dev', true], 'dev')], n: null };
    const expected = JSON.stringify({ items: [plain('main', a), { plain: 1 }, plain('dev', b)], n: null });
    expect(stringifyShared(value)).toBe(expected);
    expect(stringifySharedBytes(value).toString()).toBe(expected);
    expect(stringifySharedBytes([branch(b, ['dev', true], 'dev'), 'text', 1]).toString()).toBe(JSON.stringify([plain('dev', b), 'text', 1]));
    expect(builds).toBe(3);
    // At most four variants per id: a fifth drops the oldest, which is then made anew.
    for (let i = 0; i < 4; i++) stringifySharedBytes([branch(b, [`v${i}`, null], `v${i}`)]);
    expect(builds).toBe(7);
    expect(stringifySharedBytes([branch(b, ['dev', true], 'dev-again')]).toString()).toBe(JSON.stringify([plain('dev-again', b)]));
    expect(builds).toBe(8);
    // Too large to keep: made and written each time, and not frozen (it is the caller's alone).
    const large = () =>
      keptInJson(`large-${unique}`, [], () => {
        builds++;
        return { text: 'x'.repeat(20_000), n: 1 };
      });
    expect(stringifySharedBytes([large()]).toString()).toBe(JSON.stringify([{ text: 'x'.repeat(20_000), n: 1 }]));
    const unkept = large();
    expect(builds).toBe(10);
    expect(Object.isFrozen(unkept)).toBe(false);
    // A kept object is shared by every answer naming it: frozen, nested objects and lists too.
    const kept = branch(a, ['main', true], 'main') as ReturnType<typeof plain>;
    expect(Object.isFrozen(kept) && Object.isFrozen(kept.commit) && Object.isFrozen(kept.contexts)).toBe(true);
    expect(() => {
      kept.contexts.push('more');
    }).toThrow(TypeError);
    // A typed array in a kept object is kept as it is (it cannot be frozen), the rest frozen around it.
    const withBytes = keptInJson(`bytes-${unique}`, [], () => ({ data: new Uint8Array([1, 2]), list: [1] }));
    expect(Object.isFrozen(withBytes) && Object.isFrozen(withBytes.list)).toBe(true);
    expect(JSON.stringify(withBytes)).toBe('{"data":{"0":1,"1":2},"list":[1]}');
    // Anywhere else it is the plain object it was made from, with nothing more to see or compare.
    const outside = keptInJson(`outside-${unique}`, ['main'], () => ({ name: 'main', n: 1 }));
    expect(JSON.stringify(outside)).toBe('{"name":"main","n":1}');
    expect(Object.keys(outside)).toEqual(['name', 'n']);
    expect(outside).toEqual({ name: 'main', n: 1 });
    expect({ ...outside }).toEqual({ name: 'main', n: 1 });
  });

  it('answers a list of the same kept objects in the same order from the bytes joined for it, and only such a list', () => {
    const unique = `${Date.now()}-${Math.random()}`;
    const item = (id: string, size = 10) => keptInJson(`${id}-${unique}`, [id], () => ({ id, text: 'é'.repeat(size) }));
    const plain = (id: string, size = 10) => ({ id, text: 'é'.repeat(size) });
    const first = stringifySharedBytes([item('a'), item('b'), item('c')]);
    expect(first.toString()).toBe(JSON.stringify([plain('a'), plain('b'), plain('c')]));
    // The same objects again: the same bytes, not joined anew.
    const again = stringifySharedBytes([item('a'), item('b'), item('c')]);
    expect(again).toBe(first);
    // Other lists from the same first object: their own bytes, each kept too.
    const shorter = stringifySharedBytes([item('a'), item('b')]);
    expect(shorter.toString()).toBe(JSON.stringify([plain('a'), plain('b')]));
    expect(stringifySharedBytes([item('a'), item('b')])).toBe(shorter);
    const reordered = stringifySharedBytes([item('a'), item('c'), item('b')]);
    expect(reordered.toString()).toBe(JSON.stringify([plain('a'), plain('c'), plain('b')]));
    expect(stringifySharedBytes([item('a'), item('b'), item('c')])).toBe(first);
    // An object too large to keep is made anew each time: a list holding one is joined anew, and right.
    const withLarge = () => stringifySharedBytes([item('a'), item('large', 20_000)]);
    const once = withLarge();
    const twice = withLarge();
    expect(twice).not.toBe(once);
    expect(twice.toString()).toBe(JSON.stringify([plain('a'), plain('large', 20_000)]));
    // Other inputs make another object: the list with it is joined anew.
    const changed = stringifySharedBytes([item('a'), item('b'), keptInJson(`c-${unique}`, ['c', 2], () => ({ id: 'c2', text: '' }))]);
    expect(changed.toString()).toBe(JSON.stringify([plain('a'), plain('b'), { id: 'c2', text: '' }]));
  });
});
