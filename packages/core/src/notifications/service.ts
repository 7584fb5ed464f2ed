/**
 * Notification threads (`/notifications`, `/repos/{owner}/{repo}/notifications`), as Forgejo's `notification`:
 * one thread per account and issue, created or brought back to unread when something happens to the issue.
 *
 * Threads are written after the change committed (an `on` subscriber, as Forgejo queues them): a lost event loses
 * a notification, never the change. Each event costs a fixed number of queries whatever the number of recipients:
 * who follows the issue, who was mentioned, what each may read (one grants query for all), one upsert.
 */
import '../issues/index.js';
import '../comments/index.js';
import type { CoreContext } from '../context.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors.js';
import { actorUser, isSiteAdmin, signedInUser, userActor, type Actor } from '../users/index.js';
import { AccessPort } from '../access/index.js';
import { NO_GRANTS, repoPermission } from '../access/index.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { nowUnix } from '../storage/index.js';
import { ReposPort } from '../repos/index.js';
import { WATCHING_MODES } from '../repos/index.js';
import type { RepoAccess } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import { UserType, type User } from '../users/index.js';
import { IssuesPort } from '../issues/index.js';
import { IssuesService } from '../issues/index.js';
import type { IssueEventBase } from '../issues/index.js';
import type { Issue } from '../issues/index.js';
import type { LoadedNotification } from './convert.js';
import { findMentions } from './mentions.js';
import type { NotificationListQuery, NotificationMarkQuery } from './schemas.js';
import { IssueWatchesStore, NotificationsStore, type NotificationFilter } from './store.js';
import { NotificationSource, NotificationStatus, type NewNotification, type Notification } from './tables.js';

const STATUS_NAMES: ReadonlyMap<string, number> = new Map([
  ['unread', NotificationStatus.Unread],
  ['read', NotificationStatus.Read],
  ['pinned', NotificationStatus.Pinned],
]);

const SOURCE_NAMES: ReadonlyMap<string, number> = new Map([
  ['issue', NotificationSource.Issue],
  ['pull', NotificationSource.PullRequest],
  ['repository', NotificationSource.Repository],
]);

/** A status name as Forgejo reads it (trimmed, any case); undefined for anything else. */
function statusNamed(name: string | undefined): number | undefined {
  return name === undefined ? undefined : STATUS_NAMES.get(name.trim().toLowerCase());
}

/** The statuses named (unknown names dropped), `defaults` when none were given. */
function statusesNamed(names: readonly string[] | undefined, defaults: readonly string[]): number[] {
  const given = names && names.length > 0 ? names : defaults;
  return given.map(statusNamed).filter((s): s is number => s !== undefined);
}

function sourcesNamed(names: readonly string[] | undefined): number[] {
  return (names ?? []).map((n) => SOURCE_NAMES.get(n.toLowerCase())).filter((s): s is number => s !== undefined);
}

