import { ValidationError } from '../errors.js';

/** Repository names: letters, digits, '-', '_', '.'; at most 100 characters; not reserved. */
const REPO_NAME = /^[A-Za-z0-9_.-]+$/;
export const REPO_NAME_MAX_LENGTH = 100;
const RESERVED_REPO_NAMES = new Set(['.', '..', '-']);
const RESERVED_REPO_SUFFIXES = ['.git', '.wiki', '.rss', '.atom'];

export function assertValidRepoName(name: unknown, field = 'name'): asserts name is string {
  if (typeof name !== 'string' || name === '') throw new ValidationError(field, 'Required');
  if (name.length > REPO_NAME_MAX_LENGTH) throw new ValidationError(field, `MaxSize(${REPO_NAME_MAX_LENGTH})`);
  if (!REPO_NAME.test(name)) throw new ValidationError(field, 'should contain only alphanumeric, dash (\'-\'), underscore (\'_\') and dot (\'.\') characters');
  const lower = name.toLowerCase();
  if (RESERVED_REPO_NAMES.has(lower)) throw new ValidationError(field, `name is reserved [name: ${name}]`);
  const suffix = RESERVED_REPO_SUFFIXES.find((s) => lower.endsWith(s));
  if (suffix) throw new ValidationError(field, `name pattern is not allowed [pattern: *${suffix}]`);
}

/**
 * Branch names git accepts (the rules of `git check-ref-format --branch`), at most 100 characters.
 */
export function assertValidBranchName(name: string, field = 'default_branch'): void {
  if (!isValidRefName(name, 100)) throw new ValidationError(field, 'is not a valid branch name');
}

/** A name git accepts as a branch or tag (`git check-ref-format`), of at most `maxLength` characters. */
export function isValidRefName(name: string, maxLength = 255): boolean {
  return !(
    name === '' ||
    name.length > maxLength ||
    name === '@' ||
    name.startsWith('-') ||
    name.startsWith('/') ||
    name.endsWith('/') ||
    name.endsWith('.') ||
    name.endsWith('.lock') ||
    name.includes('..') ||
    name.includes('//') ||
    name.includes('@{') ||
    name.split('/').some((part) => part.startsWith('.') || part.endsWith('.lock')) ||
    // eslint-disable-next-line no-control-regex
    /[\x00-\x20\x7f~^:?*[\\]/.test(name)
  );
}
