/**
 * JSON for answers in which one object appears many times: a page of pull requests names its base and head
 * repositories (some 2.7 KB each) in every item, the same converted object each time. An object made with
 * `sharedInJson` is serialized once per `stringifyShared` call and copied wherever else it appears; on a page of
 * 20 pull requests that is one repository serialized instead of 40. An object made with `keptInJson` (a listed
 * branch) is made and serialized once per id and inputs, and kept with its bytes across answers. Anywhere else
 * (`JSON.stringify`, a webhook payload), either serializes as the plain object it is.
 *
 * How: the shared objects' prototype has a `toJSON` that, during `stringifyShared`, stands in a token string for
 * the object; the tokens are then replaced by the object's JSON. A token starts with NUL and a random part made per
 * process, so no stored text can look like one.
 */
import { randomBytes } from 'node:crypto';

const TOKEN_PREFIX = `\u0000${randomBytes(12).toString('hex')}:`;
/** How a token string appears in JSON text (JSON.stringify writes NUL as `\u0000`), opening quote included. */
const TOKEN_IN_JSON = `"${JSON.stringify(TOKEN_PREFIX).slice(1, -1)}`;

/** The shared objects met by the `stringifyShared` under way, in order, and their positions. */
let current: { objects: object[]; positions: Map<object, number> } | undefined;

/** During `stringifyShared`, a token string standing in for a shared object; outside it, the object itself. */
function standIn(object: object): unknown {
  if (!current) return object;
  let position = current.positions.get(object);
  if (position === undefined) {
    position = current.objects.length;
    current.objects.push(object);
    current.positions.set(object, position);
  }
  return `${TOKEN_PREFIX}${position}`;
}

const sharedPrototype: object = Object.create(Object.prototype, {
  toJSON: {
    enumerable: false,
    value(this: object): unknown {
      return standIn(this);
    },
  },
});

/** Marks a plain object (freshly made by a converter) to be serialized once per answer by `stringifyShared`. */
export function sharedInJson<T extends object>(value: T): T {
  return Object.setPrototypeOf(value, sharedPrototype) as T;
}

/** What, besides its id, a kept object's JSON depends on; compared with `===`. */
export type JsonInput = string | number | boolean | null;

/**
 * Values by key, a few variants each told apart by their parts (compared item by item with `===`): at most `budget`
 * in all as `sizeOf` counts them, the keys kept longest dropped first.
 */
class KeptVariants<K, Part, V> {
  private readonly byKey = new Map<K, { parts: readonly Part[]; value: V }[]>();
  private size = 0;

  constructor(
    private readonly perKey: number,
    private readonly budget: number,
    private readonly sizeOf: (key: K, parts: readonly Part[], value: V) => number,
  ) {}

  find(key: K, parts: readonly Part[]): V | undefined {
    const variants = this.byKey.get(key);
    if (variants) for (const variant of variants) if (sameItems(variant.parts, parts)) return variant.value;
    return undefined;
  }

  add(key: K, parts: readonly Part[], value: V): void {
    const variants = this.byKey.get(key);
    if (variants) {
      variants.push({ parts, value });
      if (variants.length > this.perKey) {
        const dropped = variants.shift()!;
        this.size -= this.sizeOf(key, dropped.parts, dropped.value);
      }
    } else this.byKey.set(key, [{ parts, value }]);
    this.size += this.sizeOf(key, parts, value);
    for (const [oldest, dropped] of this.byKey) {
      if (this.size <= this.budget) break;
      for (const variant of dropped) this.size -= this.sizeOf(oldest, variant.parts, variant.value);
      this.byKey.delete(oldest);
    }
  }
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A shared object whose JSON is encoded once (the encoding private, so that neither JSON nor a comparison sees it). */
class KeptObject {
  #bytes: Buffer | undefined;

  constructor(fields: object) {
    Object.assign(this, fields);
  }

  /** Its encoded JSON, made at the first call. Static, so that no field of the value it copies can hide it. */
  static bytesOf(object: KeptObject): Buffer {
    return (object.#bytes ??= Buffer.from(JSON.stringify(object)));
  }

  toJSON(): unknown {
    return standIn(this);
  }
}

/**
 * Objects made with `keptInJson`, by id, a few variants each by their inputs (the same commit under two branch names,
 * or seen by two kinds of viewer): at most 8 MiB in all, each counted as twice its JSON (for the object beside its
 * bytes) and its inputs' text. An object whose JSON is larger than `KEPT_MAX_BYTES` is not kept.
 */
const KEPT_MAX_BYTES = 16 * 2 ** 10;
const keptObjects = new KeptVariants<string, JsonInput, KeptObject>(4, 8 * 2 ** 20, (id, inputs, object) => {
  let size = id.length + 2 * KeptObject.bytesOf(object).length + 64;
  for (const input of inputs) size += typeof input === 'string' ? input.length : 8;
  return size;
});

/**
 * The object `build` makes, kept across answers under `id` while `inputs` are the same, and serialized by
 * `stringifyShared` from its kept bytes: the two must determine what `build` makes (a branch: its commit's id, which
 * fixes the commit's fields; its name, commit URL, the accounts of its emails and its rule as the viewer sees it).
 * While kept, the same frozen object is returned and `build` is not called: a page of 50 branches took about 65 µs
 * to serialize and encode and 25 µs to convert; from the kept objects, 12 µs and a few.
 */
export function keptInJson<T extends object>(id: string, inputs: readonly JsonInput[], build: () => T): T {
  const kept = keptObjects.find(id, inputs);
  if (kept) return kept as unknown as T;
  const object = new KeptObject(build());
  if (KeptObject.bytesOf(object).length <= KEPT_MAX_BYTES) keptObjects.add(id, inputs, deepFreeze(object));
  return object as unknown as T;
}

/**
 * `value` and everything in it frozen: a kept object is shared by every answer that names it. A typed array (which
 * cannot be frozen while it has elements) is left as it is.
 */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field);
  }
  return value;
}

