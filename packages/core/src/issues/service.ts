import type { CoreContext, CoreTransaction } from '../context.js';
import { actorUser, isSiteAdmin, signedInUser, userActor, type Actor } from '../users/index.js';
import { AccessMode, unitMode, type UnitName } from '../access/index.js';
import { AccessService } from '../access/index.js';
import { CommentsPort } from '../timeline/index.js';
import { CrossReferencesService } from './cross-references.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { ForbiddenError, LockedError, NotFoundError, PreconditionFailedError, UnauthorizedError, ValidationError } from '../errors.js';
import { IssueLabelsService } from './issue-labels.js';
import { LabelsPort } from '../labels/index.js';
import type { Label } from '../labels/index.js';
import { MilestonesPort } from '../milestones/index.js';
import { AttachmentsPort } from '../attachments/index.js';
import type { Attachment } from '../attachments/index.js';
import type { Milestone } from '../milestones/index.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import type { RepoAccess } from '../repos/index.js';
import { searchVisibility } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import { viewUnits } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import { UsersPort } from '../users/index.js';
import { GHOST_USER } from '../users/index.js';
import type { User } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import { SocialService } from '../social/index.js';
import './events.js';
import {
  CreateIssueOptionSchema,
  EditIssueOptionSchema,
  type CreateIssueOption,
  type EditIssueOption,
  type IssueListQuery,
  type IssueSearchQuery,
  type IssueSort,
} from './schemas.js';
import { IssuesPort } from './port.js';
import { IssuesStore, type IssueFilter } from './store.js';
import { deadlineCommentContent, deadlineOf } from './due-dates.js';
import { chosenUpdateTime, rfc3339Unix } from './update-time.js';
import type { Issue } from './tables.js';

/** An issue with what its API view shows, loaded for a page at a time. */
export interface IssueDetails {
  issue: Issue;
  repo: Repository;
  owner: User;
  poster: User;
  assignees: User[];
  labels: Label[];
  milestone: Milestone | null;
  /** The issue's own attachments (not its comments'), oldest first. */
  attachments: Attachment[];
}

/** The largest index a path may name (beyond it nothing exists). */
const MAX_INDEX = Number.MAX_SAFE_INTEGER;

