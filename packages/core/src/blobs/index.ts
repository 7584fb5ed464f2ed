/**
 * The blobs folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { parseByteRange, type RangeAnswer } from './range.js';
export { BLOB_SPACES, BlobsService, type BlobSpace } from './service.js';
export { BlobTooLargeError, ObjectStorageUnavailableError, type BlobSource, type BlobStorage } from './storage.js';
export { STORAGE_KINDS, resolveBlobStorages, type LocalStorageConfig, type ObjectStorageConfig, type StorageConfig, type StorageKind } from './config.js';
