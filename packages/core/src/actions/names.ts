/**
 * Forgejo's rules for the names of Actions secrets and variables (`secret.ValidateName`, `envNameCIRegexMatch`), and
 * its bounds on names and values. Go compiles the name pattern with `(?i)`, which folds classes the Unicode way, so
 * `ſ` (long s) and `K` (Kelvin sign) pass as letters; the `u` flag makes these patterns fold alike.
 */
import { BadRequestError, ValidationError } from '../errors.js';

/** Letters, digits and `_`, not starting with a digit; any case. */
const NAME = /^[A-Z_][A-Z0-9_]*$/iu;
/** Forgejo's reserved prefixes (and a leading digit, which NAME refuses already). */
const RESERVED_PREFIX = /^(?:FORGEJO_|GITEA_|GITHUB_|[0-9])/iu;
/** A variable may not be named `CI` (the runner sets it). */
const CI = /^CI$/iu;

/** The name column's size (Forgejo's VARCHAR(255); its forms say `MaxSize(255)`). */
export const NAME_MAX_LENGTH = 255;
/** The largest value, in characters: Forgejo's forms say `MaxSize(65535)` for secrets' and variables' data. */
export const DATA_MAX_LENGTH = 65535;

/** Forgejo's answer for a name its rules refuse (400). */
export const INVALID_NAME = 'invalid secret name';

/** Whether `name` passes Forgejo's rules for secret names (variables' add `assertVariableName`'s). */
export function isValidName(name: string): boolean {
  return name.length <= NAME_MAX_LENGTH && NAME.test(name) && !RESERVED_PREFIX.test(name);
}

/** A secret's name as given, or Forgejo's 400. */
export function assertSecretName(name: string): void {
  if (!isValidName(name)) throw new BadRequestError(INVALID_NAME);
}

/** A variable's name as given, or Forgejo's 400: a secret's rules, and not `CI`. */
export function assertVariableName(name: string): void {
  assertSecretName(name);
  if (CI.test(name)) throw new BadRequestError('env name cannot be ci');
}

/**
 * The stored spelling of a name: Go's `strings.ToUpper`, which maps each character to one character (so `ſ` becomes
 * `S`, and `ß` stays `ß` where JavaScript's full mapping would write `SS`).
 */
export function storedName(name: string): string {
  if (/^[\x20-\x7e]*$/.test(name)) return name.toUpperCase();
  let upper = '';
  for (const char of name) {
    const mapped = char.toUpperCase();
    upper += [...mapped].length === 1 ? mapped : char;
  }
  return upper;
}

/**
 * The stored name a path's name would find, or undefined when no stored name can be it (every stored name passed
 * the rules and was upper-cased), so that a lookup of anything else asks nothing of the database.
 */
export function lookupName(name: string): string | undefined {
  const stored = storedName(name);
  return stored.length <= NAME_MAX_LENGTH && NAME.test(stored) ? stored : undefined;
}

/** A value within Forgejo's bound (counted in characters, as Go's `MaxSize` counts runes), or 422. */
export function assertDataSize(field: string, data: string): void {
  if (data.length <= DATA_MAX_LENGTH) return;
  let characters = 0;
  for (let i = 0; i < data.length; i++) {
    const unit = data.charCodeAt(i);
    // The second half of a surrogate pair is the same character.
    if (unit < 0xdc00 || unit > 0xdfff || i === 0 || data.charCodeAt(i - 1) < 0xd800 || data.charCodeAt(i - 1) > 0xdbff) characters++;
  }
  if (characters > DATA_MAX_LENGTH) throw new ValidationError(field, `MaxSize(${DATA_MAX_LENGTH})`);
}

/** Forgejo's `ReserveLineBreakForTextarea`: CRLF becomes LF; everything else is kept as it is. */
export function normalizeLineEndings(data: string): string {
  return data.replaceAll('\r\n', '\n');
}
