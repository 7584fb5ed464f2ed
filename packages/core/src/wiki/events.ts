import type { Actor, User } from '../users/index.js';
import type { Repository } from '../repos/index.js';

/** Forgejo's `HookWikiAction`. */
export type WikiAction = 'created' | 'edited' | 'deleted';

/** A page written through the API (Forgejo's NewWikiPage, EditWikiPage, DeleteWikiPage notifications). */
export interface WikiChangedEvent {
  actor: Actor;
  repo: Repository;
  owner: User;
  action: WikiAction;
  /** The page's web path (its new one, after a rename). */
  page: string;
  /** The commit message given ('' for a deletion). */
  comment: string;
}

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** A wiki page was created, edited or deleted through the API (a push to the wiki announces nothing, as in Forgejo). */
    'wiki.changed': WikiChangedEvent;
  }
}

export {};
