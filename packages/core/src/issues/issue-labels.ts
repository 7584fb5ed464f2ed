import type { CoreContext, CoreTransaction } from '../context.js';
import { actorUser, type Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { CommentsPort } from '../timeline/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { BadRequestError, ForbiddenError, LockedError, UnauthorizedError, ValidationError } from '../errors.js';
import { IssuesPort } from './port.js';
import type { Issue } from './tables.js';
import './events.js';
import type { RepoAccess } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import { isOrganization, type User } from '../users/index.js';
import { exclusiveScope } from '../labels/index.js';
import { LabelsPort } from '../labels/index.js';
import type { Label } from '../labels/index.js';
import { chosenUpdateTime } from './update-time.js';

/** What a change of an issue's labels did. */
export interface IssueLabelsChange {
  added: Label[];
  removed: Label[];
}

/** One label set on (`added`) or taken off an issue. */
interface LabelStep {
  label: Label;
  added: boolean;
}

/** How `apply` treats the labels the issue already carries: keeps them (`add`) or drops those not named (`replace`). */
export type IssueLabelsMode = 'add' | 'replace';

/** Options of the issue labels operations that Forgejo's `IssueLabelsOption`/`DeleteLabelsOption` carry. */
export interface IssueLabelsOptions {
  /** `updated_at`: the time to record the change at (repository administrators only, as for migrations). */
  updatedAt?: string;
}

/**
 * Labels on issues (`/repos/{owner}/{repo}/issues/{index}/labels`): which labels an issue carries, with a
 * `label` timeline event per label set or taken off, the exclusive-scope rule, and each label's issue counts.
 * Issue create and edit set labels through `apply` in their own transaction.
 */
export class IssueLabelsService {
  constructor(private readonly ctx: CoreContext) {}

  /**
   * Label counts follow the issues they count: closing and reopening moves closed counts, deleting an issue
   * or a repository takes its issues out of the counts of the labels they carried.
   */
  subscribe(): void {
    const recountIssueLabels = async ({ payload }: { payload: { issue: Issue } }, tx: CoreTransaction) => {
      await this.recount(tx, await tx.port(IssuesPort).labelIdsOfIssue(payload.issue.id));
    };
    this.ctx.events.withinTransaction('issue.closed', recountIssueLabels);
    this.ctx.events.withinTransaction('issue.reopened', recountIssueLabels);
    // The issue's `issue_label` rows may be gone already (they cascade): recount what its repository uses,
    // leaving the deleted issue out whichever order the rows go in.
    this.ctx.events.withinTransaction('issue.deleted', async ({ payload }, tx) => {
      const ids = await tx.port(LabelsPort).idsInUse(payload.repo.id, payload.repo.owner_id);
      await this.recount(tx, ids, { issueId: payload.issue.id });
    });
    // A repository moving away from an organization loses that organization's labels, and their events, as in
    // Forgejo's transfer.
    this.ctx.events.withinTransaction('repo.transferred', async ({ payload }, tx) => {
      const issueLabels = tx.port(IssuesPort);
      const used = await tx.port(LabelsPort).byIds(await issueLabels.labelIdsInRepo(payload.repo.id));
      const lost = used.filter((l) => l.repo_id !== payload.repo.id && !(l.repo_id === 0 && l.org_id === payload.owner.id)).map((l) => l.id);
      if (lost.length === 0) return;
      await issueLabels.removeLabelsInRepo(payload.repo.id, lost);
      await tx.port(CommentsPort).deleteLabelEventsOn(lost, issueLabels.issueIdsOfRepo(payload.repo.id));
      await this.recount(tx, lost);
    });
    // A repository's own labels go with it (ReposService); its issues leave the counts of the organization's.
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => {
      const ids = await tx.port(LabelsPort).idsInUse(null, payload.repo.owner_id);
      await this.recount(tx, ids, { repoId: payload.repo.id });
    });
  }

  /**
   * Sets labels on an issue inside the caller's transaction: `add` keeps the issue's labels, `replace` takes off
   * those not named. Ids of labels the issue's repository may not use (another repository's, unknown ones)
   * are dropped silently, as Forgejo does. Of several exclusive labels of one scope the last named wins, and
   * setting one takes the issue's other exclusive labels of that scope off. Writes a `label` timeline event per
   * label set ("1") or taken off (""), moves the labels' counts and the issue's `updated_at`. Does not check
   * permissions and does not emit: the caller emits `issue.labeled` with the result.
   */
  async apply(
    tx: CoreTransaction,
    actor: User,
    access: RepoAccess,
    issue: Issue,
    labelIds: readonly number[],
    mode: IssueLabelsMode,
    options: { at?: number } = {},
  ): Promise<IssueLabelsChange> {
    const labelsPort = tx.port(LabelsPort);
    const issueLabels = tx.port(IssuesPort);
    const usable = await labelsPort.usableIn(access.repo.id, access.repo.owner_id, labelIds);
    const currentIds = await issueLabels.labelIdsOfIssue(issue.id);
    const byId = new Map(usable.map((l) => [l.id, l]));
    // Request order, each id once (its last position counts), then the last of each exclusive scope.
    const named = lastOfEachScope(dedupeKeepLast(labelIds).flatMap((id) => byId.get(id) ?? []));
    // By id, the order in which Forgejo takes labels off.
    const current = (currentIds.length > 0 ? await labelsPort.byIds(currentIds) : []).sort((a, b) => a.id - b.id);
    const currentById = new Map(current.map((l) => [l.id, l]));

    // The sequence of changes, in the order Forgejo records them.
    const steps: LabelStep[] = [];
    const carried = new Map(currentById);
    const takeOff = (label: Label) => {
      if (!carried.delete(label.id)) return;
      steps.push({ label, added: false });
    };
    for (const label of named) {
      if (carried.has(label.id)) continue;
      const scope = exclusiveScope(label);
      if (scope !== null) for (const other of [...carried.values()]) if (exclusiveScope(other) === scope) takeOff(other);
      carried.set(label.id, label);
      steps.push({ label, added: true });
    }
    if (mode === 'replace') {
      const keep = new Set(named.map((l) => l.id));
      for (const label of [...carried.values()]) if (!keep.has(label.id)) takeOff(label);
    }

    return this.record(tx, actor, issue, steps, options.at);
  }

  /** Takes labels off an issue inside the caller's transaction (these, or `all`); answers those it carried. */
  async takeOff(tx: CoreTransaction, actor: User, issue: Issue, labelIds: readonly number[] | 'all', options: { at?: number } = {}): Promise<Label[]> {
    const currentIds = await tx.port(IssuesPort).labelIdsOfIssue(issue.id);
    const ids = labelIds === 'all' ? currentIds : currentIds.filter((id) => labelIds.includes(id));
    if (ids.length === 0) return [];
    const labels = sortByName(await tx.port(LabelsPort).byIds(ids));
    return (await this.record(tx, actor, issue, labels.map((label) => ({ label, added: false })), options.at)).removed;
  }

  /** Writes a sequence of label changes: the rows, a timeline event each, the counts, the issue's `updated_at`. */
  private async record(tx: CoreTransaction, actor: User, issue: Issue, steps: readonly LabelStep[], at = nowUnix()): Promise<IssueLabelsChange> {
    if (steps.length === 0) return { added: [], removed: [] };
    const added = steps.filter((s) => s.added).map((s) => s.label);
    const removed = steps.filter((s) => !s.added).map((s) => s.label);
    const issueLabels = tx.port(IssuesPort);
    // The issue's row before the labels' (their counts are locked below), as a close takes them: a close and a label
    // change of one issue at once then wait for each other instead of deadlocking.
    await issueLabels.markUpdated(issue.id, at);
    await issueLabels.removeLabels(issue.id, removed.map((l) => l.id));
    await issueLabels.addLabels(issue.id, added.map((l) => l.id));
    const comments = tx.port(CommentsPort);
    for (const step of steps) {
      await comments.record({
        type: COMMENT_TYPES.label,
        poster_id: actor.id,
        issue_id: issue.id,
        label_id: step.label.id,
        // Forgejo's mark of a label set; empty: taken off.
        content: step.added ? '1' : '',
        created_unix: at,
        updated_unix: at,
      });
    }
    await this.recount(tx, steps.map((s) => s.label.id));
    return { added, removed };
  }

  /** The labels an issue carries, by name (Forgejo's order). */
  async list(_actor: Actor, _access: RepoAccess, issue: Issue): Promise<Label[]> {
    const ids = await this.ctx.port(IssuesPort).labelIdsOfIssue(issue.id);
    return sortByName(await this.ctx.port(LabelsPort).byIds(ids));
  }

  /** `POST …/issues/{index}/labels`: sets more labels; answers the issue's labels after. */
  add(actor: Actor, access: RepoAccess, issue: Issue, labels: readonly unknown[] | undefined, options: IssueLabelsOptions = {}): Promise<Label[]> {
    return this.change(actor, access, issue, labels, 'add', options);
  }

  /** `PUT …/issues/{index}/labels`: sets exactly these labels; answers the issue's labels after. */
  replace(actor: Actor, access: RepoAccess, issue: Issue, labels: readonly unknown[] | undefined, options: IssueLabelsOptions = {}): Promise<Label[]> {
    return this.change(actor, access, issue, labels, 'replace', options);
  }

  /** `DELETE …/issues/{index}/labels`: takes every label off. */
  async clear(actor: Actor, access: RepoAccess, issue: Issue, options: IssueLabelsOptions = {}): Promise<void> {
    const user = this.assertWriter(actor, access, issue);
    const at = chosenUpdateTime(actor, access, issue, options.updatedAt);
    await this.ctx.transaction(async (tx) => {
      const removed = await this.takeOff(tx, user, issue, 'all', { at });
      if (removed.length > 0) await this.emitLabeled(tx, actor, access, issue, { added: [], removed });
    });
  }

  /**
   * `DELETE …/issues/{index}/labels/{identifier}`: takes one label off. The identifier is a label name (the
   * repository's, then its organization's) or an id; an unknown one is a 422, as in Forgejo; a label the issue
   * does not carry is no change.
   */
  async remove(actor: Actor, access: RepoAccess, issue: Issue, identifier: string, options: IssueLabelsOptions = {}): Promise<void> {
    const user = this.assertWriter(actor, access, issue);
    const at = chosenUpdateTime(actor, access, issue, options.updatedAt);
    const found = await this.labelNamed(access, identifier);
    await this.ctx.transaction(async (tx) => {
      const removed = await this.takeOff(tx, user, issue, [found.id], { at });
      if (removed.length > 0) await this.emitLabeled(tx, actor, access, issue, { added: [], removed });
    });
  }

  /** Forgejo's lookup of `{identifier}`: the repository's label of that name, its organization's, then any label by id. */
  private async labelNamed(access: RepoAccess, identifier: string): Promise<Label> {
    const labels = this.ctx.port(LabelsPort);
    const named = (await labels.namedIn(access.repo.id, access.repo.owner_id, [identifier])).sort((a, b) => repoFirst(a, b, access.repo.id))[0];
    if (named) return named;
    const id = /^\d{1,15}$/.test(identifier) ? Number(identifier) : null;
    const byId = id !== null ? await labels.byId(id) : undefined;
    if (byId) return byId;
    // Forgejo's messages of the last lookup that failed.
    if (id !== null) throw new ValidationError('', `label does not exist [label_id: ${id}]`);
    const where = isOrganization(access.owner) ? `org_id: ${access.owner.id}` : `repo_id: ${access.repo.id}`;
    throw new ValidationError('', `label does not exist [label_id: 0, ${where}]`);
  }

  private async change(actor: Actor, access: RepoAccess, issue: Issue, refs: readonly unknown[] | undefined, mode: IssueLabelsMode, options: IssueLabelsOptions): Promise<Label[]> {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    const wanted = parseLabelRefs(refs ?? []);
    const ids = 'names' in wanted ? (await this.ctx.port(LabelsPort).namedIn(access.repo.id, access.repo.owner_id, wanted.names)).map((l) => l.id) : wanted.ids;
    this.assertWriter(actor, access, issue);
    const at = chosenUpdateTime(actor, access, issue, options.updatedAt);
    await this.ctx.transaction(async (tx) => {
      const change = await this.apply(tx, user, access, issue, ids, mode, { at });
      if (change.added.length > 0 || change.removed.length > 0) await this.emitLabeled(tx, actor, access, issue, change);
    });
    return this.list(actor, access, issue);
  }

  private assertWriter(actor: Actor, access: RepoAccess, issue: Issue): User {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    // IssuesService.mayWrite's rule (asked here directly: that service sets labels through this one).
    if (unitMode(access, issue.is_pull ? 'repo.pulls' : 'repo.issues') < AccessMode.Write) throw new ForbiddenError('write permission is required');
    if (access.repo.is_archived) throw new LockedError();
    return user;
  }

  private async emitLabeled(tx: CoreTransaction, actor: Actor, access: RepoAccess, issue: Issue, change: IssueLabelsChange): Promise<void> {
    const current = (await tx.port(IssuesPort).byId(issue.id)) ?? issue;
    tx.emit('issue.labeled', { actor, repo: access.repo, owner: access.owner, issue: current, added: change.added, removed: change.removed });
  }

  /** Stores the true issue counts of these labels (one grouped count, one update). */
  private async recount(tx: CoreTransaction, labelIds: readonly number[], except: { repoId?: number; issueId?: number } = {}): Promise<void> {
    if (labelIds.length === 0) return;
    // Locked before counting: two processes recounting one label write in turn, the later one counting last.
    await tx.port(LabelsPort).lockCounts(labelIds);
    const counts = await tx.port(IssuesPort).labelCounts(labelIds, except);
    await tx.port(LabelsPort).setIssueCounts(labelIds, counts);
  }
}

