/**
 * JSON for answers in which one object appears many times: a page of pull requests names its base and head
 * repositories (some 2.7 KB each) in every item, the same converted object each time. An object made with
 * `sharedInJson` is serialized once per `stringifyShared` call and copied wherever else it appears; on a page of
 * 20 pull requests that is one repository serialized instead of 40. Anywhere else (`JSON.stringify`, a webhook
 * payload), it serializes as the plain object it is.
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

const sharedPrototype: object = Object.create(Object.prototype, {
  toJSON: {
    enumerable: false,
    value(this: object): unknown {
      if (!current) return this;
      let position = current.positions.get(this);
      if (position === undefined) {
        position = current.objects.length;
        current.objects.push(this);
        current.positions.set(this, position);
      }
      return `${TOKEN_PREFIX}${position}`;
    },
  },
});

/** Marks a plain object (freshly made by a converter) to be serialized once per answer by `stringifyShared`. */
export function sharedInJson<T extends object>(value: T): T {
  return Object.setPrototypeOf(value, sharedPrototype) as T;
}

/** `JSON.stringify(value)`, with each object made by `sharedInJson` serialized once. */
export function stringifyShared(value: unknown): string {
  const met = { objects: [] as object[], positions: new Map<object, number>() };
  const outer = current;
  current = met;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    current = outer;
  }
  if (met.objects.length === 0) return text;
  // Each one whole (outside any `stringifyShared`): a shared object inside a shared object is written out in it.
  current = undefined;
  let parts: string[];
  try {
    parts = met.objects.map((object) => JSON.stringify(object));
  } finally {
    current = outer;
  }
  let out = '';
  let at = 0;
  for (;;) {
    const start = text.indexOf(TOKEN_IN_JSON, at);
    if (start === -1) break;
    const end = text.indexOf('"', start + TOKEN_IN_JSON.length);
    out += text.slice(at, start) + parts[Number(text.slice(start + TOKEN_IN_JSON.length, end))];
    at = end + 1;
  }
  return out + text.slice(at);
}
