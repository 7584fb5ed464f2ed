/**
 * Teams of organizations (`/orgs/{org}/teams…`, `/teams/{id}…`, `/user/teams`, `/repos/{owner}/{repo}/teams…`):
 * who belongs to them, which repositories they cover, and with what rights, as Forgejo manages them. The
 * permission question (access/store.ts) reads the rows written here, so repository rights follow at once.
 */
import './events.js';
import type { CoreContext } from '../context.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { actorUser, isSiteAdmin, type Actor } from '../users/index.js';
import { AccessMode, accessModeOf, UNIT_NAMES, type AccessModeValue, type RepoAccessOf } from '../access/index.js';
import { AccessService } from '../access/index.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import type { Row } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { UsersPort } from '../users/index.js';
import { isOrganization, type User } from '../users/index.js';
import { OrgsService } from './service.js';
import { OrgsStore } from './store.js';
import { TeamsStore } from './teams-store.js';
import { OWNER_TEAM_NAME, type Team } from './tables.js';
import {
  CreateTeamOptionSchema,
  EditTeamOptionSchema,
  TeamSearchQuerySchema,
  type CreateTeamOption,
  type EditTeamOption,
  type TeamSearchQuery,
} from './team-schemas.js';

/** A repository with its owner and what the caller may do to it (the repos domain's `RepoAccess`). */
type RepoAccess = RepoAccessOf<Row<'repository'>>;

/** A team with the organization it belongs to: what `/teams/{id}/…` loads. */
export interface TeamAccess {
  team: Team;
  org: User;
}

/** A team with its organization, for lists that show both (`/user/teams`). */
export interface TeamWithOrg {
  team: Team;
  org: User | undefined;
}

/** Forgejo's `AlphaDashDot` binding: letters, digits, `-`, `_` and `.`. */
const TEAM_NAME = /^[A-Za-z0-9_.-]+$/;
/** Names no team may take (Forgejo's `IsUsableTeamName`). */
const RESERVED_TEAM_NAMES = new Set(['new']);
/** The unit modes a `units_map` may give. */
const UNIT_MODE_NAMES = new Map<string, AccessModeValue>([
  ['none', AccessMode.None],
  ['read', AccessMode.Read],
  ['write', AccessMode.Write],
  ['admin', AccessMode.Admin],
]);
/** External trackers and wikis are links only: they do not decide a team's mode. */
const LINK_UNITS = new Set(['repo.ext_issues', 'repo.ext_wiki']);
const UNIT_BY_LOWER_NAME = new Map<string, string>(UNIT_NAMES.map((u) => [u.toLowerCase(), u]));

export function isOwnerTeam(team: Pick<Team, 'lower_name'>): boolean {
  return team.lower_name === OWNER_TEAM_NAME.toLowerCase();
}

function assertTeamName(name: string): void {
  if (name === '') throw new ValidationError('name', 'Required');
  if (!TEAM_NAME.test(name)) throw new ValidationError('name', 'should contain only alphanumeric, dash (\'-\'), underscore (\'_\') and dot (\'.\') characters');
  if (RESERVED_TEAM_NAMES.has(name.toLowerCase())) throw new ValidationError('name', `name is reserved [name: ${name}]`);
}

function teamExists(orgId: number, name: string): ValidationError {
  return new ValidationError('', `team already exists [org_id: ${orgId}, name: ${name.toLowerCase()}]`);
}

/** A unit's canonical name (Forgejo matches unit keys case-insensitively), or a 422 naming the field. */
function unitName(name: string, field: string): string {
  const unit = UNIT_BY_LOWER_NAME.get(name.toLowerCase());
  if (!unit) throw new ValidationError(field, `unknown unit [name: ${name}]`);
  return unit;
}