/**
 * Forgejo's reading of `IssueLabelsOption.labels`: JSON numbers are ids (truncated, as Go converts a float),
 * strings are names; anything else, or numbers and names mixed, is a 400.
 */
export function parseLabelRefs(refs: readonly unknown[]): { ids: number[] } | { names: string[] } {
  const ids: number[] = [];
  const names: string[] = [];
  for (const ref of refs) {
    if (typeof ref === 'number' && Number.isFinite(ref)) ids.push(Math.trunc(ref));
    else if (typeof ref === 'string') names.push(ref);
    else throw new BadRequestError('a label must be an integer or a string');
  }
  if (ids.length > 0 && names.length > 0) throw new BadRequestError('labels should be an array of strings or integers');
  return names.length > 0 ? { names } : { ids };
}

/** Each id once, at its last position. */
function dedupeKeepLast(ids: readonly number[]): number[] {
  const last = new Map<number, number>();
  ids.forEach((id, i) => last.set(id, i));
  return ids.filter((id, i) => last.get(id) === i);
}

/** Forgejo's `RemoveDuplicateExclusiveLabels`: of exclusive labels sharing a scope, only the last stays. */
function lastOfEachScope(labels: readonly Label[]): Label[] {
  return labels.filter((label, i) => {
    const scope = exclusiveScope(label);
    return scope === null || !labels.slice(i + 1).some((other) => exclusiveScope(other) === scope);
  });
}

function sortByName(labels: Label[]): Label[] {
  return labels.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
}

/** A repository's own label before its organization's of the same name. */
function repoFirst(a: Label, b: Label, repoId: number): number {
  return (a.repo_id === repoId ? 0 : 1) - (b.repo_id === repoId ? 0 : 1) || a.id - b.id;
}
