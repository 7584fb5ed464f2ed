/**
 * The commits folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { showsSignature, toApiVerification, type CommitView } from './convert.js';
export { commitsDomain } from './domain.js';
export { CommitsPort } from './port.js';
export { CommitMetaSchema, CommitSchema, CommitUserSchema, PayloadCommitVerificationSchema, PayloadUserSchema, type ApiCommitUser, type ApiPayloadCommitVerification } from './schemas.js';
export { CommitsService, type CommitListPage } from './service.js';
export { type StatusListener } from './status-listener.js';
export { CommitStatusesService } from './statuses.js';
export { CommitVerifier } from './verification.js';