function unixOf(iso: string | undefined): number | undefined {
  if (iso === undefined) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** Who an event notifies: everyone following the issue, and/or some accounts by id or by `@name`. */
interface Recipients {
  followers: boolean;
  userIds?: readonly number[];
  mentionedIn?: string;
}

export class NotificationsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): NotificationsStore {
    return this.ctx.store(NotificationsStore);
  }

  /** Registers the fan-out of issue and comment events, and the clean-up of deleted issues, repositories, accounts. */
  subscribe(): void {
    const { events } = this.ctx;
    events.on('issue.created', ({ payload }) => this.notify(payload, 0, { followers: true, mentionedIn: payload.issue.content }));
    events.on('comment.created', ({ payload }) => this.notify(payload, payload.comment.id, { followers: true, mentionedIn: payload.comment.content }));
    events.on('issue.closed', ({ payload }) => this.notify(payload, 0, { followers: true }));
    events.on('issue.reopened', ({ payload }) => this.notify(payload, 0, { followers: true }));
    // A new assignee hears of it (Forgejo's IssueChangeAssignee); removals notify nobody.
    events.on('issue.assigned', ({ payload }) => (payload.added.length > 0 ? this.notify(payload, 0, { followers: false, userIds: payload.added }) : undefined));
    events.withinTransaction('issue.deleted', async ({ payload }, tx) => tx.store(NotificationsStore).deleteOfIssue(payload.issue.id));
    events.withinTransaction('repo.deleted', async ({ payload }, tx) => tx.store(NotificationsStore).deleteOfRepo(payload.repo.id));
    events.withinTransaction('user.deleted', async ({ payload }, tx) => {
      await tx.store(NotificationsStore).deleteOfUser(payload.user.id);
      await tx.store(IssueWatchesStore).deleteOfUser(payload.user.id);
    });
  }

  /**
   * Creates or refreshes the threads an event on an issue causes (Forgejo's `CreateOrUpdateIssueNotifications`):
   * for its followers (explicit subscribers, the repository's watchers, the poster and commenters, less those who
   * unsubscribed) and the accounts named, never for the one who acted nor for those who blocked them, and only for
   * accounts that may read the issue.
   */
  async notify({ actor, repo, owner, issue }: IssueEventBase, commentId: number, recipients: Recipients): Promise<void> {
    const doerId = actorUser(actor)?.id ?? 0;
    const watches = this.ctx.store(IssueWatchesStore);
    const ids = new Set<number>();
    if (recipients.followers) {
      const [subscribers, repoWatchers, commenters, unsubscribed] = await Promise.all([
        watches.userIds(issue.id, true),
        this.ctx.port(ReposPort).watcherIds(repo.id, WATCHING_MODES),
        watches.commenterIds(issue.id),
        watches.userIds(issue.id, false),
      ]);
      for (const id of [...subscribers, ...repoWatchers, issue.poster_id, ...commenters]) ids.add(id);
      for (const id of unsubscribed) ids.delete(id);
    }
    for (const id of recipients.userIds ?? []) ids.add(id);
    const users = new Map<number, User>();
    const mentioned = findMentions(recipients.mentionedIn ?? '');
    if (mentioned.length > 0) for (const user of await this.ctx.port(UsersPort).byLowerNames(mentioned)) users.set(user.id, user);
    for (const id of users.keys()) ids.add(id);
    ids.delete(doerId);
    if (ids.size === 0) return;
    if (doerId !== 0) for (const id of await watches.blockersAmong([...ids], doerId)) ids.delete(id);
    const missing = [...ids].filter((id) => !users.has(id));
    if (missing.length > 0) for (const [id, user] of await this.ctx.port(UsersPort).byIds(missing)) users.set(id, user);
    const readers = await this.readersOf(repo, owner, issue, [...ids].map((id) => users.get(id)).filter((u): u is User => u !== undefined && u.type === UserType.Individual));
    if (readers.length === 0) return;
    const now = nowUnix();
    const source = issue.is_pull ? NotificationSource.PullRequest : NotificationSource.Issue;
    const rows: NewNotification[] = readers.map((user) => ({
      user_id: user.id,
      repo_id: repo.id,
      status: NotificationStatus.Unread,
      source,
      issue_id: issue.id,
      comment_id: commentId,
      updated_by: doerId,
      created_unix: now,
      updated_unix: now,
    }));
    await this.store.upsertIssueThreads(rows);
  }

  /** Which of `users` may read the issue (its unit, issues or pull requests): one grants query for all. */
  private async readersOf(repo: Repository, owner: User, issue: Issue, users: readonly User[]): Promise<User[]> {
    if (users.length === 0) return [];
    const grants = await this.ctx.port(AccessPort).grantsOfUsers(users.map((u) => u.id), repo.id, owner.id);
    const issues = this.ctx.service(IssuesService);
    return users.filter((user) => {
      const access: RepoAccess = { repo, owner, ...repoPermission(userActor(user), repo, owner, grants.get(user.id) ?? NO_GRANTS) };
      return issues.mayRead(access, issue.is_pull);
    });
  }

  // ---- the API ----

  /** `GET /notifications` (and, with `access`, `GET /repos/{owner}/{repo}/notifications`): the caller's threads. */
  async list(actor: Actor, query: NotificationListQuery, paging?: Paging, access?: RepoAccess): Promise<Page<LoadedNotification>> {
    const me = signedInUser(actor);
    const filter: NotificationFilter = { userId: me.id, sources: sourcesNamed(query['subject-type']) };
    if (access) filter.repoId = access.repo.id;
    if (!query.all) filter.statuses = statusesNamed(query['status-types'], ['unread', 'pinned']);
    const since = unixOf(query.since);
    const before = unixOf(query.before);
    if (since !== undefined) filter.updatedSince = since;
    if (before !== undefined) filter.updatedBefore = before;
    const page = await this.store.list(filter, clampPage(this.ctx.settings, paging));
    return { items: await this.load(page.items), total: page.total };
  }

  /**
   * `PUT /notifications` (and, with `access`, `PUT /repos/{owner}/{repo}/notifications`): marks the caller's threads
   * (unread ones unless told which, or all) last updated before `last_read_at` as `to-status` (read by default).
   * Returns the threads it changed.
   */
  async mark(actor: Actor, query: NotificationMarkQuery, access?: RepoAccess): Promise<LoadedNotification[]> {
    const me = signedInUser(actor);
    const filter: NotificationFilter = { userId: me.id };
    if (access) filter.repoId = access.repo.id;
    const lastRead = query.last_read_at?.trim() ?? '';
    if (lastRead !== '') {
      const unix = unixOf(lastRead);
      if (unix === undefined || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(lastRead)) {
        throw new BadRequestError(`parsing time ${JSON.stringify(lastRead)} as "2006-01-02T15:04:05Z07:00": cannot parse`);
      }
      if (unix > 0) filter.updatedBefore = unix;
    }
    if (!query.all) filter.statuses = statusesNamed(query['status-types'], ['unread']);
    const status = statusNamed(query['to-status']) ?? NotificationStatus.Read;
    const store = this.store;
    const changed = await store.setStatusOf(await store.idsWhere(filter), status, nowUnix());
    return this.load(changed);
  }

  /** `GET /notifications/new`: how many of the caller's threads are unread. */
  countUnread(actor: Actor): Promise<number> {
    return this.store.countUnread(signedInUser(actor).id);
  }

  /** `GET /notifications/threads/{id}`: the caller's own thread (site administrators: anyone's). */
  async thread(actor: Actor, id: number): Promise<LoadedNotification> {
    return this.loadOne(await this.ownThread(actor, id, true));
  }

  /** `PATCH /notifications/threads/{id}`: marks one of the caller's threads (read by default). */
  async markThread(actor: Actor, id: number, toStatus: string | undefined): Promise<LoadedNotification> {
    const notification = await this.ownThread(actor, id, false);
    const [changed] = await this.store.setStatusOf([notification.id], statusNamed(toStatus) ?? NotificationStatus.Read, nowUnix());
    if (!changed) throw new NotFoundError(`notification does not exist [id: ${id}]`);
    return this.loadOne(changed);
  }

  /**
   * A thread the caller may read (`adminMay`: site administrators read anyone's) or change (only its own). A
   * thread of someone else is 403, as Forgejo answers.
   */
  private async ownThread(actor: Actor, id: number, adminMay: boolean): Promise<Notification> {
    const me = signedInUser(actor);
    const notification = Number.isSafeInteger(id) && id > 0 ? await this.store.byId(id) : undefined;
    if (!notification) throw new NotFoundError(`notification does not exist [id: ${id}]`);
    if (notification.user_id !== me.id && !(adminMay && isSiteAdmin(actor))) {
      throw new ForbiddenError(`only user itself and admin are allowed to read/change this thread ${notification.id}`);
    }
    return notification;
  }

  private async loadOne(notification: Notification): Promise<LoadedNotification> {
    const [loaded] = await this.load([notification]);
    if (!loaded) throw new NotFoundError(`notification does not exist [id: ${notification.id}]`);
    return loaded;
  }

  /** Threads with their repositories, owners, issues and latest comments, in a fixed number of queries. */
  private async load(notifications: readonly Notification[]): Promise<LoadedNotification[]> {
    if (notifications.length === 0) return [];
    const issueIds = notifications.map((n) => n.issue_id).filter((id) => id > 0);
    const [repos, issues, latest] = await Promise.all([
      this.ctx.port(ReposPort).byIds([...new Set(notifications.map((n) => n.repo_id))]),
      this.ctx.port(IssuesPort).byIds(issueIds),
      this.store.latestCommentIds(issueIds),
    ]);
    const repoById = new Map(repos.map((r) => [r.id, r]));
    const issueById = new Map(issues.map((i) => [i.id, i]));
    const owners = await this.ctx.port(UsersPort).byIds([...new Set(repos.map((r) => r.owner_id))]);
    const loaded: LoadedNotification[] = [];
    for (const notification of notifications) {
      const repo = repoById.get(notification.repo_id);
      const owner = repo ? owners.get(repo.owner_id) : undefined;
      // A thread whose repository is gone is skipped, as Forgejo drops it from the list.
      if (!repo || !owner) continue;
      loaded.push({ notification, repo, owner, issue: issueById.get(notification.issue_id), latestCommentId: latest.get(notification.issue_id) });
    }
    return loaded;
  }
}