/** `units_map` read as unit → mode, validated. */
function parseUnitsMap(map: Readonly<Record<string, string>>): Map<string, AccessModeValue> {
  const units = new Map<string, AccessModeValue>();
  for (const [name, modeName] of Object.entries(map)) {
    const unit = unitName(name, 'units_map');
    const mode = UNIT_MODE_NAMES.get(modeName);
    if (mode === undefined) throw new ValidationError('units_map', `invalid access mode [unit: ${name}, mode: ${modeName}]`);
    units.set(unit, mode);
  }
  return units;
}

/**
 * Forgejo's `MinUnitAccessMode`: the lowest mode above none among the units (links aside), none when every unit
 * is none. A team given `units_map` below admin takes that as its mode.
 */
function minUnitMode(units: ReadonlyMap<string, AccessModeValue>): AccessModeValue {
  let lowest: AccessModeValue = AccessMode.None;
  for (const [unit, mode] of units) {
    if (LINK_UNITS.has(unit)) continue;
    if (mode > AccessMode.None && (lowest === AccessMode.None || mode < lowest)) lowest = mode;
  }
  return lowest;
}

function unitsJson(units: ReadonlyMap<string, number>): string {
  return JSON.stringify(Object.fromEntries(units));
}

/**
 * A team's units as Forgejo's API handlers attach them: below admin, `units_map` when given, else `units` at the
 * team's mode, else `current` (undefined: none given); admin teams cover every unit (stored as `{}`).
 */
function attachUnits(mode: AccessModeValue, input: { units?: readonly string[]; units_map?: Readonly<Record<string, string>> }, current: string | undefined): string | undefined {
  if (mode >= AccessMode.Admin) return '{}';
  if (input.units_map && Object.keys(input.units_map).length > 0) return unitsJson(parseUnitsMap(input.units_map));
  if (input.units && input.units.length > 0) {
    const units = new Map<string, number>();
    for (const name of input.units) units.set(unitName(name, 'units'), mode);
    return unitsJson(units);
  }
  return current;
}

