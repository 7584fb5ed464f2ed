/**
 * The federation folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { federationDomain } from './domain.js';
export {
  ACTIVITY_STREAMS_CONTENT_TYPE,
  ACTIVITY_STREAMS_CONTEXT,
  APRemoteFollowOptionSchema,
  ActivityPubSchema,
  ForgeLikeSchema,
  ForgeOutboxSchema,
  type APRemoteFollowOption,
  type ActivityPub,
  type ActorDocument,
  type ActorPublicKey,
  type ForgeLike,
  type ForgeOutbox,
} from './schemas.js';
export { FederationFetchError, FederationService, REMOTE_USER_TYPE, SIGNATURE_FAILED, type FederationRequest, type FederationSigner } from './service.js';
export { SignatureError, digestOf, parseSignatureHeader, signRequest, verifyDigest, verifySignature, type SignatureParams, type SignedRequest } from './signatures.js';
export type { FederatedUser, FederationHost, FederationKeypair, FederationTables } from './tables.js';
