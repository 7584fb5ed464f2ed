/**
 * A repository's topics, which the topics domain keeps: generating from a template repository copies them. Topics
 * sit above repos, so repos declares the call and the topics domain provides it (`repos.topics`). It runs where
 * repos makes it, after the generated repository is committed, in its own transaction.
 */
import type { Actor } from '../users/index.js';
import type { RepoAccess } from './access.js';

export interface RepoTopics {
  /** Replaces the repository's topics (normalized; too many or an invalid one is a 422 and nothing changes). */
  replace(actor: Actor, access: RepoAccess, input: { topics?: string[] }): Promise<void>;
}

declare module '../context.js' {
  interface CoreProviders {
    'repos.topics': RepoTopics;
  }
}
