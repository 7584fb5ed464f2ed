import { ForbiddenError } from '../errors.js';

/** Forgejo's answers (`models/packages`, `services/packages`), each with the status its routes give it. */
export const PACKAGE_NOT_EXIST = 'package does not exist';
export const PACKAGE_FILE_NOT_EXIST = 'package file does not exist';
export const DUPLICATE_PACKAGE_FILE = 'package file already exists';
export const DUPLICATE_PACKAGE_VERSION = 'package version already exists';
export const QUOTA_TOTAL_COUNT = 'maximum allowed package count exceeded';
export const QUOTA_TYPE_SIZE = 'maximum allowed package type size exceeded';
export const QUOTA_TOTAL_SIZE = 'maximum allowed package storage quota exceeded';
/** `reqPackageAccess`'s refusal. */
export const NO_PACKAGE_ACCESS = 'user should have specific permission or be a site admin';

/** A limit of `[packages]` refused an upload (Forgejo's `ErrQuotaTotalCount`, `ErrQuotaTypeSize`, `ErrQuotaTotalSize`: 403). */
export class PackageQuotaError extends ForbiddenError {
  constructor(message: string) {
    super(message);
    this.name = 'PackageQuotaError';
  }
}

/** The caller lacks the access mode the operation needs (Forgejo's `reqPackageAccess`). */
export class PackageAccessError extends ForbiddenError {
  constructor() {
    super(NO_PACKAGE_ACCESS);
    this.name = 'PackageAccessError';
  }
}