export class TeamsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): TeamsStore {
    return this.ctx.store(TeamsStore);
  }

  private get orgs(): OrgsService {
    return this.ctx.service(OrgsService);
  }

  // ---- loading a team ----

  /**
   * The team `id` as `/teams/{id}/…` loads it (Forgejo's `reqTeamMembership`): site administrators, the
   * organization's owners and the team's members pass; other members of the organization get 403; anyone else
   * (and every caller for a team that does not exist) 404.
   */
  async resolve(actor: Actor, id: number): Promise<TeamAccess> {
    const team = Number.isSafeInteger(id) && id > 0 ? await this.store.byId(id) : undefined;
    const org = team && (await this.ctx.port(UsersPort).byId(team.org_id));
    if (!team || !org) throw new NotFoundError();
    if (isSiteAdmin(actor)) return { team, org };
    const user = actorUser(actor);
    if (user && (await this.ctx.service(AccessService).canSee(actor, org))) {
      if ((await this.orgs.isOwner(actor, org)) || (await this.store.isMember(team.id, user.id))) return { team, org };
      if (await this.orgs.isMember(actor, org)) throw new ForbiddenError('Must be a team member');
    }
    throw new NotFoundError();
  }

  /**
   * Forgejo's `reqOrgOwnership` on a team's routes: site administrators and the organization's owners; anyone
   * else is told nothing (404).
   */
  async assertOwner(actor: Actor, { org }: TeamAccess): Promise<void> {
    if (isSiteAdmin(actor) || (await this.orgs.isOwner(actor, org))) return;
    throw new NotFoundError();
  }

  // ---- lists ----

  /** `GET /orgs/{org}/teams`: every team of the organization (members and site administrators; see the route). */
  async listOfOrg(actor: Actor, org: User, paging?: Paging): Promise<Page<Team>> {
    await this.orgs.assertMember(actor, org);
    return this.store.list({ orgId: org.id }, clampPage(this.ctx.settings, paging));
  }

  /**
   * `GET /orgs/{org}/teams/search`: teams whose name (and, unless `include_desc` is false, description) contains
   * `q`; only the caller's own teams unless a site administrator asks, as Forgejo.
   */
  async search(actor: Actor, org: User, input: TeamSearchQuery): Promise<Page<Team>> {
    await this.orgs.assertMember(actor, org);
    const query = acceptInput(TeamSearchQuerySchema, input);
    const keyword = (query.q ?? '').trim().toLowerCase();
    const user = actorUser(actor);
    return this.store.list(
      {
        orgId: org.id,
        memberId: isSiteAdmin(actor) || !user ? undefined : user.id,
        keyword: keyword === '' ? undefined : keyword,
        includeDescription: query.include_desc !== false,
      },
      clampPage(this.ctx.settings, query),
    );
  }

  /** `GET /user/teams`: the teams the account belongs to, with their organizations. */
  async listOfUser(user: User, paging?: Paging): Promise<Page<TeamWithOrg>> {
    const { items, total } = await this.store.list({ memberId: user.id }, clampPage(this.ctx.settings, paging));
    const orgs = await this.ctx.port(UsersPort).byIds([...new Set(items.map((t) => t.org_id))]);
    return { items: items.map((team) => ({ team, org: orgs.get(team.org_id) })), total };
  }

  // ---- creating, editing, deleting ----

  /** `POST /orgs/{org}/teams` (owners and site administrators). */
  async create(actor: Actor, org: User, input: CreateTeamOption): Promise<Team> {
    await this.orgs.assertMember(actor, org);
    await this.orgs.assertOwner(actor, org);
    const opts = acceptInput(CreateTeamOptionSchema, input);
    assertTeamName(opts.name);
    let mode: AccessModeValue = opts.permission ? accessModeOf(opts.permission) : AccessMode.None;
    if (mode < AccessMode.Admin && opts.units_map && Object.keys(opts.units_map).length > 0) mode = minUnitMode(parseUnitsMap(opts.units_map));
    const units = attachUnits(mode, opts, undefined);
    // Forgejo refuses a team without rights to any unit (its handler answers 500; this is the caller's input).
    if (units === undefined) throw new ValidationError('', 'units permission should not be empty');
    const now = nowUnix();
    try {
      return await this.ctx.transaction(async (tx) => {
        const store = tx.store(TeamsStore);
        if (await store.byName(org.id, opts.name)) throw teamExists(org.id, opts.name);
        const team = await store.insert({
          org_id: org.id,
          lower_name: opts.name.toLowerCase(),
          name: opts.name,
          description: opts.description ?? '',
          authorize: mode,
          units,
          includes_all_repositories: opts.includes_all_repositories ? 1 : 0,
          can_create_org_repo: opts.can_create_org_repo ? 1 : 0,
          created_unix: now,
          updated_unix: now,
        });
        tx.emit('team.created', { org, team, actor });
        return team;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw teamExists(org.id, opts.name);
      throw error;
    }
  }

  /**
   * `PATCH /teams/{id}` (owners and site administrators), applied as Forgejo's handler applies it: the Owners team
   * keeps its name, mode, units and the right to create repositories; `includes_all_repositories` changes only
   * together with `permission`; units change when given (teams below admin).
   */
  async edit(actor: Actor, loaded: TeamAccess, input: EditTeamOption): Promise<Team> {
    await this.assertOwner(actor, loaded);
    const opts = acceptInput(EditTeamOptionSchema, input);
    const { team, org } = loaded;
    const owners = isOwnerTeam(team);
    const name = opts.name && !owners ? opts.name : team.name;
    if (opts.name) assertTeamName(opts.name);
    let mode = team.authorize as AccessModeValue;
    let includesAll = team.includes_all_repositories;
    if (!owners && opts.permission) {
      mode = accessModeOf(opts.permission);
      if (mode < AccessMode.Admin && opts.units_map && Object.keys(opts.units_map).length > 0) mode = minUnitMode(parseUnitsMap(opts.units_map));
      if (opts.includes_all_repositories !== undefined) includesAll = opts.includes_all_repositories ? 1 : 0;
    }
    const units = owners ? team.units : attachUnits(mode, opts, team.units);
    const canCreate = opts.can_create_org_repo === undefined ? team.can_create_org_repo : owners || opts.can_create_org_repo ? 1 : 0;
    try {
      return await this.ctx.transaction(async (tx) => {
        const store = tx.store(TeamsStore);
        const clash = await store.byName(org.id, name);
        if (clash && clash.id !== team.id) throw teamExists(org.id, name);
        const updated = await store.update(team.id, {
          name,
          lower_name: name.toLowerCase(),
          description: opts.description ?? team.description,
          authorize: mode,
          units: units ?? team.units,
          includes_all_repositories: includesAll,
          can_create_org_repo: canCreate,
          updated_unix: nowUnix(),
        });
        // As Forgejo, which lists every repository on a team covering them all: it keeps them when that ends.
        if (team.includes_all_repositories === 1 && includesAll === 0) await store.addAllRepos(updated);
        tx.emit('team.updated', { org, team: updated, actor });
        return updated;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw teamExists(org.id, name);
      throw error;
    }
  }

  /**
   * `DELETE /teams/{id}` (owners and site administrators). Members left in no team of the organization leave it,
   * as Forgejo's `removeInvalidOrgUser`. The Owners team cannot be deleted.
   */
  async delete(actor: Actor, loaded: TeamAccess): Promise<void> {
    await this.assertOwner(actor, loaded);
    const { team, org } = loaded;
    if (isOwnerTeam(team)) throw new ValidationError('', 'the Owners team of an organization cannot be deleted');
    await this.ctx.transaction(async (tx) => {
      // Members who are in no other team leave the organization: counted while no other change of its membership runs.
      await tx.store(OrgsStore).lockMembership(org.id);
      const store = tx.store(TeamsStore);
      const memberIds = await store.memberIds(team.id);
      await store.delete(team.id);
      tx.emit('team.deleted', { org, team, actor });
      const members = await tx.port(UsersPort).byIds(memberIds);
      for (const id of memberIds) {
        if ((await store.teamCountOf(id, org.id)) > 0) continue;
        await tx.store(OrgsStore).removeMember(id, org.id);
        const user = members.get(id);
        if (user) tx.emit('org.member_removed', { org, user, actor });
      }
    });
  }

  // ---- members ----

  /** `GET /teams/{id}/members`. */
  listMembers(loaded: TeamAccess, paging?: Paging): Promise<Page<User>> {
    return this.store.members(loaded.team.id, clampPage(this.ctx.settings, paging));
  }

  /** `GET /teams/{id}/members/{username}`: whether the account is a member (else the route answers 404). */
  isMember(loaded: TeamAccess, user: User): Promise<boolean> {
    return this.store.isMember(loaded.team.id, user.id);
  }

  /**
   * `PUT /teams/{id}/members/{username}` (owners and site administrators): the account joins the team and so the
   * organization. Already a member: nothing changes.
   */
  async addMember(actor: Actor, loaded: TeamAccess, user: User): Promise<void> {
    await this.assertOwner(actor, loaded);
    const { team, org } = loaded;
    if (isOrganization(user)) throw new ValidationError('', `an organization cannot be a team member [name: ${user.name}]`);
    await this.ctx.transaction(async (tx) => {
      // A removal from the account's last other team, in another process, must not drop the membership this adds to.
      await tx.store(OrgsStore).lockMembership(org.id);
      if (await tx.store(TeamsStore).isMember(team.id, user.id)) return;
      // An account the organization blocked does not join it (the contract's 409).
      if (await tx.port(UsersPort).isBlocked(org.id, user.id)) throw new ConflictError('user is blocked by the organization');
      await tx.store(OrgsStore).addTeamMember(team.id, org.id, user.id);
      tx.emit('team.member_added', { org, team, user, actor });
    });
  }

  /**
   * `DELETE /teams/{id}/members/{username}` (owners and site administrators). Not a member: nothing changes. The
   * Owners team keeps its last member (422, Forgejo's `ErrLastOrgOwner`); an account left in no team of the
   * organization leaves it.
   */
  async removeMember(actor: Actor, loaded: TeamAccess, user: User): Promise<void> {
    await this.assertOwner(actor, loaded);
    const { team, org } = loaded;
    await this.ctx.transaction(async (tx) => {
      // The counts below (the Owners team's last member, the account's last team) hold until this commits.
      await tx.store(OrgsStore).lockMembership(org.id);
      const store = tx.store(TeamsStore);
      if (!(await store.isMember(team.id, user.id))) return;
      if (isOwnerTeam(team) && (await store.memberCount(team.id)) <= 1) {
        throw new ValidationError('', `user is the last member of owner team [uid: ${user.id}]`);
      }
      await store.removeMember(team.id, user.id);
      tx.emit('team.member_removed', { org, team, user, actor });
      if ((await store.teamCountOf(user.id, org.id)) === 0) {
        await tx.store(OrgsStore).removeMember(user.id, org.id);
        tx.emit('org.member_removed', { org, user, actor });
      }
    });
  }

  // ---- repositories ----

  /**
   * `GET /teams/{id}/repos`: the team's repositories the caller may see (the same filter as the organization's
   * repository list, so the page and `X-Total-Count` agree), by name.
   */
  async listRepos(actor: Actor, loaded: TeamAccess, paging?: Paging): Promise<Page<RepoAccess>> {
    const access = this.ctx.service(AccessService);
    const visible = await access.ownedRepoFilter(actor, loaded.org);
    const { items, total } = await this.store.repos(loaded.team, visible, clampPage(this.ctx.settings, paging));
    return { items: await access.repoAccessMany(actor, items.map((repo) => ({ repo, owner: loaded.org }))), total };
  }

  /**
   * The repository `name` of the team's organization as the caller sees it (Forgejo looks it up in the team's
   * organization whatever the path's owner says): 404 when missing or invisible.
   */
  private async orgRepo(actor: Actor, { org }: TeamAccess, name: string): Promise<RepoAccess> {
    const repo = await this.store.orgRepo(org.id, name.toLowerCase());
    const access = repo && (await this.ctx.service(AccessService).repoAccess(actor, repo, org));
    if (!access || access.mode === AccessMode.None) throw new NotFoundError();
    return access;
  }

  /** `GET /teams/{id}/repos/{org}/{repo}`: the repository when the team covers it, else 404. */
  async repo(actor: Actor, loaded: TeamAccess, name: string): Promise<RepoAccess> {
    const access = await this.orgRepo(actor, loaded, name);
    if (!(await this.store.hasRepo(loaded.team, access.repo))) throw new NotFoundError();
    return access;
  }

  /**
   * `PUT /teams/{id}/repos/{org}/{repo}`: repository administrators add it to the team. A team covering every
   * repository of the organization, or already listing it, stays as it is.
   */
  async addRepo(actor: Actor, loaded: TeamAccess, name: string): Promise<void> {
    const access = await this.orgRepo(actor, loaded, name);
    if (access.mode < AccessMode.Admin) throw new ForbiddenError('Must have admin-level access to the repository');
    await this.attachRepo(actor, loaded, access);
  }

  /** `DELETE /teams/{id}/repos/{org}/{repo}`: repository administrators remove it from the team (see `detachRepo`). */
  async removeRepo(actor: Actor, loaded: TeamAccess, name: string): Promise<void> {
    const access = await this.orgRepo(actor, loaded, name);
    if (access.mode < AccessMode.Admin) throw new ForbiddenError('Must have admin-level access to the repository');
    await this.detachRepo(actor, loaded, access);
  }

  private async attachRepo(actor: Actor, { team, org }: TeamAccess, { repo }: RepoAccess): Promise<void> {
    if (team.includes_all_repositories === 1) return;
    await this.ctx.transaction(async (tx) => {
      if (await tx.store(TeamsStore).addRepo(team, repo.id)) tx.emit('team.repo_added', { org, team, repo, actor });
    });
  }

  /** A team covering every repository of its organization keeps covering it (Forgejo ignores the removal). */
  private async detachRepo(actor: Actor, { team, org }: TeamAccess, { repo }: RepoAccess): Promise<void> {
    if (team.includes_all_repositories === 1) return;
    await this.ctx.transaction(async (tx) => {
      if (await tx.store(TeamsStore).removeRepo(team.id, repo.id)) tx.emit('team.repo_removed', { org, team, repo, actor });
    });
  }

  // ---- a repository's teams ----

  /** `GET /repos/{owner}/{repo}/teams`: the teams of the owning organization that cover the repository. */
  async teamsOfRepo(access: RepoAccess): Promise<Team[]> {
    if (!isOrganization(access.owner)) return [];
    return this.store.teamsOfRepo(access.owner.id, access.repo.id);
  }

  /** The team `name` of the repository's organization (404 when there is none). */
  private async repoOrgTeam(access: RepoAccess, name: string): Promise<TeamAccess> {
    const team = await this.store.byName(access.owner.id, name);
    if (!team) throw new NotFoundError(`team does not exist [org_id ${access.owner.id}, team_id 0, name: ${name}]`);
    return { team, org: access.owner };
  }

  /** `GET /repos/{owner}/{repo}/teams/{team}`: the team when it covers the repository, else 404. */
  async repoTeam(access: RepoAccess, name: string): Promise<Team> {
    const { team } = await this.repoOrgTeam(access, name);
    if (!(await this.store.hasRepo(team, access.repo))) throw new NotFoundError();
    return team;
  }

  /**
   * `PUT`/`DELETE /repos/{owner}/{repo}/teams/{team}` (repository administrators; the route checks that): when
   * the organization does not let repository administrators change team access, only its owners may (403). Adding
   * a team that covers the repository, or removing one that does not, is a 422, as Forgejo.
   */
  async changeRepoTeam(actor: Actor, access: RepoAccess, name: string, add: boolean): Promise<void> {
    if (access.owner.repo_admin_change_team_access !== 1 && access.mode < AccessMode.Owner && !isSiteAdmin(actor)) {
      throw new ForbiddenError('user is nor repo admin nor owner');
    }
    const loaded = await this.repoOrgTeam(access, name);
    const has = await this.store.hasRepo(loaded.team, access.repo);
    if (add) {
      if (has) throw new ValidationError('', `team '${loaded.team.name}' is already added to repo`);
      await this.attachRepo(actor, loaded, access);
    } else {
      if (!has) throw new ValidationError('', `team '${loaded.team.name}' was not added to repo`);
      await this.detachRepo(actor, loaded, access);
    }
  }

  // ---- repository transfers ----

  /**
   * The teams a repository transferred to `org` joins (`team_ids`), as Forgejo checks them: each must exist (422)
   * and belong to the organization (403).
   */
  async transferTeams(org: User, teamIds: readonly number[]): Promise<number[]> {
    const ids = [...new Set(teamIds)];
    const store = this.store;
    for (const id of ids) {
      const team = Number.isSafeInteger(id) && id > 0 ? await store.byId(id) : undefined;
      if (!team) throw new ValidationError('', `team ${id} not found`);
      if (team.org_id !== org.id) throw new ForbiddenError(`team ${id} belongs not to org ${org.id}`);
    }
    return ids;
  }
}

