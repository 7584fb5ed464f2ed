/**
 * The gitdata folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { parseCommitObject } from './convert.js';
export { CommitUserSchema, PayloadCommitVerificationSchema, TagArchiveDownloadCountSchema, type ApiPayloadCommitVerification } from './schemas.js';
export { GitDataService, type RawFile } from './service.js';
export { SNIFF_BYTES, sniffServedType, type ServedType } from './sniff.js';
