/**
 * The storage folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { containsText, isStorableText, isUniqueViolation, likeContaining, nowUnix, openStorage, type DialectName, type Storage } from './database.js';
export { isContention } from './contention.js';
export { DatabaseLocks, leaseOwnerGone, leaseOwnerOf, newLeaseOwner, renewLease, LockLostError, LockTimeoutError, type HeldLock, type LockOptions } from './locks.js';
export { hasMigrated, migrateStorage, migrateToLatest } from './migrator.js';
export { type Row, type Schema } from './schema.js';
export { Store, type StoreScope } from './store.js';
