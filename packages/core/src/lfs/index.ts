/**
 * The lfs folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { lfsDomain } from './domain.js';
export { blobKeyOf, cleanLockPath, isValidOid, isValidPointer, parsePointer, POINTER_MAX_BYTES, type LfsPointer } from './pointer.js';
export {
  LFS_MEDIA_TYPE,
  type ApiLfsLock,
  type ApiLfsLockList,
  type ApiLfsLockListVerify,
  type LfsBatchRequest,
  type LfsBatchResponse,
  type LfsLink,
  type LfsLockPaging,
  type LfsObjectResponse,
  type LfsOperation,
  type LfsTokenResponse,
} from './schemas.js';
export { LFS_SPACE } from './objects.js';
export { lfsEndpointOf, type RemoteLfsFetch, type RemoteLfsPush, type RemoteLfsResult } from './remote.js';
export { LfsLockExistsError, LfsService, RangeNotSatisfiableError, type LfsDownload } from './service.js';
export { type LfsLock, type LfsMetaObject, type LfsTables } from './tables.js';
