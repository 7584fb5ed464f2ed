import { PullsPort } from '../pulls/index.js';
import '../pulls/index.js';
import type { CoreContext, CoreTransaction } from '../context.js';
import type { DomainEvent } from '../events/index.js';
import { ANONYMOUS, actorUser, isSelf, isSiteAdmin, userActor, type Actor } from '../users/index.js';
import { AccessMode, NO_GRANTS, repoPermission, unitMode, type UnitName } from '../access/index.js';
import { AccessPort } from '../access/index.js';
import { AccessService } from '../access/index.js';
import type { Team } from '../orgs/index.js';
import type { LoggedCommit, RefUpdate } from '../git/index.js';
import type { Page, PageRequest } from '../paging.js';
import { nowUnix } from '../storage/index.js';
import { UsersPort } from '../users/index.js';
import { isOrganization, type User } from '../users/index.js';
import { ReposPort } from '../repos/index.js';
import { WatchMode } from '../repos/index.js';
import { searchVisibility } from '../repos/index.js';
import type { RepoAccess } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import '../repos/index.js';
import '../social/index.js';
import '../comments/index.js';
import '../releases/index.js';
import type { IssueEventBase } from '../issues/index.js';
import { ActivityStore, type ActUserRule, type FeedFilter, type HeatmapBucket } from './store.js';
import { OpType, type Action, type NewAction } from './tables.js';
import type { ActivityEntry } from './convert.js';
import { goJson, toPushCommit, type PushCommitsJson } from './push-content.js';
import { parseCommitObject } from '../gitdata/index.js';
import type { RepoActivityFeedsQuery, UserActivityFeedsQuery } from './schemas.js';

/**
 * Op types whose feed rows go only to watchers who may read the unit they are about (Forgejo's NotifyWatchers):
 * code changes to code readers, issue changes to issue readers.
 */
const GATED_OPS: ReadonlyMap<number, UnitName> = new Map([
  [OpType.CommitRepo, 'repo.code'],
  [OpType.PushTag, 'repo.code'],
  [OpType.DeleteTag, 'repo.code'],
  [OpType.DeleteBranch, 'repo.code'],
  [OpType.CreateIssue, 'repo.issues'],
  [OpType.CommentIssue, 'repo.issues'],
  [OpType.CloseIssue, 'repo.issues'],
  [OpType.ReopenIssue, 'repo.issues'],
  [OpType.CreatePullRequest, 'repo.pulls'],
  [OpType.MergePullRequest, 'repo.pulls'],
  [OpType.ClosePullRequest, 'repo.pulls'],
  [OpType.ReopenPullRequest, 'repo.pulls'],
  [OpType.CommentPull, 'repo.pulls'],
  [OpType.PublishRelease, 'repo.releases'],
]);

/** How much of a comment an issue feed entry keeps (Forgejo's 200 runes). */
const COMMENT_EXCERPT = 200;

/** A new branch's entry lists at most this many of its commits (Forgejo's `CommitsBeforeLimit(10)`). */
const NEW_BRANCH_COMMITS = 10;
/** A push's commits are counted (`Len`) up to this many; git stops walking there. */
const PUSH_COUNT_LIMIT = 10_000;
/** A tagged commit's object is read whole to take its headers and message; far above any real commit. */
const TAGGED_COMMIT_MAX_BYTES = 4 * 1024 * 1024;
/** The heatmap covers the last year (Forgejo: created after now − 31536000 s). */
const HEATMAP_SECONDS = 31_536_000;

/** One action before it is written to the feeds it reaches. */
type Pending = Omit<NewAction, 'user_id'>;

/**
 * Activity feeds (Forgejo's `action` table): what happened to repositories, written once per feed it reaches
 * (the doer's, the repository owner's and its watchers'), read back per account, per repository and as a heatmap.
 */