/** `JSON.stringify(value)`, with each object made by `sharedInJson` serialized once. */
export function stringifyShared(value: unknown): string {
  const { text, parts } = withStandIns(value);
  return parts.length === 0 ? text : spliced(text, parts).toString();
}

/**
 * `stringifyShared` as UTF-8 bytes, for an answer's body. Spliced as bytes: spliced as text, the answer is a rope of
 * many pieces, which the encoder must first flatten; here the outer text and each shared object are encoded once
 * and copied into one buffer (a page of 20 pull requests: 140 µs to write and encode the text, 100 µs this way).
 */
export function stringifySharedBytes(value: unknown): Buffer {
  if (Array.isArray(value) && value.length > 0 && value.every((item): item is KeptObject => item instanceof KeptObject)) return keptList(value);
  const { text, parts } = withStandIns(value);
  return parts.length === 0 ? Buffer.from(text) : spliced(text, parts);
}

/**
 * A list of kept objects (a page of branches), joined straight from their bytes: no outer text to splice into. A
 * list of the same kept objects in the same order as one joined before is those bytes again (each object stands for
 * its id and inputs), and is answered from the buffer kept for it. Joining anew made a buffer outside V8's heap for
 * every answer (66 KB for 30 commits); when little else was allocated, those buffers were freed only by full
 * collections, every 45 ms, which cost a page of kept commits a quarter of its rate at 8 connections.
 */
function keptList(items: readonly KeptObject[]): Buffer {
  const first = items[0]!;
  const kept = keptLists.find(first, items);
  if (kept) return kept;
  const parts = items.map((item) => KeptObject.bytesOf(item));
  let size = parts.length + 1;
  for (const part of parts) size += part.length;
  const out = Buffer.allocUnsafe(size);
  let written = 0;
  parts.forEach((part, i) => {
    out[written++] = i === 0 ? OPEN_BRACKET : COMMA;
    written += part.copy(out, written);
  });
  out[written] = CLOSE_BRACKET;
  // Only lists of kept objects can be met again: an object too large to keep is made anew each time.
  if (size <= KEPT_LIST_MAX_BYTES && parts.every((part) => part.length <= KEPT_MAX_BYTES)) keptLists.add(first, [...items], out);
  return out;
}

/**
 * Joined lists of kept objects, by their first object, a few each (pages of 30 and of 50 from one offset): at most
 * 8 MiB in all. A list longer than `KEPT_LIST_MAX_BYTES` is not kept.
 */
const KEPT_LIST_MAX_BYTES = 2 ** 20;
const keptLists = new KeptVariants<KeptObject, KeptObject, Buffer>(4, 8 * 2 ** 20, (_first, items, bytes) => bytes.length + 8 * items.length + 64);

const TOKEN_BYTES = Buffer.from(TOKEN_IN_JSON, 'latin1');
const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** `text` encoded, with each stand-in replaced by its shared object's JSON. */
function spliced(text: string, parts: (string | Buffer)[]): Buffer {
  const outer = Buffer.from(text);
  const encoded = parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part));
  // Each stand-in's start, end (after its closing quote) and part; ASCII, so found among the bytes as in the text.
  const spans: number[] = [];
  let size = outer.length;
  for (let at = 0; ; ) {
    const start = outer.indexOf(TOKEN_BYTES, at);
    if (start === -1) break;
    const end = outer.indexOf(QUOTE, start + TOKEN_BYTES.length) + 1;
    const part = Number(outer.toString('latin1', start + TOKEN_BYTES.length, end - 1));
    spans.push(start, end, part);
    size += encoded[part]!.length - (end - start);
    at = end;
  }
  const out = Buffer.allocUnsafe(size);
  let written = 0;
  let from = 0;
  for (let i = 0; i < spans.length; i += 3) {
    written += outer.copy(out, written, from, spans[i]);
    written += encoded[spans[i + 2]!]!.copy(out, written);
    from = spans[i + 1]!;
  }
  outer.copy(out, written, from);
  return out;
}

/**
 * The value's JSON with a stand-in for each shared object, and each shared object's own JSON (for a kept one, its
 * encoded JSON), by position.
 */
function withStandIns(value: unknown): { text: string; parts: (string | Buffer)[] } {
  const met = { objects: [] as object[], positions: new Map<object, number>() };
  const outer = current;
  current = met;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    current = outer;
  }
  if (met.objects.length === 0) return { text, parts: [] };
  // Each one whole (outside any `stringifyShared`): a shared object inside a shared object is written out in it.
  current = undefined;
  try {
    return { text, parts: met.objects.map((object) => (object instanceof KeptObject ? KeptObject.bytesOf(object) : JSON.stringify(object))) };
  } finally {
    current = outer;
  }
}
