/**
 * The remote folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { hostMatcher, type HostMatcher } from './allowed-hosts.js';
export { describeRemoteFailure, prepareRemote } from './git-access.js';
export { RemoteAddressError, checkRemoteAddress, decryptRemoteCredentials, encryptRemoteCredentials, followRemoteRedirects, gitRemoteOptions, openRemoteRequest, redactCredentials, rekeyRemoteCredentials, remoteRequest, type CheckedRemote, type RemoteCredentials, type RemoteResponse, type RemoteStreamResponse } from './remote.js';
