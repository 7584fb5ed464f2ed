/**
 * Issue subscriptions (`/repos/{owner}/{repo}/issues/{index}/subscriptions`), as Forgejo's `issue_watch`: an
 * explicit subscription or unsubscription decides; without one, an account follows an issue it posted or
 * commented on, or whose repository it watches (`CheckIssueWatch`).
 */
import { ReposPort } from '../repos/index.js';
import type { CoreContext } from '../context.js';
import { ForbiddenError } from '../errors.js';
import { isSiteAdmin, signedInUser, type Actor } from '../users/index.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { nowUnix } from '../storage/index.js';
import type { RepoAccess } from '../repos/index.js';
import type { Issue } from '../issues/index.js';
import type { User } from '../users/index.js';
import { userVisibilityFilter } from '../users/index.js';
import { apiUrl } from '../urls.js';
import { isoTime, type ApiView } from '../wire.js';
import { repoWebPath } from '../repos/index.js';
import type { ApiWatchInfo } from '../social/index.js';
import { IssueWatchesStore } from './store.js';

/** What `PUT`/`DELETE …/subscriptions/{user}` did: Forgejo answers 201 for a change, 200 when there was none. */
export type SubscriptionChange = 'changed' | 'unchanged';

export class IssueSubscriptionsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): IssueWatchesStore {
    return this.ctx.store(IssueWatchesStore);
  }

  /** Does `user` follow `issue`? An explicit choice first; else posting, commenting or watching the repository. */
  async isSubscribed(user: User, issue: Issue): Promise<boolean> {
    const explicit = await this.store.find(user.id, issue.id);
    if (explicit) return explicit.is_watching === 1;
    if (issue.poster_id === user.id) return true;
    if (await this.ctx.port(ReposPort).isWatching(user.id, issue.repo_id)) return true;
    return this.store.hasCommented(user.id, issue.id);
  }

  /** `GET …/subscriptions/check`: the caller's subscription, as a WatchInfo. */
  async check(actor: Actor, access: RepoAccess, issue: Issue, view: ApiView): Promise<ApiWatchInfo> {
    const subscribed = await this.isSubscribed(signedInUser(actor), issue);
    const repositoryUrl = apiUrl(view.settings, `/repos/${repoWebPath(access.owner, access.repo)}`);
    return {
      subscribed,
      ignored: !subscribed,
      reason: null,
      // As Forgejo: the issue's creation, not the subscription's.
      created_at: isoTime(issue.created_unix),
      url: `${repositoryUrl}/issues/${issue.index}/subscriptions`,
      repository_url: repositoryUrl,
    };
  }

  /**
   * `PUT` (`watch`) or `DELETE` (`!watch`) `…/subscriptions/{user}`: the caller for itself, site administrators
   * for anyone (403 otherwise, as Forgejo). Nothing changes when the account already is where it is asked to be.
   */
  async set(actor: Actor, issue: Issue, target: User, watch: boolean): Promise<SubscriptionChange> {
    const me = signedInUser(actor);
    if (target.id !== me.id && !isSiteAdmin(actor)) throw new ForbiddenError(`${me.name} is not permitted to change subscriptions for ${target.name}`);
    if ((await this.isSubscribed(target, issue)) === watch) return 'unchanged';
    await this.store.set(target.id, issue.id, watch, nowUnix());
    return 'changed';
  }

  /** `GET …/subscriptions`: the active accounts that subscribed explicitly, those `actor` may see. */
  listSubscribers(actor: Actor, issue: Issue, paging?: Paging): Promise<Page<User>> {
    return this.store.listSubscribers(issue.id, userVisibilityFilter(actor), clampPage(this.ctx.settings, paging));
  }
}
