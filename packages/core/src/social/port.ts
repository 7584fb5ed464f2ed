import type { Expression, SqlBool } from 'kysely';
import type { StoreScope } from '../storage/store.js';
import { BlocksStore, repoListCondition } from './store.js';
import type { RepoListFilter } from './types.js';

/**
 * What other domains may read of the social relations: blocks (which refuse collaborations, team memberships and
 * transfers), and the filter the starred and watched lists share. The social stores stay private to this folder.
 */
export class SocialPort {
  constructor(private readonly scope: StoreScope) {}

  private get blocks(): BlocksStore {
    return this.scope.store(BlocksStore);
  }

  /** The WHERE the starred and watched lists share, over `repository` and its owner joined as `owner`. */
  static repoListCondition(eb: unknown, filter: RepoListFilter): Expression<SqlBool> {
    return repoListCondition(eb, filter);
  }

  /** Has `blockerId` blocked `userId`? (an organization refusing a member, a recipient refusing a transfer) */
  isBlocked(blockerId: number, userId: number): Promise<boolean> {
    return this.blocks.isBlocked(blockerId, userId);
  }

  /** Has either of the two blocked the other? (a collaboration is refused either way) */
  eitherBlocked(a: number, b: number): Promise<boolean> {
    return this.blocks.eitherBlocked(a, b);
  }
}
