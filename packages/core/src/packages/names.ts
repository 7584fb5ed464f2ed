/**
 * Forgejo's rules for generic package names, versions and file names (`services/packages/generic`): a name of
 * letters, digits and `-_+.` (not `..`, not one character that is neither letter nor digit); a file name of those
 * and `=:;()[]{}~!@#$%^&` and spaces, not padded with spaces, not `.` or `..`; a version not padded with spaces.
 */
import { BadRequestError } from '../errors.js';

const PACKAGE_NAME = /^[-_+.\p{L}\p{N}_]+$/u;
const FILE_NAME = /^[-_+=:;.()[\]{}~!@#$%^& \p{L}\p{N}_]+$/u;

export function isValidGenericName(name: string): boolean {
  if (name.length === 1 && !/^[\p{L}\p{N}]$/u.test(name)) return false;
  return PACKAGE_NAME.test(name) && name !== '..';
}

export function isValidGenericFileName(name: string): boolean {
  return FILE_NAME.test(name) && name.trim() === name && name !== '.' && name !== '..';
}

/** The three checks of a generic upload, in Forgejo's order, each a 400 with its message. */
export function assertGenericUpload(name: string, version: string, filename: string): void {
  if (!isValidGenericName(name)) throw new BadRequestError('invalid package name');
  if (!isValidGenericFileName(filename)) throw new BadRequestError('invalid filename');
  if (version === '' || version.trim() !== version) throw new BadRequestError('invalid package version');
}
