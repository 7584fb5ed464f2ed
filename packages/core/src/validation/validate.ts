import { FormatRegistry, Kind, Type, type Static, type TSchema, type TLiteral, type TUnion } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { ValidationError } from '../errors.js';

// String formats our schemas use. Pure checks, so registering them in TypeBox's shared registry is harmless.
if (!FormatRegistry.Has('email')) FormatRegistry.Set('email', (v) => /^[^\s@]+@[^\s@]+$/.test(v));
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(v) && !Number.isNaN(Date.parse(v)));

/**
 * How to read input for one schema, worked out once per schema: field names by exact and by lower-cased
 * spelling, the members of a string enum, the compiled validator.
 */
interface Plan {
  check: TypeCheck<TSchema>;
  /** Object schemas: exact name → itself, lower-cased name → the schema's spelling. */
  exact?: ReadonlyMap<string, string>;
  folded?: ReadonlyMap<string, string>;
  properties?: Record<string, TSchema>;
  /** String enums: the allowed values. */
  members?: ReadonlySet<string>;
}

const plans = new WeakMap<TSchema, Plan>();

function planFor(schema: TSchema): Plan {
  let plan = plans.get(schema);
  if (plan) return plan;
  plan = { check: TypeCompiler.Compile(schema) };
  if (schema[Kind] === 'Object') {
    const properties = (schema as unknown as { properties: Record<string, TSchema> }).properties;
    plan.properties = properties;
    plan.exact = new Map(Object.keys(properties).map((name) => [name, name]));
    plan.folded = new Map(Object.keys(properties).map((name) => [name.toLowerCase(), name]));
  }
  const members = enumValues(schema);
  if (members) plan.members = new Set(members);
  plans.set(schema, plan);
  return plan;
}

/**
 * The schema's spelling of an input field name, matched as Go's JSON decoder does (exact, else
 * case-insensitive), or undefined for a field the schema does not know. Own names only: `__proto__`,
 * `constructor`, … are unknown fields like any other.
 */
export function fieldName(schema: TSchema, key: string): string | undefined {
  return nameIn(planFor(schema), key);
}

function nameIn(plan: Plan, key: string): string | undefined {
  return plan.exact?.get(key) ?? plan.folded?.get(key.toLowerCase());
}

/** Parsed input, remembered so that a core method handed it by the router does not validate it again. */
const parsed = new WeakMap<object, TSchema>();

/**
 * Reads `input` as Forgejo's Go decoder reads a request body, then validates it against `schema` and returns it
 * typed. The first problem becomes a ValidationError naming the field by its wire name. See {@link decodeInput}.
 */
export function parseInput<T extends TSchema>(schema: T, input: unknown): Static<T> {
  const plan = planFor(schema);
  const value = decodeInput(schema, input);
  if (!plan.check.Check(value)) throw toValidationError(plan.check.Errors(value).First());
  const nul = findNul(value, '');
  if (nul !== undefined) throw new ValidationError(nul, 'must not contain NUL characters');
  if (value && typeof value === 'object') parsed.set(value, schema);
  return value as Static<T>;
}

/**
 * `input` as a valid `T`: returned as it is when {@link parseInput} produced it for this schema (the router
 * already parsed it), else parsed now. Core methods that embedders and the CLI call take input through this.
 */
export function acceptInput<T extends TSchema>(schema: T, input: unknown): Static<T> {
  if (input && typeof input === 'object' && parsed.get(input) === schema) return input as Static<T>;
  return parseInput(schema, input);
}

/**
 * Reads a JSON value the way Go's `encoding/json` fills a struct: `null` leaves a field absent; field names
 * match exactly, else case-insensitively, and a later duplicate overwrites an earlier one; unknown fields are
 * dropped; an empty string in an enum field means the field's default (absent). A `null` body is an empty object.
 * An integer field holding a number past JavaScript's safe integers is a ValidationError naming the field, where
 * Go's decoder fails on int64 overflow: such a number has already lost its exact value in `JSON.parse`.
 */
export function decodeInput(schema: TSchema, input: unknown): unknown {
  return decode(schema, input, '');
}

