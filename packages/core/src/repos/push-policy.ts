/**
 * What a push is checked against beyond permissions: branch and tag protection. Protection sits above repos (its
 * rules name branches, teams and commit verification), so repos declares what the git transfer asks here and the
 * protection domain provides it (`repos.pushPolicy`). The call is made where the transfer made it, before git runs.
 */
import type { Actor } from '../users/index.js';
import type { RepoKey } from '../git/index.js';
import type { RepoAccess } from './access.js';

/** A push's registration with the endpoint: what the hook is given, and the call that forgets it. */
export interface PushCheck {
  callback: { endpoint: string; token: string };
  close(): void;
}

/** Who is pushing, beyond the actor: a deploy key pushes as the repository's owner but is judged as a key. */
export interface PusherKind {
  deployKey?: boolean;
}

export interface PushPolicy {
  /**
   * Prepares the check of a push about to run: undefined when the repository has no rule (the hook then asks
   * nothing), else the callback to hand to receive-pack. `close` it once git has exited.
   */
  openPushCheck(actor: Actor, access: RepoAccess, key: RepoKey, pusher?: PusherKind): Promise<PushCheck | undefined>;
}

declare module '../context.js' {
  interface CoreProviders {
    'repos.pushPolicy': PushPolicy;
  }
}