function splitList(text: string | undefined): string[] {
  return (text ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/**
 * The issue tracker's core: issues and pull requests share one numbering per repository and these operations;
 * labels, milestones, comments, dependencies, pins and the rest hang off the issue this service resolves.
 */
export class IssuesService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): IssuesStore {
    return this.ctx.store(IssuesStore);
  }

  /** Issues and milestones go with their repository. */
  subscribe(): void {
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => {
      await tx.store(IssuesStore).deleteOfRepo(payload.repo.id);
    });
  }

  /** The unit an issue belongs to: issues, or pull requests for a pull request. */
  private static unitOf(isPull: boolean | number): UnitName {
    return isPull ? 'repo.pulls' : 'repo.issues';
  }

  /** May the actor read issues (or pull requests) of this repository? The unit must be on, too. */
  mayRead(access: RepoAccess, isPull: boolean | number = false): boolean {
    if (unitMode(access, IssuesService.unitOf(isPull)) < AccessMode.Read) return false;
    return this.unitEnabled(access.repo, isPull);
  }

  /** Write on the issue's unit: labels, milestones, assignees, state of anyone's issue. */
  mayWrite(access: RepoAccess, issue: Pick<Issue, 'is_pull'>): boolean {
    return unitMode(access, IssuesService.unitOf(issue.is_pull)) >= AccessMode.Write;
  }

  /** May the actor comment (or react)? Readers who are signed in may, unless the issue is locked: then writers only. */
  mayPost(actor: Actor, access: RepoAccess, issue: Issue): boolean {
    if (!actorUser(actor)) return false;
    return issue.is_locked ? this.mayWrite(access, issue) : true;
  }

  private unitEnabled(repo: Repository, isPull: boolean | number): boolean {
    const units = viewUnits(repo.units, this.ctx.settings);
    return isPull ? units.pulls !== undefined : units.issues !== undefined;
  }

  /** The issue (or pull request) `index` of the repository, or NotFound when it does not exist or may not be read. */
  async resolve(_actor: Actor, access: RepoAccess, index: string | number): Promise<Issue> {
    const number = typeof index === 'number' ? index : /^\d{1,16}$/.test(index) ? Number(index) : NaN;
    if (!Number.isSafeInteger(number) || number < 1 || number > MAX_INDEX) throw new NotFoundError('issue does not exist');
    const issue = await this.store.byIndex(access.repo.id, number);
    if (!issue || !this.mayRead(access, issue.is_pull)) throw new NotFoundError('issue does not exist');
    return issue;
  }

  /** One issue with its details (the view of a single read). */
  async detailsOf(actor: Actor, issue: Issue): Promise<IssueDetails> {
    return (await this.details(actor, [issue]))[0]!;
  }

  /**
   * What the API view of each issue shows, for issues of any repositories, in a fixed number of queries:
   * repositories and owners, posters and assignees, labels, milestones. Inside a transaction (an event's
   * subscriber) pass it as `scope`, so the reads see its writes and do not wait for its connection.
   */
  async details(_actor: Actor, issues: readonly Issue[], scope: Pick<CoreTransaction, 'store' | 'port'> = this.ctx): Promise<IssueDetails[]> {
    if (issues.length === 0) return [];
    const ids = issues.map((i) => i.id);
    const store = scope.store(IssuesStore);
    const [repos, assigneeIds, labelIds, milestones, attachments] = await Promise.all([
      scope.port(ReposPort).byIds(issues.map((i) => i.repo_id)),
      store.assigneesOf(ids),
      store.labelIdsOf(ids),
      scope.port(MilestonesPort).byIds(issues.map((i) => i.milestone_id).filter((id) => id > 0)),
      scope.port(AttachmentsPort).ofIssues(ids),
    ]);
    const labels = await scope.port(LabelsPort).byIds([...new Set([...labelIds.values()].flat())]);
    const userIds = new Set<number>();
    for (const issue of issues) userIds.add(issue.poster_id);
    for (const list of assigneeIds.values()) for (const id of list) userIds.add(id);
    for (const repo of repos) userIds.add(repo.owner_id);
    const users = await scope.port(UsersPort).byIds([...userIds]);
    const reposById = new Map(repos.map((r) => [r.id, r]));
    const labelsById = new Map(labels.map((l) => [l.id, l]));
    const milestonesById = new Map(milestones.map((m) => [m.id, m]));
    return issues.map((issue) => {
      const repo = reposById.get(issue.repo_id)!;
      return {
        issue,
        repo,
        owner: users.get(repo.owner_id) ?? GHOST_USER,
        poster: users.get(issue.poster_id) ?? GHOST_USER,
        assignees: (assigneeIds.get(issue.id) ?? []).map((id) => users.get(id)).filter((u): u is User => u !== undefined),
        labels: (labelIds.get(issue.id) ?? [])
          .map((id) => labelsById.get(id))
          .filter((l): l is Label => l !== undefined)
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id)),
        milestone: milestonesById.get(issue.milestone_id) ?? null,
        attachments: attachments.filter((a) => a.issue_id === issue.id),
      };
    });
  }

  /** A page of a repository's issues (`GET /repos/{owner}/{repo}/issues`). */
  async list(_actor: Actor, access: RepoAccess, query: IssueListQuery, paging: Paging = {}): Promise<Page<Issue>> {
    const page = clampPage(this.ctx.settings, paging);
    const filter: IssueFilter = { repoId: access.repo.id, ...this.stateFilter(query.state) };
    // Without `type`, both kinds the actor may read; pull requests need their unit.
    const readsIssues = this.mayRead(access, false);
    const readsPulls = this.mayRead(access, true);
    // Forgejo's reqRepoReader(issues or pulls): neither readable is as if the list did not exist.
    if (!readsIssues && !readsPulls) throw new NotFoundError();
    if (query.type === 'issues' || (query.type === undefined && !readsPulls)) filter.isPull = false;
    else if (query.type === 'pulls' || !readsIssues) filter.isPull = true;
    if ((filter.isPull === false && !readsIssues) || (filter.isPull === true && !readsPulls)) return { items: [], total: 0 };

    const names = splitList(query.labels);
    if (names.length > 0) filter.labelIdGroups = await this.labelIdsNamed(access, names);
    const milestones = splitList(query.milestones);
    if (milestones.length > 0) filter.milestoneIds = await this.ctx.port(MilestonesPort).idsNamedOrNumbered(access.repo.id, milestones);
    if (!(await this.userFilters(filter, query))) return { items: [], total: 0 };
    this.keywordFilter(filter, query.q);
    filter.updatedSince = rfc3339Unix('since', query.since);
    filter.updatedBefore = rfc3339Unix('before', query.before);
    return this.store.list(filter, query.sort ?? 'latest', page);
  }

  /**
   * Issues across every repository the actor may see (`GET /repos/issues/search`), narrowed as the query asks;
   * the `assigned`, `created` and `mentioned` flags are about the signed-in actor.
   */
  async search(actor: Actor, query: IssueSearchQuery, paging: Paging = {}): Promise<Page<Issue>> {
    const page = clampPage(this.ctx.settings, paging);
    const user = actorUser(actor);
    const search = this.ctx.port(ReposPort);
    let ownerId: number | undefined;
    if (query.owner !== undefined && query.owner !== '') {
      const owner = await this.ctx.port(UsersPort).byName(query.owner);
      if (!owner || !(await this.ctx.service(AccessService).canSee(actor, owner))) return { items: [], total: 0 };
      ownerId = owner.id;
    }
    const visibility = searchVisibility(actor, true);
    const hidden = await this.unitHiddenRepoIds(actor);
    const reposShowing = (unit: 'issues' | 'pulls') => search.visibleIds(visibility, { ownerId, unit, exceptIds: hidden[unit] });
    const filter: IssueFilter = { ...this.stateFilter(query.state) };
    if (query.type === undefined) filter.repoIdsByKind = { issues: reposShowing('issues'), pulls: reposShowing('pulls') };
    else {
      filter.isPull = query.type === 'pulls';
      filter.repoIds = reposShowing(query.type);
    }
    // Review filters need pull requests' reviews; until those exist nothing matches them.
    if (query.review_requested || query.reviewed) return { items: [], total: 0 };
    if (query.assigned || query.created || query.mentioned) {
      if (!user) throw new UnauthorizedError('token is required');
      if (query.assigned) filter.assigneeId = user.id;
      if (query.created) filter.posterId = user.id;
      if (query.mentioned) filter.mentionedName = user.lower_name;
    }
    const labels = splitList(query.labels);
    if (labels.length > 0) filter.labelIdGroups = await this.ctx.port(LabelsPort).idsNamedAnywhere(labels);
    const milestones = splitList(query.milestones);
    if (milestones.length > 0) filter.milestoneIds = await this.ctx.port(MilestonesPort).idsNamedAnywhere(milestones);
    this.keywordFilter(filter, query.q);
    filter.updatedSince = rfc3339Unix('since', query.since);
    filter.updatedBefore = rfc3339Unix('before', query.before);
    const sort: IssueSort = query.sort ?? 'latest';
    return this.store.list(filter, sort === 'relevance' ? 'latest' : sort, page);
  }

  /**
   * Repositories the actor sees but whose issues (or pull requests) a team's per-unit rights keep from it: only
   * private repositories given through grants can be such, so they are few, and asked in a fixed number of queries.
   */
  private async unitHiddenRepoIds(actor: Actor): Promise<{ issues: number[]; pulls: number[] }> {
    const none = { issues: [], pulls: [] };
    const user = actorUser(actor);
    if (!user || user.is_admin === 1) return none;
    const granted = await this.ctx.port(ReposPort).privateGrantedTo(user.id);
    if (granted.length === 0) return none;
    const owners = await this.ctx.port(UsersPort).byIds(granted.map((r) => r.owner_id));
    const pairs = granted.flatMap((repo) => {
      const owner = owners.get(repo.owner_id);
      return owner ? [{ repo, owner }] : [];
    });
    const accesses = await this.ctx.service(AccessService).repoAccessMany(actor, pairs);
    const hiding = (unit: UnitName) => accesses.filter((access) => unitMode(access, unit) < AccessMode.Read).map((access) => access.repo.id);
    return { issues: hiding('repo.issues'), pulls: hiding('repo.pulls') };
  }

  private stateFilter(state: string | undefined): Pick<IssueFilter, 'isClosed'> {
    if (state === 'all') return {};
    return { isClosed: state === 'closed' };
  }

  private keywordFilter(filter: IssueFilter, q: string | undefined): void {
    const words = (q ?? '').trim().split(/\s+/).filter((w) => w !== '');
    if (words.length === 0) return;
    filter.keywords = [words.join(' ')];
    const asIndex = /^#?(\d{1,15})$/.exec(words.join(' '));
    if (asIndex) filter.indexes = [Number(asIndex[1])];
  }

  /** Narrows by `created_by`, `assigned_by`, `mentioned_by`; false when a named user does not exist (nothing matches). */
  private async userFilters(filter: IssueFilter, query: IssueListQuery): Promise<boolean> {
    const users = this.ctx.port(UsersPort);
    for (const [name, apply] of [
      [query.created_by, (u: User) => (filter.posterId = u.id)],
      [query.assigned_by, (u: User) => (filter.assigneeId = u.id)],
      [query.mentioned_by, (u: User) => (filter.mentionedName = u.lower_name)],
    ] as const) {
      if (name === undefined || name === '') continue;
      const user = await users.byName(name);
      if (!user) return false;
      apply(user);
    }
    return true;
  }

  /** The labels named (the repository's and its organization's), grouped per name; ids given as numbers count too. */
  private async labelIdsNamed(access: RepoAccess, names: readonly string[]): Promise<number[][]> {
    return this.ctx.port(LabelsPort).idsNamedIn(access.repo.id, access.owner.id, names);
  }

  /**
   * Opens an issue (`POST /repos/{owner}/{repo}/issues`). Anyone who may read the issues may open one; labels,
   * milestone, assignees and due date are set only by writers (others' are ignored, as Forgejo does).
   */
  async create(actor: Actor, access: RepoAccess, input: CreateIssueOption): Promise<Issue> {
    return this.open(actor, access, input);
  }

  /**
   * Opens an issue, or the conversation of a pull request when `pull` is given: `pull.attach` then writes the
   * pull request's git side in the same transaction, before the events go out. As Forgejo does, a pull request
   * takes its labels, milestone and assignees from whoever opens it (an unknown milestone is 404), an issue only
   * from writers.
   */
  async open(actor: Actor, access: RepoAccess, input: CreateIssueOption, pull?: { attach: (tx: CoreTransaction, issue: Issue) => Promise<void> }): Promise<Issue> {
    const user = signedInUser(actor);
    const opts = acceptInput(CreateIssueOptionSchema, input);
    const isPull = pull !== undefined;
    if (!this.mayRead(access, isPull)) throw new NotFoundError();
    if (access.repo.is_archived) throw new LockedError();
    const title = opts.title.trim();
    if (title === '') throw new ValidationError('title', 'Required');
    if ([...opts.title].length > 255) throw new ValidationError('title', 'MaxSize');
    const writer = isPull || this.mayWrite(access, { is_pull: 0 });
    let milestone: Milestone | null = null;
    let assignees: User[] = [];
    let deadline = 0;
    if (writer) {
      if (opts.milestone !== undefined && opts.milestone > 0) {
        milestone = await this.ctx.port(MilestonesPort).byId(access.repo.id, opts.milestone);
        if (!milestone && isPull) throw new NotFoundError(`milestone does not exist [id: ${opts.milestone}, repo_id: ${access.repo.id}]`);
        if (!milestone) throw new ValidationError('milestone', `milestone does not exist [id: ${opts.milestone}, repo_id: ${access.repo.id}]`);
      }
      assignees = await this.assignable(access, isPull, [...(opts.assignees ?? []), ...(opts.assignee ? [opts.assignee] : [])]);
      // Forgejo's create keeps the time given (its edit and the deadline route keep only the day).
      if (opts.due_date !== undefined) deadline = rfc3339Unix('due_date', opts.due_date) ?? 0;
    }
    const labelIds = writer ? (opts.labels ?? []) : [];
    // As Forgejo's NewIssue, after the input is checked: the repository's owner (a user or an organization) blocked
    // the poster. A pull request asked before its git work (PullsService.create).
    if (!isPull) await this.ctx.service(SocialService).assertNotBlockedByAny([access.repo.owner_id], user.id);

    const issue = await this.ctx.transaction(async (tx) => {
      const issues = tx.store(IssuesStore);
      const now = nowUnix();
      const index = await issues.nextIndex(access.repo.id);
      // The repository's counters before any label's (as closing and editing take them: repository, then labels), so
      // that a creation and a change of an existing issue never wait for each other's locks.
      await tx.port(ReposPort).lockIssueCounts(access.repo.id);
      let issue = await issues.insert({
        repo_id: access.repo.id,
        index,
        poster_id: user.id,
        name: title,
        content: opts.body ?? '',
        ref: isPull ? '' : (opts.ref ?? ''),
        is_pull: isPull ? 1 : 0,
        milestone_id: milestone?.id ?? 0,
        deadline_unix: deadline,
        created_unix: now,
        updated_unix: now,
      });
      await issues.addAssignees(issue.id, assignees.map((a) => a.id));
      const base = { actor, repo: access.repo, owner: access.owner };
      let labels: Label[] = [];
      if (labelIds.length > 0) labels = (await this.ctx.service(IssueLabelsService).apply(tx, user, access, issue, labelIds, 'replace')).added;
      const close = !isPull && opts.closed === true;
      if (close) issue = await this.setClosed(tx, user, access, issue, true);
      await this.ctx.service(CrossReferencesService).record(tx, user, access.repo, issue, { title: issue.name, body: issue.content });
      await this.recount(tx, access.repo.id, milestone ? [milestone.id] : []);
      if (pull) await pull.attach(tx, issue);
      tx.emit('issue.created', { ...base, issue });
      if (assignees.length > 0) tx.emit('issue.assigned', { ...base, issue, added: assignees.map((a) => a.id), removed: [] });
      if (labels.length > 0) tx.emit('issue.labeled', { ...base, issue, added: labels, removed: [] });
      if (milestone) tx.emit('issue.milestoned', { ...base, issue, previousMilestoneId: 0 });
      if (close) tx.emit('issue.closed', { ...base, issue });
      return issue;
    });
    return issue;
  }

  /**
   * Edits an issue (`PATCH /repos/{owner}/{repo}/issues/{index}`). The poster and writers may change title, body,
   * ref and state; only writers change assignees, milestone and due date (others' are ignored, as Forgejo does).
   * Each change is one timeline event; closing waits for the issue's open dependencies (412).
   */
  async edit(actor: Actor, access: RepoAccess, issue: Issue, input: EditIssueOption): Promise<Issue> {
    const user = signedInUser(actor);
    const opts = acceptInput(EditIssueOptionSchema, input);
    if (access.repo.is_archived) throw new LockedError();
    const writer = this.mayWrite(access, issue);
    if (issue.poster_id !== user.id && !writer) throw new ForbiddenError('user is neither the poster nor a writer');

    const title = opts.title !== undefined && opts.title.trim() !== '' ? opts.title.trim() : undefined;
    if (title !== undefined && [...title].length > 255) throw new ValidationError('title', 'MaxSize');
    let milestone: Milestone | null | undefined;
    if (writer && opts.milestone !== undefined && opts.milestone !== issue.milestone_id) {
      milestone = opts.milestone > 0 ? await this.ctx.port(MilestonesPort).byId(access.repo.id, opts.milestone) : null;
      if (opts.milestone > 0 && !milestone) throw new ValidationError('milestone', `milestone does not exist [id: ${opts.milestone}, repo_id: ${access.repo.id}]`);
    }
    let assignees: User[] | undefined;
    if (writer && (opts.assignees !== undefined || opts.assignee !== undefined)) {
      assignees = await this.assignable(access, issue.is_pull === 1, [...(opts.assignees ?? []), ...(opts.assignee ? [opts.assignee] : [])]);
    }
    let deadline: number | undefined;
    if (writer && (opts.due_date !== undefined || opts.unset_due_date !== undefined)) {
      deadline = opts.unset_due_date ? 0 : deadlineOf('due_date', opts.due_date);
    }
    const close = opts.state === 'closed' ? true : opts.state === 'open' ? false : undefined;
    const updatedAt = chosenUpdateTime(actor, access, issue, opts.updated_at);

    return this.ctx.transaction(async (tx) => {
      // A recount below: the repository's row before the issue's (`ReposPort.lockIssueCounts`).
      if (close !== undefined || milestone !== undefined) await tx.port(ReposPort).lockIssueCounts(access.repo.id);
      const issues = tx.store(IssuesStore);
      const comments = tx.port(CommentsPort);
      const base = { actor, repo: access.repo, owner: access.owner };
      const previous = { name: issue.name, content: issue.content, ref: issue.ref };
      let current = issue;
      const changes: Partial<Pick<Issue, 'name' | 'content' | 'ref' | 'deadline_unix' | 'milestone_id'>> = {};
      if (title !== undefined && title !== issue.name) {
        changes.name = title;
        await comments.record({ type: COMMENT_TYPES.change_title, poster_id: user.id, issue_id: issue.id, old_title: issue.name, new_title: title });
      }
      if (opts.body !== undefined && opts.body !== issue.content) changes.content = opts.body;
      if (opts.ref !== undefined && opts.ref !== issue.ref) {
        changes.ref = opts.ref;
        await comments.record({ type: COMMENT_TYPES.change_issue_ref, poster_id: user.id, issue_id: issue.id, old_ref: issue.ref, new_ref: opts.ref });
      }
      if (deadline !== undefined && deadline !== issue.deadline_unix) {
        changes.deadline_unix = deadline;
        const type = deadline === 0 ? COMMENT_TYPES.removed_deadline : issue.deadline_unix === 0 ? COMMENT_TYPES.added_deadline : COMMENT_TYPES.modified_deadline;
        await comments.record({ type, poster_id: user.id, issue_id: issue.id, content: deadlineCommentContent(deadline, issue.deadline_unix) });
      }
      if (milestone !== undefined) {
        changes.milestone_id = milestone?.id ?? 0;
        await comments.record({ type: COMMENT_TYPES.milestone, poster_id: user.id, issue_id: issue.id, old_milestone_id: issue.milestone_id, milestone_id: changes.milestone_id });
      }
      if (Object.keys(changes).length > 0) current = await issues.update(issue.id, { ...changes, updated_unix: nowUnix() });
      if (changes.name !== undefined || changes.content !== undefined) {
        await this.ctx.service(CrossReferencesService).record(tx, user, access.repo, current, { title: current.name, body: current.content }, { removeOld: true });
      }

      let assigned: { added: number[]; removed: number[] } | undefined;
      if (assignees !== undefined) assigned = await this.replaceAssignees(tx, user, current, assignees);
      if (close !== undefined && close !== (current.is_closed === 1)) current = await this.setClosed(tx, user, access, current, close);
      else if (assigned && (assigned.added.length > 0 || assigned.removed.length > 0)) current = await issues.update(current.id, { updated_unix: nowUnix() });
      if (updatedAt !== undefined) current = await issues.update(current.id, { updated_unix: updatedAt });
      if (close !== undefined || milestone !== undefined) {
        await this.recount(tx, access.repo.id, [issue.milestone_id, current.milestone_id].filter((id) => id > 0));
      }

      if (changes.name !== undefined || changes.content !== undefined || changes.ref !== undefined) tx.emit('issue.edited', { ...base, issue: current, previous });
      if (assigned && (assigned.added.length > 0 || assigned.removed.length > 0)) tx.emit('issue.assigned', { ...base, issue: current, ...assigned });
      if (milestone !== undefined) tx.emit('issue.milestoned', { ...base, issue: current, previousMilestoneId: issue.milestone_id });
      if (close !== undefined && close !== (issue.is_closed === 1)) tx.emit(close ? 'issue.closed' : 'issue.reopened', { ...base, issue: current });
      return current;
    });
  }

  /** Deletes an issue and everything hanging off it (`DELETE …/issues/{index}`): repository administrators only. */
  async delete(actor: Actor, access: RepoAccess, issue: Issue): Promise<void> {
    signedInUser(actor);
    if (access.mode < AccessMode.Admin && !isSiteAdmin(actor)) throw new ForbiddenError('must be repo admin');
    await this.ctx.transaction(async (tx) => {
      await tx.port(ReposPort).lockIssueCounts(access.repo.id);
      await tx.store(IssuesStore).delete(issue.id);
      await this.recount(tx, access.repo.id, issue.milestone_id > 0 ? [issue.milestone_id] : []);
      tx.emit('issue.deleted', { actor, repo: access.repo, owner: access.owner, issue });
    });
  }

  /**
   * Closes or reopens inside a transaction, with its timeline event; closing waits for open dependencies.
   * Other domains (a pushed commit closing an issue, a merge) close through here too.
   */
  async setClosed(tx: CoreTransaction, doer: User, access: RepoAccess, issue: Issue, closed: boolean, commitSha = '', options: { mergePull?: boolean } = {}): Promise<Issue> {
    const issues = tx.store(IssuesStore);
    if (closed && (await issues.countOpenDependencies(issue.id)) > 0) {
      throw new PreconditionFailedError('cannot close this issue because it still has open dependencies');
    }
    const now = nowUnix();
    const updated = await issues.update(issue.id, { is_closed: closed ? 1 : 0, closed_unix: closed ? now : 0, updated_unix: now });
    // A merge closes its pull request with Forgejo's `merge_pull` event instead of `close`.
    const type = !closed ? COMMENT_TYPES.reopen : options.mergePull ? COMMENT_TYPES.merge_pull : COMMENT_TYPES.close;
    await tx.port(CommentsPort).record({ type, poster_id: doer.id, issue_id: issue.id, commit_sha: commitSha });
    void access;
    return updated;
  }

  /** Replaces the assignees with `wanted`, recording one timeline event per change. */
  private async replaceAssignees(tx: CoreTransaction, doer: User, issue: Issue, wanted: readonly User[]): Promise<{ added: number[]; removed: number[] }> {
    const issues = tx.store(IssuesStore);
    const current = (await issues.assigneesOf([issue.id])).get(issue.id) ?? [];
    const wantedIds = [...new Set(wanted.map((u) => u.id))];
    const added = wantedIds.filter((id) => !current.includes(id));
    const removed = current.filter((id) => !wantedIds.includes(id));
    await issues.removeAssignees(issue.id, removed);
    await issues.addAssignees(issue.id, added);
    const comments = tx.port(CommentsPort);
    for (const id of removed) await comments.record({ type: COMMENT_TYPES.assignees, poster_id: doer.id, issue_id: issue.id, assignee_id: id, removed_assignee: 1 });
    for (const id of added) await comments.record({ type: COMMENT_TYPES.assignees, poster_id: doer.id, issue_id: issue.id, assignee_id: id });
    return { added, removed };
  }

  /**
   * The accounts named, each of which must exist (422 "user does not exist") and be able to work on the
   * repository: write on code, issues or pull requests (Forgejo's CanBeAssigned).
   */
  private async assignable(access: RepoAccess, isPull: boolean, names: readonly string[]): Promise<User[]> {
    const wanted = [...new Set(names.map((n) => n.trim()).filter((n) => n !== ''))];
    if (wanted.length === 0) return [];
    const found = await this.ctx.port(UsersPort).byLowerNames(wanted.map((n) => n.toLowerCase()));
    const byName = new Map(found.map((u) => [u.lower_name, u]));
    const users: User[] = [];
    const accessService = this.ctx.service(AccessService);
    for (const name of wanted) {
      const user = byName.get(name.toLowerCase());
      if (!user || user.type !== 0) throw new ValidationError('assignees', `user does not exist [uid: 0, name: ${name}]`);
      const their = await accessService.repoAccess(userActor(user), access.repo, access.owner);
      const canWork = (['repo.code', 'repo.issues', 'repo.pulls'] as const).some((unit) => unitMode(their, unit) >= AccessMode.Write);
      if (!canWork || user.is_active !== 1) {
        throw new ValidationError('assignees', `user does not have access to repo [user_id: ${user.id}, repo_name: ${access.repo.name}]`);
      }
      users.push(user);
    }
    void isPull;
    return users;
  }

  /**
   * Brings the repository's and the given milestones' issue counters to what the table holds now. The transaction
   * took `ReposPort.lockIssueCounts` before it wrote the issue.
   */
  async recount(tx: CoreTransaction, repoId: number, milestoneIds: readonly number[]): Promise<void> {
    await tx.port(IssuesPort).recountAfterStateChange(repoId, milestoneIds, { repos: tx.port(ReposPort), milestones: tx.port(MilestonesPort) });
  }
}
