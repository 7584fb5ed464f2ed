import { FormatRegistry, Kind, Type, type Static, type TSchema, type TLiteral, type TUnion } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { ValidationError } from '../errors.js';

// String formats our schemas use. Pure checks, so registering them in TypeBox's shared registry is harmless.
if (!FormatRegistry.Has('email')) FormatRegistry.Set('email', (v) => /^[^\s@]+@[^\s@]+$/.test(v));
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(v) && !Number.isNaN(Date.parse(v)));

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkerFor<T extends TSchema>(schema: T): TypeCheck<T> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check as TypeCheck<T>;
}

/**
 * Validates `input` against `schema` and returns it typed. Object field names match case-insensitively, as
 * Go's JSON decoder does (an exact match wins), and unknown fields are dropped. The first problem becomes a
 * ValidationError naming the field by its wire name.
 */
export function parseInput<T extends TSchema>(schema: T, input: unknown): Static<T> {
  const value = normalizeKeys(schema, input);
  const check = checkerFor(schema);
  if (check.Check(value)) {
    const nul = findNul(value, '');
    if (nul !== undefined) throw new ValidationError(nul, 'must not contain NUL characters');
    return value as Static<T>;
  }
  const first = check.Errors(value).First();
  throw toValidationError(first);
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
  return checkerFor(schema).Check(value);
}

/** Human-readable list of mismatches, for test failure messages. */
export function schemaErrors(schema: TSchema, value: unknown): string[] {
  return [...checkerFor(schema).Errors(value)].slice(0, 10).map((e) => `${e.path || '/'}: ${e.message}`);
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

function enumValues(schema: TSchema): string[] | undefined {
  const anyOf = (schema as Partial<TUnion>).anyOf;
  if (!anyOf || !anyOf.every((s) => s[Kind] === 'Literal')) return undefined;
  return anyOf.map((s) => String((s as TLiteral).const));
}

/** Renames keys to the schema's spelling where they differ only in case; drops keys the schema does not know. */
export function normalizeKeys(schema: TSchema, input: unknown): unknown {
  if (input === null || typeof input !== 'object') return input;
  const kind = schema[Kind];
  if (kind === 'Array' && Array.isArray(input)) {
    const items = (schema as unknown as { items: TSchema }).items;
    return input.map((v) => normalizeKeys(items, v));
  }
  if (kind === 'Union') {
    const member = (schema as TUnion).anyOf.find((s) => s[Kind] === (Array.isArray(input) ? 'Array' : 'Object'));
    return member ? normalizeKeys(member, input) : input;
  }
  if (kind !== 'Object' || Array.isArray(input)) return input;
  const properties = (schema as unknown as { properties: Record<string, TSchema> }).properties;
  const byLower = new Map<string, string>();
  for (const name of Object.keys(properties)) byLower.set(name.toLowerCase(), name);
  const out: Record<string, unknown> = {};
  const source = input as Record<string, unknown>;
  for (const [key, value] of Object.entries(source)) {
    // Own properties only: `__proto__`, `constructor`, … are unknown fields like any other.
    const name = Object.hasOwn(properties, key) ? key : byLower.get(key.toLowerCase());
    if (!name || (name !== key && Object.hasOwn(source, name))) continue;
    out[name] = normalizeKeys(properties[name]!, value);
  }
  return out;
}

/** A string enum: validated as a union of literals, emitted as `enum` in the OpenAPI document. */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}) {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as TUnion<{ [I in keyof T]: TLiteral<T[I]> }[number][]>;
}