export class ActivityService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): ActivityStore {
    return this.ctx.store(ActivityStore);
  }

  /**
   * Records actions from domain events, once per host. Changes made in one transaction get their actions in that
   * transaction; pushes after they commit, since reading their commits needs git.
   */
  subscribe(): void {
    const events = this.ctx.events;
    events.withinTransaction('repo.created', async ({ payload, occurredUnix }, tx) => {
      const { repo, owner, actor } = payload;
      await this.fanOut(tx, repo, owner, [this.pending(OpType.CreateRepo, actor, owner, repo, occurredUnix)]);
    });
    events.withinTransaction('repo.renamed', async ({ payload, occurredUnix }, tx) => {
      const { repo, owner, actor, oldName } = payload;
      await this.fanOut(tx, repo, owner, [this.pending(OpType.RenameRepo, actor, owner, repo, occurredUnix, { content: oldName })]);
    });
    events.withinTransaction('repo.transferred', async ({ payload, occurredUnix }, tx) => {
      const { repo, owner, previousOwner, actor } = payload;
      const content = `${previousOwner.name}/${repo.name}`;
      await this.fanOut(tx, repo, owner, [this.pending(OpType.TransferRepo, actor, owner, repo, occurredUnix, { content })]);
    });
    events.withinTransaction('repo.starred', async ({ payload, occurredUnix }, tx) => {
      const { user, repo } = payload;
      const owner = await tx.port(UsersPort).byId(repo.owner_id);
      if (!owner) return;
      await this.fanOut(tx, repo, owner, [this.pending(OpType.StarRepo, userActor(user), owner, repo, occurredUnix)]);
    });
    events.withinTransaction('repo.edited', async ({ payload }, tx) => {
      if (payload.repo.is_private !== payload.previous.is_private) {
        await tx.store(ActivityStore).setPrivacyOfRepo(payload.repo.id, payload.repo.is_private === 1);
      }
    });
    events.on('repo.pushed', (event) => this.recordPush(event));
    // Forgejo's publish_release: the release's title, its tag as the ref.
    events.withinTransaction('release.published', async ({ payload, occurredUnix }, tx) => {
      const { repo, owner, release } = payload;
      const extra = { content: release.title, ref_name: release.tag_name };
      await this.fanOut(tx, repo, owner, [this.pending(OpType.PublishRelease, payload.actor, owner, repo, occurredUnix, extra)]);
    });
    this.subscribeIssueEvents();
  }

  /**
   * Issues and pull requests opened, closed, reopened and merged, and comments, in the feeds of the doer, the
   * owner and the watchers who may read them. A merge closes the issue side too; its entry is the merge.
   */
  private subscribeIssueEvents(): void {
    const events = this.ctx.events;
    const record = async (tx: CoreTransaction, base: IssueEventBase, [issueOp, pullOp]: readonly [number, number], occurredUnix: number, extra: Partial<Pending>) => {
      if (base.issue.is_pull && issueOp === OpType.CloseIssue && (await tx.port(PullsPort).byIssueId(base.issue.id))?.has_merged) return;
      const opType = base.issue.is_pull ? pullOp : issueOp;
      await this.fanOut(tx, base.repo, base.owner, [this.pending(opType, base.actor, base.owner, base.repo, occurredUnix, extra)]);
    };
    const titled = (base: IssueEventBase) => ({ content: `${base.issue.index}|${base.issue.name}` });
    events.withinTransaction('issue.created', ({ payload, occurredUnix }, tx) => record(tx, payload, [OpType.CreateIssue, OpType.CreatePullRequest], occurredUnix, titled(payload)));
    events.withinTransaction('issue.closed', ({ payload, occurredUnix }, tx) => record(tx, payload, [OpType.CloseIssue, OpType.ClosePullRequest], occurredUnix, titled(payload)));
    events.withinTransaction('issue.reopened', ({ payload, occurredUnix }, tx) => record(tx, payload, [OpType.ReopenIssue, OpType.ReopenPullRequest], occurredUnix, titled(payload)));
    events.withinTransaction('pull.merged', ({ payload, occurredUnix }, tx) => record(tx, payload, [OpType.MergePullRequest, OpType.MergePullRequest], occurredUnix, titled(payload)));
    events.withinTransaction('comment.created', ({ payload, occurredUnix }, tx) =>
      record(tx, payload, [OpType.CommentIssue, OpType.CommentPull], occurredUnix, {
        content: `${payload.issue.index}|${[...payload.comment.content].slice(0, COMMENT_EXCERPT).join('')}`,
        comment_id: payload.comment.id,
      }),
    );
  }

  private pending(opType: number, actor: Actor, owner: User, repo: Repository, createdUnix: number, extra: Partial<Pending> = {}): Pending {
    // The server itself (CLI, start-up repair) acts for the owner.
    const doer = actorUser(actor) ?? owner;
    return { op_type: opType, act_user_id: doer.id, repo_id: repo.id, is_private: repo.is_private, created_unix: createdUnix, ...extra };
  }

  /**
   * Writes actions of one repository to every feed they reach, in one statement: the doer's, the owner's, and
   * those of the watchers (for code changes, the watchers who may read the repository).
   */
  private async fanOut(tx: CoreTransaction, repo: Repository, owner: User, all: readonly Pending[]): Promise<void> {
    // What a system account does (the Actions user of a workflow's token) has no account row a feed could show.
    const actions = all.filter((action) => action.act_user_id > 0);
    if (actions.length === 0) return;
    const watcherIds = await tx.port(ReposPort).watcherIds(repo.id, [WatchMode.Normal, WatchMode.Auto]);
    // Per gated unit, the watchers who may read it.
    const readers = new Map<UnitName, Set<number>>();
    const gated = [...new Set(actions.map((a) => GATED_OPS.get(a.op_type)).filter((u): u is UnitName => u !== undefined))];
    if (watcherIds.length > 0 && gated.length > 0) {
      const watchers = await tx.port(UsersPort).byIds(watcherIds);
      const grants = await tx.port(AccessPort).grantsOfUsers([...watchers.keys()], repo.id, owner.id);
      const permissions = [...watchers.values()].map((w) => ({ id: w.id, permission: repoPermission(userActor(w), repo, owner, grants.get(w.id) ?? NO_GRANTS) }));
      for (const unit of gated) readers.set(unit, new Set(permissions.filter((p) => unitMode(p.permission, unit) >= AccessMode.Read).map((p) => p.id)));
    }
    const rows: NewAction[] = [];
    for (const action of actions) {
      const receivers = new Set<number>([action.act_user_id]);
      // Forgejo writes the owner's row for organizations; an individual owner's comes from watching, and is
      // written here whether or not they still watch.
      receivers.add(owner.id);
      for (const id of watcherIds) {
        const unit = GATED_OPS.get(action.op_type);
        if (unit === undefined || readers.get(unit)?.has(id)) receivers.add(id);
      }
      for (const userId of receivers) rows.push({ ...action, user_id: userId });
    }
    await tx.store(ActivityStore).insertMany(rows);
  }

  /** After a push committed: one action per ref it moved, with the commits git reads for it. */
  private async recordPush(event: DomainEvent<'repo.pushed'>): Promise<void> {
    const { repo, owner, actor, updates } = event.payload;
    const actions: Pending[] = [];
    for (const update of updates) {
      let action: { opType: number; content: string } | undefined;
      try {
        action = await this.pushAction(repo, owner, update);
      } catch (error) {
        // A ref git cannot walk (a tag of a tree, objects gone): that ref has no entry, the others still do.
        console.error(`[repohost] no feed entry for ${update.ref} of ${owner.name}/${repo.name}:`, error);
        continue;
      }
      if (action) actions.push(this.pending(action.opType, actor, owner, repo, event.occurredUnix, { ref_name: update.ref, content: action.content }));
    }
    if (actions.length === 0) return;
    await this.ctx.transaction(async (tx) => {
      // Deleted since the push: its actions went with it.
      const current = await tx.port(ReposPort).byId(repo.id);
      if (!current) return;
      await this.fanOut(tx, current, owner, actions.map((a) => ({ ...a, is_private: current.is_private })));
    });
  }

  /** What one ref update shows in feeds, as Forgejo's push handling and feed notifier write it. */
  private async pushAction(repo: Repository, owner: User, update: RefUpdate): Promise<{ opType: number; content: string } | undefined> {
    const key = { owner: owner.lower_name, name: repo.lower_name };
    const zero = '0'.repeat(update.newId.length);
    const deleted = update.newId === zero;
    const created = update.oldId === zero;
    const compareUrl = (from: string, to: string) => `${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}/compare/${from}...${to}`;
    if (update.ref.startsWith('refs/tags/')) {
      if (deleted) return { opType: OpType.DeleteTag, content: goJson(emptyPushCommits()) };
      // The tagged commit, read over the repository's long-lived object reader: no process per pushed tag.
      const tagged = await this.ctx.git.readObject(key, `${update.newId}^{commit}`, { maxBytes: TAGGED_COMMIT_MAX_BYTES });
      const head = tagged?.type === 'commit' ? parseCommitObject(tagged.id, tagged.content) : undefined;
      if (!head) return undefined;
      const content: PushCommitsJson = { Commits: null, HeadCommit: toPushCommit(head), CompareURL: compareUrl(zero, update.newId), Len: 0 };
      return { opType: OpType.PushTag, content: goJson(content) };
    }
    if (!update.ref.startsWith('refs/heads/')) return undefined;
    if (deleted) return { opType: OpType.DeleteBranch, content: '' };
    const feedMax = Math.max(0, this.ctx.settings.ui.FEED_MAX_COMMIT_NUM);
    const log = created
      ? await this.ctx.git.commitLog(key, { head: update.newId, detailed: NEW_BRANCH_COMMITS, countLimit: NEW_BRANCH_COMMITS })
      : await this.ctx.git.commitLog(key, { head: update.newId, exclude: update.oldId, detailed: feedMax, countLimit: PUSH_COUNT_LIMIT });
    let head: LoggedCommit | undefined = log.commits[0]?.id === update.newId ? log.commits[0] : undefined;
    // A branch moved back to an ancestor lists no commits, but its entry still names the head.
    head ??= (await this.ctx.git.commitLog(key, { head: update.newId, detailed: 1, countLimit: 1 })).commits[0];
    let from = update.oldId;
    if (created) {
      const oldest = log.commits[log.commits.length - 1];
      const parent = oldest?.parents.find((p) => p !== zero);
      if (parent) from = parent;
      else if (repo.default_branch !== update.ref.slice('refs/heads/'.length)) from = repo.default_branch;
    }
    const content: PushCommitsJson = {
      Commits: log.commits.slice(0, feedMax).map(toPushCommit),
      HeadCommit: head ? toPushCommit(head) : null,
      CompareURL: from === zero ? '' : compareUrl(from, update.newId),
      Len: log.count,
    };
    return { opType: OpType.CommitRepo, content: goJson(content) };
  }

  /** `GET /users/{username}/activities/feeds`: what `user`'s feed shows `actor`, newest first. */
  async userFeed(actor: Actor, user: User, query: UserActivityFeedsQuery, page: PageRequest): Promise<Page<ActivityEntry>> {
    const filter: FeedFilter = {
      ...this.viewerRules(actor),
      ...dayRange(query.date),
      receiverId: user.id,
      performerId: query['only-performed-by'] ? user.id : undefined,
      // Actions on private repositories are listed to the account itself and to site administrators only.
      includePrivate: !isPublicOnly(actor) && (isSiteAdmin(actor) || isSelf(actor, user)),
    };
    return this.load(actor, await this.store.feed(filter, page));
  }

  /**
   * What an account did that anyone may see, as federation publishes it (`/activitypub/user-id/{id}/outbox`, and one
   * of them by id): the rows of its own feed it performed, on repositories public when it happened, newest first.
   */
  async ownPublicActions(user: User, page: PageRequest, actionId?: number): Promise<Page<ActivityEntry>> {
    const filter: FeedFilter = { ...this.viewerRules(ANONYMOUS), receiverId: user.id, performerId: user.id, ownRowsOnly: true, includePrivate: false, actionId };
    return this.load(ANONYMOUS, await this.store.feed(filter, page));
  }

  /**
   * `GET /orgs/{org}/activities/feeds`: what happened in the organization's repositories (its own feed); actions on
   * private ones only for its members and site administrators, as Forgejo lists them.
   */
  async orgFeed(actor: Actor, org: User, query: RepoActivityFeedsQuery, page: PageRequest): Promise<Page<ActivityEntry>> {
    const member = isSiteAdmin(actor) || (await this.ctx.service(AccessService).isMember(actor, org));
    const filter: FeedFilter = {
      ...this.viewerRules(actor),
      ...dayRange(query.date),
      receiverId: org.id,
      includePrivate: !isPublicOnly(actor) && member,
    };
    return this.load(actor, await this.store.feed(filter, page));
  }

  /** `GET /teams/{id}/activities/feeds`: the organization's feed narrowed to the team's repositories. */
  async teamFeed(actor: Actor, org: User, team: Pick<Team, 'id'>, query: RepoActivityFeedsQuery, page: PageRequest): Promise<Page<ActivityEntry>> {
    const filter: FeedFilter = {
      ...this.viewerRules(actor),
      ...dayRange(query.date),
      receiverId: org.id,
      teamId: team.id,
      includePrivate: !isPublicOnly(actor),
    };
    return this.load(actor, await this.store.feed(filter, page));
  }

  /** `GET /repos/{owner}/{repo}/activities/feeds`: a repository's actions, once each, newest first. */
  async repoFeed(actor: Actor, access: RepoAccess, query: RepoActivityFeedsQuery, page: PageRequest): Promise<Page<ActivityEntry>> {
    const filter: FeedFilter = {
      ...this.viewerRules(actor),
      ...dayRange(query.date),
      repoId: access.repo.id,
      ownRowsOnly: true,
      includePrivate: true,
    };
    return this.load(actor, await this.store.feed(filter, page));
  }

  /**
   * `GET /users/{username}/heatmap`: what `user` did in the last year, per 15 minutes. Empty when the user hides
   * their activity from `actor`.
   */
  async heatmap(actor: Actor, user: User): Promise<HeatmapBucket[]> {
    if (user.keep_activity_private === 1 && !isSiteAdmin(actor) && !isSelf(actor, user)) return [];
    // Organizations will count every action in their repositories; an account counts what it did itself.
    const performerId = isOrganization(user) ? undefined : user.id;
    return this.store.heatmap({
      ...this.viewerRules(actor),
      receiverId: user.id,
      performerId,
      includePrivate: true,
      createdFrom: nowUnix() - HEATMAP_SECONDS + 1,
    });
  }

  /** Which repositories' and whose actions `actor` may see. */
  private viewerRules(actor: Actor): Pick<FeedFilter, 'repos' | 'actUsers'> {
    return { repos: searchVisibility(actor, true), actUsers: actUserRule(actor) };
  }

  /** A page's accounts and repositories, in one query each. */
  private async load(actor: Actor, page: Page<Action>): Promise<Page<ActivityEntry>> {
    if (page.items.length === 0) return { items: [], total: page.total };
    const repos = await this.store.repositories(page.items.map((a) => a.repo_id));
    const users = await this.ctx.port(UsersPort).byIds([...page.items.map((a) => a.act_user_id), ...[...repos.values()].map((r) => r.owner_id)]);
    const found: { action: Action; actUser: User; repo: Repository; owner: User }[] = [];
    for (const action of page.items) {
      const repo = repos.get(action.repo_id);
      const owner = repo && users.get(repo.owner_id);
      const actUser = users.get(action.act_user_id);
      // Deleted between the two reads: its actions are going too.
      if (!repo || !owner || !actUser) continue;
      found.push({ action, actUser, repo, owner });
    }
    const accesses = await this.ctx.service(AccessService).repoAccessMany(actor, found);
    return { items: found.map(({ action, actUser }, i) => ({ action, actUser, repo: accesses[i]! })), total: page.total };
  }
}

