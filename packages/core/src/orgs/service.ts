import './events.js';
import type { Updateable } from 'kysely';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { actorUser, isSelf, isSiteAdmin, SYSTEM, userActor, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { AccessService } from '../access/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { UsersPort } from '../users/index.js';
import { UserAvatarsService } from '../users/index.js';
import { isAcceptableEmail } from '../users/index.js';
import { assertSiteUrl, assertValidUsername } from '../users/index.js';
import type { UpdateUserAvatarOption } from '../users/index.js';
import { isOrganization, UserType, Visibility, visibilityValue, type User, type UserTable } from '../users/index.js';
import { OrgsStore } from './store.js';
import { TeamsStore } from './teams-store.js';
import { OrgDirectoryStore, type OrgListFilter } from './org-directory-store.js';
import { OWNER_TEAM_NAME } from './tables.js';
import { CreateOrgOptionSchema, EditOrgOptionSchema, type CreateOrgOption, type EditOrgOption } from './schemas.js';

const MUST_BE_OWNER = 'Must be an organization owner';
const MUST_BE_MEMBER = 'Must be an organization member';

/** What `GET /orgs/{org}/members/{username}` answers: 204, 404, or a redirect to the public membership check. */
export type MembershipAnswer = 'member' | 'not_member' | 'ask_public';

/** What an account may do in an organization (`GET /users/{username}/orgs/{org}/permissions`). */
export interface OrgPermissions {
  is_owner: boolean;
  is_admin: boolean;
  can_write: boolean;
  can_read: boolean;
  can_create_repository: boolean;
}

export class OrgsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): OrgsStore {
    return this.ctx.store(OrgsStore);
  }

  /**
   * The subscriptions that keep membership rows true when accounts and repositories go, and that give a
   * repository created by a non-owner to the creator's teams allowed to create repositories (else they could not
   * reach what they made), as Forgejo does. Once per host.
   */
  subscribe(): void {
    this.ctx.events.withinTransaction('user.deleted', async ({ payload }, tx) => {
      if (isOrganization(payload.user)) await tx.store(OrgsStore).deleteOrgRows(payload.user.id);
      await tx.store(OrgsStore).forgetUser(payload.user.id);
    });
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => tx.store(OrgsStore).forgetRepo(payload.repo.id));
    // Teams belong to the organization a repository leaves: their access does not follow it.
    this.ctx.events.withinTransaction('repo.transferred', async ({ payload }, tx) => tx.store(OrgsStore).forgetRepoOutside(payload.repo.id, payload.owner.id));
    this.ctx.events.withinTransaction('repo.created', async ({ payload }, tx) => {
      const { repo, owner, actor } = payload;
      const creator = actorUser(actor);
      if (!creator || !isOrganization(owner)) return;
      const store = tx.store(OrgsStore);
      if (await store.isOwner(creator.id, owner.id)) return;
      const teams = (await store.teamsOfMember(owner.id, creator.id)).filter((t) => t.can_create_org_repo === 1 && t.includes_all_repositories !== 1);
      for (const team of teams) await tx.store(TeamsStore).addRepo(team, repo.id);
    });
  }

  /**
   * Creates an organization owned by `creator` (its Owners team's first member). Forgejo's rules: the creator may
   * create organizations (not restricted, allowed by an administrator), the name is a valid, unused account name.
   */
  async create(actor: Actor, creator: User, input: CreateOrgOption): Promise<User> {
    const opts = acceptInput(CreateOrgOptionSchema, input);
    if (!isSiteAdmin(actor) && actorUser(actor)?.id !== creator.id) throw new ForbiddenError('you may not create organizations for this user');
    if (isOrganization(creator)) throw new ValidationError('', `${creator.name} is an organization not a user`);
    // As Forgejo's CreateOrganization: the account that will own it must be allowed, whoever asks.
    if (!(await this.mayCreateOrganizations(creator))) throw new ForbiddenError('user is not allowed to create organizations');
    assertValidUsername(opts.username);
    assertSiteUrl(opts.website);
    const lowerName = opts.username.toLowerCase();
    const email = opts.email ?? '';
    const now = nowUnix();
    try {
      return await this.ctx.transaction(async (tx) => {
        const users = tx.port(UsersPort);
        if (await users.byName(lowerName)) throw new ValidationError('username', `user already exists [name: ${opts.username}]`);
        const org = await users.insert({
          lower_name: lowerName,
          name: opts.username,
          full_name: opts.full_name ?? '',
          email,
          lower_email: email.toLowerCase(),
          description: opts.description ?? '',
          website: opts.website ?? '',
          location: opts.location ?? '',
          type: UserType.Organization,
          visibility: visibilityValue(opts.visibility ?? 'public'),
          repo_admin_change_team_access: opts.repo_admin_change_team_access ? 1 : 0,
          created_unix: now,
          updated_unix: now,
          theme: this.ctx.settings.ui.DEFAULT_THEME,
        });
        const orgs = tx.store(OrgsStore);
        const owners = await tx.store(TeamsStore).insert({
          org_id: org.id,
          lower_name: OWNER_TEAM_NAME.toLowerCase(),
          name: OWNER_TEAM_NAME,
          authorize: AccessMode.Owner,
          includes_all_repositories: 1,
          can_create_org_repo: 1,
          created_unix: now,
          updated_unix: now,
        });
        await orgs.addTeamMember(owners.id, org.id, creator.id);
        tx.emit('org.created', { org, creator, actor });
        return org;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ValidationError('username', `user already exists [name: ${opts.username}]`);
      throw error;
    }
  }

  /** May this account create organizations (Forgejo's `CanCreateOrganization`)? */
  async mayCreateOrganizations(user: User): Promise<boolean> {
    if (user.is_admin === 1) return true;
    if (user.is_restricted === 1 || this.ctx.settings.admin.DISABLE_REGULAR_ORG_CREATION) return false;
    return this.ctx.port(UsersPort).allowedToCreateOrganizations(user.id);
  }

  /** The organization named `name` as `actor` may see it, else NotFound: what `/orgs/{org}/…` routes load. */
  async resolve(actor: Actor, name: string): Promise<User> {
    const org = await this.ctx.port(UsersPort).byName(name);
    if (!org || !isOrganization(org) || !(await this.ctx.service(AccessService).canSee(actor, org))) {
      throw new NotFoundError(`GetOrgByName [name: ${name}]`);
    }
    return org;
  }

  /** Is `actor` an owner of `org` (its Owners team; the system always is)? */
  async isOwner(actor: Actor, org: User): Promise<boolean> {
    if (actor.kind === 'system') return true;
    if (actor.kind !== 'user') return false;
    return this.store.isOwner(actor.user.id, org.id);
  }

  /** Is `actor` a member of `org` (any team)? */
  async isMember(actor: Actor, org: User): Promise<boolean> {
    if (actor.kind === 'system') return true;
    return this.ctx.service(AccessService).isMember(actor, org);
  }

  /** May `actor` create repositories owned by `org`: owners, site administrators, teams that allow it. */
  async canCreateRepo(actor: Actor, org: User): Promise<boolean> {
    if (isSiteAdmin(actor)) return true;
    const user = actorUser(actor);
    if (!user) return false;
    const teams = await this.store.teamsOfMember(org.id, user.id);
    return teams.some((t) => t.authorize === AccessMode.Owner || t.can_create_org_repo === 1);
  }

  /**
   * What `user` may do in `org`, as Forgejo answers it: from the highest mode of the user's teams there (a site
   * administrator's rights do not show here), and whether one of them may create repositories.
   */
  async permissionsOf(user: User, org: User): Promise<OrgPermissions> {
    const teams = await this.store.teamsOfMember(org.id, user.id);
    const highest = teams.reduce<number>((m, t) => Math.max(m, t.authorize), AccessMode.None);
    return {
      is_owner: highest >= AccessMode.Owner,
      is_admin: highest >= AccessMode.Admin,
      can_write: highest >= AccessMode.Write,
      can_read: highest >= AccessMode.Read,
      can_create_repository: teams.some((t) => t.authorize === AccessMode.Owner || t.can_create_org_repo === 1),
    };
  }

  /**
   * `GET /users/{username}/orgs/{org}/permissions`: the organization must be one the caller may see, and one the
   * account asked about may see (else 404, as Forgejo's `HasOrgOrUserVisible`).
   */
  async permissionsFor(actor: Actor, user: User, orgName: string): Promise<OrgPermissions> {
    const org = await this.resolve(actor, orgName);
    if (!(await this.ctx.service(AccessService).canSee(userActor(user), org))) throw new NotFoundError('HasOrgOrUserVisible');
    return this.permissionsOf(user, org);
  }

  // ---- the organization itself ----

  /** Forgejo's `reqOrgOwnership`: site administrators and the organization's owners; 403 for other callers. */
  async assertOwner(actor: Actor, org: User): Promise<void> {
    if (isSiteAdmin(actor) || (await this.isOwner(actor, org))) return;
    throw new ForbiddenError(MUST_BE_OWNER);
  }

  /** Forgejo's `reqOrgMembership`: site administrators and the organization's members; 403 for other callers. */
  async assertMember(actor: Actor, org: User): Promise<void> {
    if (isSiteAdmin(actor) || (await this.isMember(actor, org))) return;
    throw new ForbiddenError(MUST_BE_MEMBER);
  }

  /**
   * `PATCH /orgs/{org}`, as Forgejo applies it: full name, description, website and location are always written
   * (absent means empty, as Go decodes them); `email` only when given (empty clears it); `visibility` and
   * `repo_admin_change_team_access` only when given.
   */
  async edit(actor: Actor, org: User, input: EditOrgOption): Promise<User> {
    await this.assertOwner(actor, org);
    const opts = acceptInput(EditOrgOptionSchema, input);
    assertSiteUrl(opts.website);
    if (opts.email !== undefined && opts.email !== '' && !isAcceptableEmail(opts.email)) {
      throw new ValidationError('', `e-mail invalid [email: ${opts.email}]`);
    }
    const changes: Updateable<UserTable> = {
      full_name: opts.full_name ?? '',
      description: opts.description ?? '',
      website: opts.website ?? '',
      location: opts.location ?? '',
      updated_unix: nowUnix(),
    };
    if (opts.email !== undefined) Object.assign(changes, { email: opts.email, lower_email: opts.email.toLowerCase() });
    if (opts.visibility !== undefined) changes.visibility = visibilityValue(opts.visibility);
    if (opts.repo_admin_change_team_access !== undefined) changes.repo_admin_change_team_access = opts.repo_admin_change_team_access ? 1 : 0;
    return this.ctx.transaction(async (tx) => {
      const updated = await tx.port(UsersPort).update(org.id, changes);
      tx.emit('org.updated', { org: updated, actor });
      return updated;
    });
  }

  /** `POST /orgs/{org}/avatar` (owners): the same checks and storage as an account's avatar. */
  async uploadAvatar(actor: Actor, org: User, input: UpdateUserAvatarOption): Promise<User> {
    await this.assertOwner(actor, org);
    // The owner check above is what authorizes the change; the avatar service itself knows only accounts.
    return this.ctx.service(UserAvatarsService).upload(SYSTEM, org, input);
  }

  async removeAvatar(actor: Actor, org: User): Promise<User> {
    await this.assertOwner(actor, org);
    return this.ctx.service(UserAvatarsService).remove(SYSTEM, org);
  }

  // ---- lists of organizations ----

  /**
   * `GET /orgs`: the organizations the caller may see (the same rule as `resolve`): public ones; limited ones for
   * signed-in, unrestricted accounts; every one a member belongs to; all for site administrators.
   */
  listVisible(actor: Actor, paging?: Paging): Promise<Page<User>> {
    let filter: OrgListFilter;
    if (isSiteAdmin(actor)) filter = { all: true };
    else if (actor.kind !== 'user' || actor.publicOnly) filter = { all: false, visibilities: [Visibility.Public] };
    else if (actor.user.is_restricted === 1) filter = { all: false, visibilities: [Visibility.Public], memberId: actor.user.id };
    else filter = { all: false, visibilities: [Visibility.Public, Visibility.Limited], memberId: actor.user.id };
    return this.ctx.store(OrgDirectoryStore).list(filter, clampPage(this.ctx.settings, paging));
  }

  /** `GET /admin/orgs`: every organization (site administrators only). */
  async listAll(actor: Actor, paging?: Paging): Promise<Page<User>> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('reqSiteAdmin');
    return this.ctx.store(OrgDirectoryStore).list({ all: true }, clampPage(this.ctx.settings, paging));
  }

  /**
   * `GET /user/orgs` and `GET /users/{username}/orgs`, as Forgejo lists them: the account itself and site
   * administrators see all its organizations; anyone else only public organizations where its membership is
   * public. A public-only token sees public organizations only.
   */
  listOfUser(actor: Actor, user: User, paging?: Paging): Promise<Page<User>> {
    const page = clampPage(this.ctx.settings, paging);
    const store = this.ctx.store(OrgDirectoryStore);
    const everything = isSiteAdmin(actor) || isSelf(actor, user);
    if (everything && !(actor.kind === 'user' && actor.publicOnly)) return store.ofMember(user.id, { publicOnly: false, page });
    if (everything) return store.ofMember(user.id, { publicOnly: false, visibilities: [Visibility.Public], page });
    return store.ofMember(user.id, { publicOnly: true, visibilities: [Visibility.Public], page });
  }

  // ---- members ----

  /**
   * `GET /orgs/{org}/members` (and, with `publicList`, `/public_members`): members and site administrators see
   * every member; anyone else only those whose membership is public.
   */
  async listMembers(actor: Actor, org: User, options: { publicList: boolean; paging?: Paging }): Promise<Page<User>> {
    const seesAll = !options.publicList && (isSiteAdmin(actor) || (await this.isMember(actor, org)));
    return this.ctx.store(OrgDirectoryStore).members(org.id, { publicOnly: !seesAll, page: clampPage(this.ctx.settings, options.paging) });
  }

  /**
   * `GET /orgs/{org}/members/{username}`, Forgejo's rules: members and site administrators are told; an account
   * asking about itself that is no member hears no; anyone else is sent to the public membership check.
   */
  async membership(actor: Actor, org: User, user: User): Promise<MembershipAnswer> {
    if (isSiteAdmin(actor) || (await this.isMember(actor, org))) {
      return (await this.store.membership(user.id, org.id)) ? 'member' : 'not_member';
    }
    if (isSelf(actor, user)) return 'not_member';
    return 'ask_public';
  }

  /** Is `user`'s membership of `org` public? */
  async isPublicMember(org: User, user: User): Promise<boolean> {
    return (await this.store.membership(user.id, org.id))?.is_public === 1;
  }

  /**
   * `PUT`/`DELETE /orgs/{org}/public_members/{username}`: a member shows or hides their own membership (403 for
   * anyone else's, and for callers who are not members); not being a member changes nothing.
   */
  async setMembershipPublic(actor: Actor, org: User, user: User, isPublic: boolean): Promise<void> {
    await this.assertMember(actor, org);
    if (!isSelf(actor, user)) throw new ForbiddenError(isPublic ? 'Cannot publicize another member' : 'Cannot conceal another member');
    await this.store.setPublic(user.id, org.id, isPublic);
  }

  /**
   * `DELETE /orgs/{org}/members/{username}` (owners): removes the account from the organization and every team
   * of it. Not a member: nothing changes. The last owner cannot be removed (422, Forgejo's `ErrLastOrgOwner`).
   */
  async removeMember(actor: Actor, org: User, user: User): Promise<void> {
    await this.assertOwner(actor, org);
    await this.ctx.transaction(async (tx) => {
      const orgs = tx.store(OrgsStore);
      // Another process removing the other last owner waits here until this commits, then counts again.
      await orgs.lockMembership(org.id);
      if (!(await orgs.membership(user.id, org.id))) return;
      if (await orgs.isOwner(user.id, org.id)) {
        const owners = await orgs.ownersTeam(org.id);
        if (owners && (await tx.store(OrgDirectoryStore).ownerCount(org.id, owners.id)) <= 1) {
          throw new ValidationError('', `user is the last member of owner team [uid: ${user.id}]`);
        }
      }
      await orgs.removeMember(user.id, org.id);
      tx.emit('org.member_removed', { org, user, actor });
    });
  }
}
