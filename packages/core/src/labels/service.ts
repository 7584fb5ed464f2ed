import type { CoreContext } from '../context.js';
import { actorUser, type Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { CommentsPort } from '../timeline/index.js';
import { ForbiddenError, LockedError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { OrgsService } from '../orgs/index.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import type { RepoAccess } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import type { User } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import { CreateLabelOptionSchema, EditLabelOptionSchema, type CreateLabelOption, type EditLabelOption, type LabelSort } from './schemas.js';
import { LabelsStore } from './store.js';
import type { Label, LabelTable } from './tables.js';
import './issues.js';
import type { Updateable } from 'kysely';

const COLOR = /^#?(?:[0-9a-f]{6}|[0-9a-f]{3})$/;

/**
 * Forgejo's `NormalizeColor`: six or three hex digits, with or without `#`, any case; stored lower case as
 * `#rrggbb`. Anything else is a 422.
 */
export function normalizeLabelColor(color: string): string {
  let lower = color.toLowerCase();
  if (lower.length === 6 || lower.length === 3) lower = `#${lower}`;
  if (!COLOR.test(lower) || !lower.startsWith('#')) throw new ValidationError('', `bad color code: ${lower}`);
  if (lower.length === 4) lower = `#${lower[1]}${lower[1]}${lower[2]}${lower[2]}${lower[3]}${lower[3]}`;
  return lower;
}

/** Where a label lives: a repository, or an organization. */
type LabelOwner = { repoId: number } | { orgId: number };

/**
 * Labels of repositories (`/repos/{owner}/{repo}/labels`) and of organizations (`/orgs/{org}/labels`, usable on
 * the issues of the organization's repositories). Which issues carry them is `IssueLabelsService`.
 */
export class LabelsService {
  constructor(private readonly ctx: CoreContext) {}

  /** Organization labels go with the organization (counts follow issues: `IssueLabelsService.subscribe`). */
  subscribe(): void {
    this.ctx.events.withinTransaction('org.deleted', async ({ payload }, tx) => tx.store(LabelsStore).deleteOfOrg(payload.org.id));
  }

  // ---- repository labels ----

  /** A page of the repository's labels (the route group already checked the actor may read it). */
  listOfRepo(_actor: Actor, access: RepoAccess, paging: Paging & { sort?: LabelSort } = {}): Promise<Page<Label>> {
    return this.ctx.store(LabelsStore).pageOfRepo(access.repo.id, clampPage(this.ctx.settings, paging), paging.sort ?? 'alphabetically');
  }

  /** One of the repository's labels, by id or, when the identifier is not a number, by name; 404 otherwise. */
  async getOfRepo(_actor: Actor, access: RepoAccess, identifier: string | number): Promise<Label> {
    const store = this.ctx.store(LabelsStore);
    const id = asId(identifier);
    const label = id !== null ? await store.byIdInRepo(access.repo.id, id) : (await store.namedIn(access.repo.id, -1, [String(identifier)]))[0];
    if (!label) throw new NotFoundError('label does not exist');
    return label;
  }

  /** `POST /repos/{owner}/{repo}/labels`: writers of issues or pull requests. */
  async createInRepo(actor: Actor, access: RepoAccess, input: CreateLabelOption): Promise<Label> {
    this.assertRepoWriter(actor, access);
    return this.create({ repoId: access.repo.id }, acceptInput(CreateLabelOptionSchema, input));
  }

  /** `PATCH /repos/{owner}/{repo}/labels/{id}`. */
  async editInRepo(actor: Actor, access: RepoAccess, id: string | number, input: EditLabelOption): Promise<Label> {
    this.assertRepoWriter(actor, access);
    const label = await this.getOfRepo(actor, access, asId(id) ?? 0);
    return this.edit(label, acceptInput(EditLabelOptionSchema, input));
  }

  /** `DELETE /repos/{owner}/{repo}/labels/{id}`: takes it off every issue too. */
  async deleteInRepo(actor: Actor, access: RepoAccess, id: string | number): Promise<void> {
    this.assertRepoWriter(actor, access);
    await this.delete(await this.getOfRepo(actor, access, asId(id) ?? 0));
  }

  // ---- organization labels ----

  /** A page of the organization's labels (the route group already checked the actor may see it). */
  listOfOrg(_actor: Actor, org: User, paging: Paging & { sort?: LabelSort } = {}): Promise<Page<Label>> {
    return this.ctx.store(LabelsStore).pageOfOrg(org.id, clampPage(this.ctx.settings, paging), paging.sort ?? 'alphabetically');
  }

  /** One of the organization's labels, by id or, when the identifier is not a number, by name; 404 otherwise. */
  async getOfOrg(_actor: Actor, org: User, identifier: string | number): Promise<Label> {
    const store = this.ctx.store(LabelsStore);
    const id = asId(identifier);
    const label = id !== null ? await store.byIdInOrg(org.id, id) : (await store.namedIn(-1, org.id, [String(identifier)]))[0];
    if (!label) throw new NotFoundError('label does not exist');
    return label;
  }

  /** `POST /orgs/{org}/labels`: owners of the organization (and site administrators). */
  async createInOrg(actor: Actor, org: User, input: CreateLabelOption): Promise<Label> {
    await this.assertOrgOwner(actor, org);
    return this.create({ orgId: org.id }, acceptInput(CreateLabelOptionSchema, input));
  }

  /** `PATCH /orgs/{org}/labels/{id}`. */
  async editInOrg(actor: Actor, org: User, id: string | number, input: EditLabelOption): Promise<Label> {
    await this.assertOrgOwner(actor, org);
    const label = await this.getOfOrg(actor, org, asId(id) ?? 0);
    return this.edit(label, acceptInput(EditLabelOptionSchema, input));
  }

  /** `DELETE /orgs/{org}/labels/{id}`: takes it off every issue too. */
  async deleteInOrg(actor: Actor, org: User, id: string | number): Promise<void> {
    await this.assertOrgOwner(actor, org);
    await this.delete(await this.getOfOrg(actor, org, asId(id) ?? 0));
  }

  // ---- shared ----

  private create(owner: LabelOwner, input: CreateLabelOption): Promise<Label> {
    const color = normalizeLabelColor(input.color);
    const now = nowUnix();
    return this.ctx.store(LabelsStore).insert({
      repo_id: 'repoId' in owner ? owner.repoId : 0,
      org_id: 'orgId' in owner ? owner.orgId : 0,
      name: input.name,
      exclusive: input.exclusive ? 1 : 0,
      description: input.description ?? '',
      color,
      num_issues: 0,
      num_closed_issues: 0,
      created_unix: now,
      updated_unix: now,
      archived_unix: input.is_archived ? now : 0,
    });
  }

  /**
   * Forgejo's `EditLabel`: given fields change; `is_archived` is written every time, so leaving it out
   * unarchives the label, as Forgejo does.
   */
  private edit(label: Label, input: EditLabelOption): Promise<Label> {
    const changes: Updateable<LabelTable> = { updated_unix: nowUnix() };
    if (input.name !== undefined) changes.name = input.name;
    if (input.exclusive !== undefined) changes.exclusive = input.exclusive ? 1 : 0;
    if (input.color !== undefined) changes.color = normalizeLabelColor(input.color);
    if (input.description !== undefined) changes.description = input.description;
    changes.archived_unix = input.is_archived ? label.archived_unix || nowUnix() : 0;
    return this.ctx.store(LabelsStore).update(label.id, changes);
  }

  /** Deletes a label, takes it off every issue, and drops the timeline events that name it, as Forgejo does. */
  private async delete(label: Label): Promise<void> {
    await this.ctx.transaction(async (tx) => {
      await this.ctx.provider('labels.issues').removeLabelEverywhere(tx, label.id);
      await tx.port(CommentsPort).deleteLabelEvents(label.id);
      await tx.store(LabelsStore).delete(label.id);
    });
  }

  /** Forgejo's `reqRepoWriter(issues, pulls)` on label changes. */
  private assertRepoWriter(actor: Actor, access: RepoAccess): void {
    if (!actorUser(actor) && actor.kind !== 'system') throw new UnauthorizedError('token is required');
    if (unitMode(access, 'repo.issues') < AccessMode.Write && unitMode(access, 'repo.pulls') < AccessMode.Write) {
      throw new ForbiddenError('user should have a permission to write to a repo');
    }
    if (access.repo.is_archived) throw new LockedError();
  }

  private async assertOrgOwner(actor: Actor, org: User): Promise<void> {
    if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
    await this.ctx.service(OrgsService).assertOwner(actor, org);
  }
}

/** A label id from a path segment, or null when it is not a number (then it may be a name). */
function asId(identifier: string | number): number | null {
  if (typeof identifier === 'number') return identifier;
  return /^-?\d{1,15}$/.test(identifier) ? Number(identifier) : null;
}