function isPublicOnly(actor: Actor): boolean {
  return actor.kind === 'anonymous' || (actor.kind === 'user' && actor.publicOnly);
}

function actUserRule(actor: Actor): ActUserRule {
  if (isSiteAdmin(actor) && !isPublicOnly(actor)) return { kind: 'any' };
  if (actor.kind !== 'user' || actor.publicOnly) return { kind: 'public' };
  return { kind: 'signed-in', userId: actor.user.id };
}

/** Forgejo's `PushCommits{}`: nothing listed. */
function emptyPushCommits(): PushCommitsJson {
  return { Commits: null, HeadCommit: null, CompareURL: '', Len: 0 };
}

/**
 * The day `date` names (`YYYY-MM-DD`, UTC) as inclusive unix bounds; nothing when absent or not a real day
 * (Forgejo ignores a date it cannot parse).
 */
export function dayRange(date: string | undefined): Pick<FeedFilter, 'createdFrom' | 'createdTo'> {
  const match = date === undefined ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return {};
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = Date.UTC(year, month - 1, day);
  const parsed = new Date(start);
  if (parsed.getUTCFullYear() !== year || parsed.getUTCMonth() !== month - 1 || parsed.getUTCDate() !== day) return {};
  const from = Math.floor(start / 1000);
  return { createdFrom: from, createdTo: from + 86_399 };
}