function decode(schema: TSchema, input: unknown, path: string): unknown {
  const kind = schema[Kind];
  if (kind === 'Integer') {
    if (typeof input === 'number' && Number.isInteger(input) && !Number.isSafeInteger(input)) {
      throw new ValidationError(path, `must be an integer between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`);
    }
    return input;
  }
  if (kind === 'Union') {
    const members = (schema as TUnion).anyOf;
    if (planFor(schema).members) return input;
    // A nullable field: read the value as its non-null member.
    const member = members.find((s) => s[Kind] === kindOf(input)) ?? members.find((s) => s[Kind] !== 'Null');
    return member ? decode(member, input, path) : input;
  }
  if (kind === 'Array' && Array.isArray(input)) {
    const items = (schema as unknown as { items: TSchema }).items;
    // Element paths are spelled out only for elements that can hold an integer.
    const nested = items[Kind] !== 'String' && items[Kind] !== 'Boolean';
    return input.map((v, i) => (v === null ? zeroValue(items) : decode(items, v, nested ? join(path, String(i)) : path)));
  }
  if (kind !== 'Object') return input;
  if (input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) return input;
  const plan = planFor(schema);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (value === null) continue;
    const name = nameIn(plan, key);
    if (name === undefined) continue;
    const property = plan.properties![name]!;
    const members = planFor(property).members;
    if (value === '' && members && !members.has('')) continue;
    out[name] = decode(property, value, join(path, name));
  }
  return out;
}

/** A field's dotted path, as ValidationError names it (`repositories.0.name`). */
function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

function kindOf(value: unknown): string {
  if (value === null) return 'Null';
  if (Array.isArray(value)) return 'Array';
  switch (typeof value) {
    case 'string':
      return 'String';
    case 'boolean':
      return 'Boolean';
    case 'number':
      return Number.isInteger(value) ? 'Integer' : 'Number';
    default:
      return 'Object';
  }
}

/** What Go leaves in a slice element that was `null`: the element type's zero value. */
function zeroValue(schema: TSchema): unknown {
  switch (schema[Kind]) {
    case 'String':
      return '';
    case 'Integer':
    case 'Number':
      return 0;
    case 'Boolean':
      return false;
    case 'Object':
      return {};
    default:
      return null;
  }
}

/** Where the first string holding a NUL character is (PostgreSQL cannot store one), or undefined. */
function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findNul(item, path ? `${path}.${key}` : key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** True when `value` matches `schema` exactly (used by tests and for responses). */
export function matchesSchema(schema: TSchema, value: unknown): boolean {
  return planFor(schema).check.Check(value);
}

/** Human-readable list of mismatches, for test failure messages. */
export function schemaErrors(schema: TSchema, value: unknown): string[] {
  return [...planFor(schema).check.Errors(value)].slice(0, 10).map((e) => `${e.path || '/'}: ${e.message}`);
}

function toValidationError(error: ValueError | undefined): ValidationError {
  if (!error) return new ValidationError('', 'invalid input');
  const field = error.path.replace(/^\//, '').replace(/\//g, '.');
  const schema = error.schema as Record<string, unknown>;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return new ValidationError(field, 'Required');
    case ValueErrorType.StringMaxLength:
      return new ValidationError(field, `MaxSize(${String(schema.maxLength)})`);
    case ValueErrorType.StringMinLength:
      return new ValidationError(field, schema.minLength === 1 ? 'Required' : `MinSize(${String(schema.minLength)})`);
    case ValueErrorType.Union: {
      const literals = enumValues(error.schema);
      if (literals) return new ValidationError(field, `must be one of: ${literals.join(', ')}`);
      return new ValidationError(field, 'has an invalid value');
    }
    case ValueErrorType.Object:
      return new ValidationError(field, field ? 'must be an object' : 'the body must be a JSON object');
    default:
      return new ValidationError(field, error.message.replace(/^Expected/, 'must be').toLowerCase());
  }
}

/** The values of a string enum schema, or undefined for any other schema. */
export function enumValues(schema: TSchema): string[] | undefined {
  const anyOf = (schema as Partial<TUnion>).anyOf;
  if (!anyOf || !anyOf.every((s) => s[Kind] === 'Literal' && typeof (s as TLiteral).const === 'string')) return undefined;
  return anyOf.map((s) => String((s as TLiteral).const));
}

/** A string enum: validated as a union of literals, emitted as `enum` in the OpenAPI document. */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}) {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as TUnion<{ [I in keyof T]: TLiteral<T[I]> }[number][]>;
}
