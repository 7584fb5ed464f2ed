/**
 * Time tracking on issues and pull requests: tracked times (added by hand or by a stopwatch) and stopwatches, with
 * Forgejo's rules. It works when `[service] ENABLE_TIMETRACKING` is on and the repository's issues unit enables its
 * time tracker; with `allow_only_contributors_to_track_time`, only writers, the poster and assignees may track.
 * Every change records its timeline event in the same transaction.
 */
import type { CoreContext, CoreTransaction } from '../context.js';
import { actorUser, isSiteAdmin, type Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { CommentsPort } from '../timeline/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { accessOfRepos } from '../issues/index.js';
import { toApiIssue } from '../issues/index.js';
import type { ApiIssue } from '../issues/index.js';
import { IssuesService } from '../issues/index.js';
import { IssuesPort } from '../issues/index.js';
import type { Issue } from '../issues/index.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import type { RepoAccess } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { viewUnits } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import { UsersPort } from '../users/index.js';
import { GHOST_USER } from '../users/index.js';
import type { User } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import type { ApiView } from '../wire.js';
import { toApiStopWatch, toApiTrackedTime } from './convert.js';
import { AddTimeOptionSchema, type AddTimeOption, type ApiStopWatch, type ApiTrackedTime } from './schemas.js';
import { StopwatchesStore, TrackedTimesStore, type TrackedTimeFilter } from './store.js';
import type { TrackedTime } from './tables.js';

/** The `since`/`before`/`user` filters of a list, as given. */
export interface TrackedTimeListQuery {
  user?: string;
  since?: string;
  before?: string;
}

const TIME_TRACKING_DISABLED = 'time tracking disabled';
const NOT_ENOUGH_RIGHTS = 'query by user not allowed; not enough rights';

function unixOf(field: string, iso: string | undefined): number | undefined {
  if (iso === undefined) return undefined;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new ValidationError(field, 'invalid time');
  return Math.floor(ms / 1000);
}

export class TimesService {
  constructor(private readonly ctx: CoreContext) {}

  /** A deleted account's running stopwatches go with it (its tracked times stay, shown as Ghost's). Once per host. */
  subscribe(): void {
    this.ctx.events.withinTransaction('user.deleted', async ({ payload }, tx) => tx.store(StopwatchesStore).deleteOfUser(payload.user.id));
  }

  private get issues(): IssuesService {
    return this.ctx.service(IssuesService);
  }

  private get times(): TrackedTimesStore {
    return this.ctx.store(TrackedTimesStore);
  }

  /** Is time tracking on for the repository? Without an issues unit, Forgejo's default (on). */
  enabled(repo: Repository): boolean {
    if (!this.ctx.settings.service.ENABLE_TIMETRACKING) return false;
    const issues = viewUnits(repo.units, this.ctx.settings).issues;
    return issues ? issues.enable_time_tracker : true;
  }

  private onlyContributors(repo: Repository): boolean {
    const issues = viewUnits(repo.units, this.ctx.settings).issues;
    return issues ? issues.allow_only_contributors_to_track_time : true;
  }

  /**
   * May the user track time on the issue (Forgejo's CanUseTimetracker)? Tracking must be on; when only
   * contributors may track, the user must write the issue's unit, have posted it, or be assigned to it.
   */
  async canTrack(user: User, access: RepoAccess, issue: Issue): Promise<boolean> {
    if (!this.enabled(access.repo)) return false;
    if (!this.onlyContributors(access.repo) || this.issues.mayWrite(access, issue) || issue.poster_id === user.id) return true;
    const assignees = (await this.ctx.port(IssuesPort).assigneesOf([issue.id])).get(issue.id) ?? [];
    return assignees.includes(user.id);
  }

  /** 400 when tracking is off, 403 when this user may not track here. */
  private async assertCanTrack(user: User, access: RepoAccess, issue: Issue): Promise<void> {
    if (await this.canTrack(user, access, issue)) return;
    if (!this.enabled(access.repo)) throw new BadRequestError(TIME_TRACKING_DISABLED);
    throw new ForbiddenError('user may not track time on this issue');
  }

  private static signedIn(actor: Actor): User {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    return user;
  }

  /**
   * The filter a repository or issue list runs with. Without write on issues (or site administration) the actor
   * sees only their own times; asking for someone else's is then 403.
   */
  private async listFilter(user: User, actor: Actor, access: RepoAccess, query: TrackedTimeListQuery): Promise<TrackedTimeFilter> {
    const filter: TrackedTimeFilter = { since: unixOf('since', query.since), before: unixOf('before', query.before) };
    const name = query.user?.trim() ?? '';
    if (name !== '') {
      const named = await this.ctx.port(UsersPort).byName(name);
      if (!named) throw new NotFoundError('User does not exist');
      filter.userId = named.id;
    }
    const manager = isSiteAdmin(actor) || unitMode(access, 'repo.issues') >= AccessMode.Write;
    if (!manager && filter.userId !== user.id) {
      if (filter.userId !== undefined) throw new ForbiddenError(NOT_ENOUGH_RIGHTS);
      filter.userId = user.id;
    }
    return filter;
  }

  /** `GET …/issues/{index}/times`: 404 when tracking is off. */
  async listOfIssue(actor: Actor, access: RepoAccess, issue: Issue, query: TrackedTimeListQuery, paging: Paging = {}): Promise<Page<TrackedTime>> {
    const user = TimesService.signedIn(actor);
    if (!this.enabled(access.repo)) throw new NotFoundError('Timetracker is disabled');
    const filter = await this.listFilter(user, actor, access, query);
    return this.times.page({ ...filter, issueId: issue.id }, clampPage(this.ctx.settings, paging));
  }

  /** `GET /repos/{owner}/{repo}/times`: 400 when tracking is off. */
  async listOfRepo(actor: Actor, access: RepoAccess, query: TrackedTimeListQuery, paging: Paging = {}): Promise<Page<TrackedTime>> {
    const user = TimesService.signedIn(actor);
    // Forgejo's mustEnableIssues: the repository's issues must be readable.
    if (!this.issues.mayRead(access)) throw new NotFoundError();
    if (!this.enabled(access.repo)) throw new BadRequestError(TIME_TRACKING_DISABLED);
    const filter = await this.listFilter(user, actor, access, query);
    return this.times.page({ ...filter, repoId: access.repo.id }, clampPage(this.ctx.settings, paging));
  }

  /** `GET /repos/{owner}/{repo}/times/{user}`: the account itself, repository administrators and site administrators. */
  async listOfUserInRepo(actor: Actor, access: RepoAccess, username: string): Promise<TrackedTime[]> {
    const user = TimesService.signedIn(actor);
    if (!this.issues.mayRead(access)) throw new NotFoundError();
    if (!this.enabled(access.repo)) throw new BadRequestError(TIME_TRACKING_DISABLED);
    const named = await this.ctx.port(UsersPort).byName(username);
    if (!named) throw new NotFoundError('user does not exist');
    if (access.mode < AccessMode.Admin && !isSiteAdmin(actor) && named.id !== user.id) throw new ForbiddenError(NOT_ENOUGH_RIGHTS);
    return this.times.all({ userId: named.id, repoId: access.repo.id });
  }

  /** `GET /user/times`: the actor's own times, anywhere. */
  async listMine(actor: Actor, query: Omit<TrackedTimeListQuery, 'user'>, paging: Paging = {}): Promise<Page<TrackedTime>> {
    const user = TimesService.signedIn(actor);
    const filter = { userId: user.id, since: unixOf('since', query.since), before: unixOf('before', query.before) };
    return this.times.page(filter, clampPage(this.ctx.settings, paging));
  }

  /**
   * `POST …/issues/{index}/times`: adds time by hand. Repository and site administrators may credit another
   * account (`user_name`); for everyone else the time is their own.
   */
  async add(actor: Actor, access: RepoAccess, issue: Issue, input: AddTimeOption): Promise<TrackedTime> {
    const doer = TimesService.signedIn(actor);
    const opts = acceptInput(AddTimeOptionSchema, input);
    // Forgejo binds `time` as required: zero counts as missing.
    if (opts.time === 0) throw new ValidationError('time', 'Required');
    await this.assertCanTrack(doer, access, issue);
    let user = doer;
    const name = opts.user_name ?? '';
    if (name !== '' && ((access.mode >= AccessMode.Admin && name !== doer.name) || isSiteAdmin(actor))) {
      const named = await this.ctx.port(UsersPort).byName(name);
      if (!named) throw new NotFoundError('user does not exist');
      user = named;
    }
    const created = unixOf('created', opts.created);
    return this.ctx.transaction(async (tx) => {
      const time = await tx.store(TrackedTimesStore).insert({ issue_id: issue.id, user_id: user.id, time: opts.time, created_unix: created && created > 0 ? created : nowUnix() });
      // Forgejo's content format since 1.21 (`|seconds`); the timeline words it.
      await this.event(tx, issue.id, { type: COMMENT_TYPES.add_time_manual, poster_id: user.id, content: `|${opts.time}`, time_id: time.id });
      return time;
    });
  }

  /** `DELETE …/issues/{index}/times`: deletes all of the actor's times on the issue (404 when there are none). */
  async reset(actor: Actor, access: RepoAccess, issue: Issue): Promise<void> {
    const doer = TimesService.signedIn(actor);
    await this.assertCanTrack(doer, access, issue);
    await this.ctx.transaction(async (tx) => {
      const removed = await tx.store(TrackedTimesStore).markDeletedOfIssueUser(issue.id, doer.id);
      if (removed.count === 0) throw new NotFoundError('tracked time does not exist');
      await this.event(tx, issue.id, { type: COMMENT_TYPES.delete_time_manual, poster_id: doer.id, content: `|${removed.seconds}` });
    });
  }

  /**
   * `DELETE …/issues/{index}/times/{id}`: the time's own user or a site administrator. The time must belong to the
   * issue of the path (Forgejo does not check; a time elsewhere is not the path's to delete).
   */
  async delete(actor: Actor, access: RepoAccess, issue: Issue, id: number): Promise<void> {
    const doer = TimesService.signedIn(actor);
    await this.assertCanTrack(doer, access, issue);
    const time = Number.isSafeInteger(id) && id > 0 ? await this.times.byId(id) : undefined;
    if (!time || time.issue_id !== issue.id || time.deleted) throw new NotFoundError('tracked time does not exist');
    if (!isSiteAdmin(actor) && time.user_id !== doer.id) throw new ForbiddenError('only the time\'s user or a site administrator may delete it');
    await this.ctx.transaction(async (tx) => {
      if (!(await tx.store(TrackedTimesStore).markDeleted(time.id))) throw new NotFoundError('tracked time does not exist');
      await this.event(tx, issue.id, { type: COMMENT_TYPES.delete_time_manual, poster_id: time.user_id, content: `|${time.time}` });
    });
  }

  /** Checks shared by the stopwatch operations: write on the issue's unit and the right to track (403). */
  private async stopwatchUser(actor: Actor, access: RepoAccess, issue: Issue): Promise<User> {
    const user = TimesService.signedIn(actor);
    if (!this.issues.mayWrite(access, issue) || !(await this.canTrack(user, access, issue))) {
      throw new ForbiddenError('Not repo writer, user does not have rights to toggle stopwatch');
    }
    return user;
  }

  /** `POST …/stopwatch/start`: 409 when one runs on this issue; one running elsewhere is stopped first, as Forgejo does. */
  async startStopwatch(actor: Actor, access: RepoAccess, issue: Issue): Promise<void> {
    const user = await this.stopwatchUser(actor, access, issue);
    await this.ctx.transaction(async (tx) => {
      const stopwatches = tx.store(StopwatchesStore);
      await stopwatches.lockUser(user.id);
      for (const other of await stopwatches.ofUser(user.id)) {
        if (other.issue_id === issue.id) throw new ConflictError('cannot start a stopwatch again if it already exists');
        await this.finish(tx, user.id, other);
      }
      if (!(await stopwatches.insert(user.id, issue.id, nowUnix()))) throw new ConflictError('cannot start a stopwatch again if it already exists');
      await this.event(tx, issue.id, { type: COMMENT_TYPES.start_tracking, poster_id: user.id });
    });
  }

  /** `POST …/stopwatch/stop`: turns the running stopwatch into a tracked time (409 when none runs). */
  async stopStopwatch(actor: Actor, access: RepoAccess, issue: Issue): Promise<TrackedTime> {
    const user = await this.stopwatchUser(actor, access, issue);
    return this.ctx.transaction(async (tx) => {
      await tx.store(StopwatchesStore).lockUser(user.id);
      const running = await tx.store(StopwatchesStore).find(user.id, issue.id);
      const time = running && (await this.finish(tx, user.id, running));
      if (!time) throw new ConflictError('cannot stop/cancel a non existent stopwatch');
      return time;
    });
  }

  /** `DELETE …/stopwatch/delete`: drops the running stopwatch without tracking its time (409 when none runs). */
  async cancelStopwatch(actor: Actor, access: RepoAccess, issue: Issue): Promise<void> {
    const user = await this.stopwatchUser(actor, access, issue);
    await this.ctx.transaction(async (tx) => {
      const stopwatches = tx.store(StopwatchesStore);
      await stopwatches.lockUser(user.id);
      const running = await stopwatches.find(user.id, issue.id);
      if (!running || !(await stopwatches.delete(running.id))) throw new ConflictError('cannot stop/cancel a non existent stopwatch');
      await this.event(tx, issue.id, { type: COMMENT_TYPES.cancel_tracking, poster_id: user.id });
    });
  }

  /** Ends a stopwatch: its time since start becomes a tracked time, with a stop event; undefined when already gone. */
  private async finish(tx: CoreTransaction, userId: number, stopwatch: { id: number; issue_id: number; created_unix: number }): Promise<TrackedTime | undefined> {
    if (!(await tx.store(StopwatchesStore).delete(stopwatch.id))) return undefined;
    const now = nowUnix();
    const seconds = Math.max(0, now - Number(stopwatch.created_unix));
    const time = await tx.store(TrackedTimesStore).insert({ issue_id: stopwatch.issue_id, user_id: userId, time: seconds, created_unix: now });
    await this.event(tx, stopwatch.issue_id, { type: COMMENT_TYPES.stop_tracking, poster_id: userId, content: `|${seconds}`, time_id: time.id });
    return time;
  }

  /** Records a timeline event and marks the issue changed, as Forgejo's CreateComment does. */
  private async event(tx: CoreTransaction, issueId: number, row: { type: number; poster_id: number; content?: string; time_id?: number }): Promise<void> {
    await tx.port(CommentsPort).record({ ...row, issue_id: issueId });
    await tx.port(IssuesPort).touch(issueId);
  }

  /** `GET /user/stopwatches`: the actor's running stopwatches, with their issue and repository. */
  async stopwatches(actor: Actor, paging: Paging = {}): Promise<Page<ApiStopWatch>> {
    const user = TimesService.signedIn(actor);
    const { items, total } = await this.ctx.store(StopwatchesStore).pageOfUser(user.id, clampPage(this.ctx.settings, paging));
    const issues = new Map((await this.ctx.port(IssuesPort).byIds(items.map((s) => s.issue_id))).map((i) => [i.id, i]));
    const repos = new Map((await this.ctx.port(ReposPort).byIds([...issues.values()].map((i) => i.repo_id))).map((r) => [r.id, r]));
    const owners = await this.ctx.port(UsersPort).byIds([...new Set([...repos.values()].map((r) => r.owner_id))]);
    const now = nowUnix();
    const out: ApiStopWatch[] = [];
    for (const stopwatch of items) {
      const issue = issues.get(stopwatch.issue_id);
      const repo = issue && repos.get(issue.repo_id);
      if (!issue || !repo) continue;
      out.push(toApiStopWatch(stopwatch, issue, { ownerName: owners.get(repo.owner_id)?.name ?? '', repoName: repo.name }, now));
    }
    return { items: out, total };
  }

  /**
   * Tracked times as the API shows them, with their user's name (Ghost for a deleted account, as Forgejo) and their
   * issue, in a fixed number of queries. An issue the viewer may no longer read (or that is gone) shows as null.
   */
  async toApi(actor: Actor, view: ApiView, times: readonly TrackedTime[], known?: RepoAccess): Promise<ApiTrackedTime[]> {
    if (times.length === 0) return [];
    const [issues, users] = await Promise.all([
      this.ctx.port(IssuesPort).byIds(times.map((t) => t.issue_id)),
      this.ctx.port(UsersPort).byIds([...new Set(times.map((t) => t.user_id))]),
    ]);
    const accesses = await accessOfRepos(this.ctx, actor, issues.map((i) => i.repo_id), known);
    const shown = issues.filter((i) => {
      const access = accesses.get(i.repo_id);
      return access !== undefined && this.issues.mayRead(access, i.is_pull);
    });
    const apiIssues = new Map<number, ApiIssue>();
    for (const details of await this.issues.details(actor, shown)) apiIssues.set(details.issue.id, toApiIssue(details, view));
    return times.map((t) => toApiTrackedTime(t, (users.get(t.user_id) ?? GHOST_USER).name, apiIssues.get(t.issue_id) ?? null));
  }
}
