import type { Actor, User } from '../users/index.js';
import type { VersionWithPackage } from './store.js';

/** Who acted, whose package, and the version (as it was when deleted). */
export interface PackageEventBase {
  actor: Actor;
  owner: User;
  version: VersionWithPackage;
  /** Deleted by its format's own registry route, which has updated what else the format keeps (Debian's index). */
  viaRegistry?: boolean;
}

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** A client's upload created a package version (Forgejo's PackageCreate; internal versions announce nothing). */
    'package.created': PackageEventBase;
    /** A version was deleted by someone (Forgejo's PackageDelete); cleanup rules and owner deletion announce nothing. */
    'package.deleted': PackageEventBase;
  }
}

export {};
