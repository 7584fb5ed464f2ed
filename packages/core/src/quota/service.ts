import { ConflictError, ForbiddenError, NotFoundError, QuotaExceededError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { isSelf, isSiteAdmin, type Actor } from '../users/index.js';
import type { Page, PageRequest } from '../paging.js';
import { acceptInput } from '../validation/index.js';
import { isOrganization, type User } from '../users/index.js';
import { OrgsService } from '../orgs/index.js';
import { UsersPort } from '../users/index.js';
import '../users/index.js';
import { subjectsOf, toApiQuotaGroup, toApiQuotaInfo, toApiQuotaRule, type LoadedQuotaGroup } from './convert.js';
import {
  CreateQuotaGroupOptionsSchema,
  CreateQuotaRuleOptionsSchema,
  EditQuotaRuleOptionsSchema,
  SetUserQuotaGroupsOptionsSchema,
  type ApiQuotaGroup,
  type ApiQuotaInfo,
  type ApiQuotaRuleInfo,
  type ApiQuotaUsedArtifact,
  type ApiQuotaUsedAttachment,
  type ApiQuotaUsedPackage,
  type CreateQuotaGroupOptions,
  type CreateQuotaRuleOptions,
  type EditQuotaRuleOptions,
  type SetUserQuotaGroupsOptions,
} from './schemas.js';
import { QuotaStore } from './store.js';
import { emptyUsage, evaluateGroups, isQuotaSubject, type QuotaSubject, type QuotaUsage } from './subjects.js';
import type { QuotaRuleRow } from './tables.js';

/**
 * What a domain that stores files for accounts (attachments, packages, artifacts) tells the quota. None exists
 * yet, so their usage is 0 and their lists are empty. Such a domain registers its source once per host, from its
 * `subscribe()` in `RepoHost`'s constructor: `ctx.service(QuotaService).provide('attachments', source)`; the
 * quota then adds the source's bytes into every account's usage and lists its items.
 */
export interface QuotaUsageSource<Item> {
  /** Adds what the owner's items take into `usage` (the source knows which fields are its own). */
  addUsage(ownerId: number, usage: QuotaUsage): Promise<void>;
  /** The owner's items, largest first, a page at a time. */
  list(ownerId: number, page: PageRequest): Promise<Page<Item>>;
}

interface QuotaUsageSources {
  attachments: QuotaUsageSource<ApiQuotaUsedAttachment>;
  packages: QuotaUsageSource<ApiQuotaUsedPackage>;
  artifacts: QuotaUsageSource<ApiQuotaUsedArtifact>;
  /** Git LFS objects: counted in `size:git:lfs`; the quota API lists none (Forgejo lists none either). */
  lfs: Pick<QuotaUsageSource<never>, 'addUsage'>;
}

/** Rule and group names are keys up to this long (the columns' size). */
const MAX_NAME_LENGTH = 255;

/**
 * Storage quotas, as Forgejo has them: rules limit sums of subjects, groups bundle rules, and accounts (users
 * and organizations) belong to groups; an account in none gets `[quota] DEFAULT_GROUPS`, or else one rule of
 * `[quota.default] TOTAL` on `size:all`. Limits are enforced only while `[quota] ENABLED` is set.
 */
export class QuotaService {
  private readonly sources: Partial<QuotaUsageSources> = {};

  constructor(private readonly ctx: CoreContext) {}

  private get store(): QuotaStore {
    return this.ctx.store(QuotaStore);
  }

  /** Whether quotas are enforced (and their API served). */
  get enabled(): boolean {
    return this.ctx.settings.quota.ENABLED;
  }

  /** Registers what keeps group memberships from outliving their accounts; once per host. */
  subscribe(): void {
    this.ctx.events.withinTransaction('user.deleted', async ({ payload }, tx) => {
      await tx.store(QuotaStore).removeMemberEverywhere(payload.user.id);
    });
  }

  /** Lets a domain that stores files for accounts count them (see `QuotaUsageSource`). */
  provide<K extends keyof QuotaUsageSources>(kind: K, source: QuotaUsageSources[K]): void {
    this.sources[kind] = source;
  }

  // ---- rules (site administrators) ----

  async listRules(actor: Actor): Promise<ApiQuotaRuleInfo[]> {
    assertSiteAdmin(actor);
    return (await this.store.listRules()).map((r) => toApiQuotaRule(r, true));
  }

  async getRule(actor: Actor, name: string): Promise<ApiQuotaRuleInfo> {
    assertSiteAdmin(actor);
    return toApiQuotaRule(await this.loadRule(name), true);
  }

  async createRule(actor: Actor, input: CreateQuotaRuleOptions): Promise<ApiQuotaRuleInfo> {
    assertSiteAdmin(actor);
    const opts = acceptInput(CreateQuotaRuleOptionsSchema, input);
    const name = validName(opts.name);
    if (opts.limit === undefined) throw new ValidationError('Limit', 'Required');
    const row: QuotaRuleRow = { name, limit: opts.limit, subjects: JSON.stringify(parseSubjects(opts.subjects ?? [])) };
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(QuotaStore);
      if (await store.findRule(name)) throw new ConflictError(`rule already exists: [name: ${name}]`);
      await store.insertRule(row);
    });
    return toApiQuotaRule(row, true);
  }

  /** Changes the limit, the subjects, or both; what the options leave out stays. */
  async editRule(actor: Actor, name: string, input: EditQuotaRuleOptions): Promise<ApiQuotaRuleInfo> {
    assertSiteAdmin(actor);
    const opts = acceptInput(EditQuotaRuleOptionsSchema, input);
    const changes: Partial<Omit<QuotaRuleRow, 'name'>> = {};
    if (opts.subjects !== undefined) changes.subjects = JSON.stringify(parseSubjects(opts.subjects));
    if (opts.limit !== undefined) changes.limit = opts.limit;
    const rule = await this.ctx.transaction(async (tx) => {
      const store = tx.store(QuotaStore);
      const current = await store.findRule(name);
      if (!current) throw new NotFoundError();
      await store.updateRule(name, changes);
      return { ...current, ...changes };
    });
    return toApiQuotaRule(rule, true);
  }

  /** Deletes a rule; the groups that held it lose it. */
  async deleteRule(actor: Actor, name: string): Promise<void> {
    assertSiteAdmin(actor);
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(QuotaStore);
      if (!(await store.findRule(name))) throw new NotFoundError();
      await store.deleteRule(name);
    });
  }

  // ---- groups (site administrators) ----

  async listGroups(actor: Actor): Promise<ApiQuotaGroup[]> {
    assertSiteAdmin(actor);
    const groups = await this.withRules(await this.store.listGroups());
    return groups.map((g) => toApiQuotaGroup(g, true));
  }

  async getGroup(actor: Actor, name: string): Promise<ApiQuotaGroup> {
    assertSiteAdmin(actor);
    const group = await this.store.findGroup(name);
    if (!group) throw new NotFoundError();
    const [loaded] = await this.withRules([group]);
    return toApiQuotaGroup(loaded!, true);
  }

  /**
   * Creates a group with its rules, in one transaction: a listed rule that does not exist is created from the
   * listed limit (0 when absent, as Forgejo does) and subjects; one that exists is added as it is.
   */
  async createGroup(actor: Actor, input: CreateQuotaGroupOptions): Promise<ApiQuotaGroup> {
    assertSiteAdmin(actor);
    const opts = acceptInput(CreateQuotaGroupOptionsSchema, input);
    const name = validName(opts.name);
    const wanted = (opts.rules ?? []).map((rule) => ({
      name: validName(rule.name),
      limit: rule.limit ?? 0,
      subjects: rule.subjects === undefined ? undefined : parseSubjects(rule.subjects),
    }));
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(QuotaStore);
      if (await store.findGroup(name)) throw new ConflictError(`group already exists: [name: ${name}]`);
      await store.insertGroup(name);
      const added = new Set<string>();
      for (const rule of wanted) {
        if (!(await store.findRule(rule.name))) {
          await store.insertRule({ name: rule.name, limit: rule.limit, subjects: JSON.stringify(rule.subjects ?? []) });
        }
        if (added.has(rule.name)) throw new ConflictError(`rule already in group: [group: ${name}, rule: ${rule.name}]`);
        added.add(rule.name);
        await store.addRuleToGroup(name, rule.name);
      }
    });
    return this.getGroup(actor, name);
  }

  /** Deletes a group: its members leave it, its rules stay. */
  async deleteGroup(actor: Actor, name: string): Promise<void> {
    assertSiteAdmin(actor);
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(QuotaStore);
      if (!(await store.findGroup(name))) throw new NotFoundError();
      await store.deleteGroup(name);
    });
  }

  async addRuleToGroup(actor: Actor, groupName: string, ruleName: string): Promise<void> {
    assertSiteAdmin(actor);
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(QuotaStore);
      await this.loadGroupAndRule(store, groupName, ruleName);
      if (await store.hasRuleInGroup(groupName, ruleName)) {
        throw new ConflictError(`rule already in group: [group: ${groupName}, rule: ${ruleName}]`);
      }
      await store.addRuleToGroup(groupName, ruleName);
    });
  }

  async removeRuleFromGroup(actor: Actor, groupName: string, ruleName: string): Promise<void> {
    assertSiteAdmin(actor);
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(QuotaStore);
      await this.loadGroupAndRule(store, groupName, ruleName);
      if (!(await store.hasRuleInGroup(groupName, ruleName))) throw new NotFoundError();
      await store.removeRuleFromGroup(groupName, ruleName);
    });
  }

  // ---- members (site administrators) ----

  /** The accounts in a group, in the order they joined. */
  async listMembers(actor: Actor, groupName: string): Promise<User[]> {
    assertSiteAdmin(actor);
    if (!(await this.store.findGroup(groupName))) throw new NotFoundError();
    const ids = await this.store.memberIds(groupName);
    const users = await this.ctx.port(UsersPort).byIds(ids);
    return ids.flatMap((id) => users.get(id) ?? []);
  }

  async addMember(actor: Actor, groupName: string, user: User): Promise<void> {
    assertSiteAdmin(actor);
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(QuotaStore);
      if (!(await store.findGroup(groupName))) throw new NotFoundError();
      if (await store.isMember(groupName, user.id)) throw new ConflictError(`user already in group: [group: ${groupName}, userID: ${user.id}]`);
      await store.addMember(groupName, user.id);
    });
  }

  async removeMember(actor: Actor, groupName: string, user: User): Promise<void> {
    assertSiteAdmin(actor);
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(QuotaStore);
      if (!(await store.findGroup(groupName))) throw new NotFoundError();
      if (!(await store.isMember(groupName, user.id))) throw new NotFoundError();
      await store.removeMember(groupName, user.id);
    });
  }

  /** Makes the account's groups exactly these (none when the list is empty); 422 when one does not exist. */
  async setGroupsOf(actor: Actor, user: User, input: SetUserQuotaGroupsOptions): Promise<void> {
    assertSiteAdmin(actor);
    const opts = acceptInput(SetUserQuotaGroupsOptionsSchema, input);
    const names = [...new Set(opts.groups)];
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(QuotaStore);
      const found = new Set((await store.findGroups(names)).map((g) => g.name));
      const missing = names.find((n) => !found.has(n));
      if (missing !== undefined) throw new ValidationError('', `group not found: [group: ${missing}]`);
      await store.removeMemberEverywhere(user.id);
      for (const name of names) await store.addMember(name, user.id);
    });
  }

  // ---- an account's quota ----

  /**
   * The account's usage and the groups that apply to it. The account itself and site administrators may read
   * it, and an organization's owners (Forgejo's reqOrgOwnership).
   */
  async info(actor: Actor, owner: User): Promise<ApiQuotaInfo> {
    await this.assertMayRead(actor, owner);
    const [usage, groups] = await Promise.all([this.usageOf(owner), this.groupsOf(owner)]);
    return toApiQuotaInfo(usage, groups);
  }

  /**
   * Whether the account is within its quota for the subject (`size:repos:all`, …); always true while quotas are
   * not enabled, as in Forgejo. Throws a 422 for a subject name Forgejo does not know.
   */
  async check(actor: Actor, owner: User, subject: string): Promise<boolean> {
    await this.assertMayRead(actor, owner);
    const parsed = parseSubject(subject.trim());
    return this.evaluate(owner, parsed);
  }

  async listAttachments(actor: Actor, owner: User, page: PageRequest): Promise<Page<ApiQuotaUsedAttachment>> {
    await this.assertMayRead(actor, owner);
    return (await this.sources.attachments?.list(owner.id, page)) ?? { items: [], total: 0 };
  }

  async listPackages(actor: Actor, owner: User, page: PageRequest): Promise<Page<ApiQuotaUsedPackage>> {
    await this.assertMayRead(actor, owner);
    return (await this.sources.packages?.list(owner.id, page)) ?? { items: [], total: 0 };
  }

  async listArtifacts(actor: Actor, owner: User, page: PageRequest): Promise<Page<ApiQuotaUsedArtifact>> {
    await this.assertMayRead(actor, owner);
    return (await this.sources.artifacts?.list(owner.id, page)) ?? { items: [], total: 0 };
  }

  private async assertMayRead(actor: Actor, owner: User): Promise<void> {
    if (isSelf(actor, owner) || isSiteAdmin(actor)) return;
    if (isOrganization(owner) && (await this.ctx.service(OrgsService).isOwner(actor, owner))) return;
    throw new ForbiddenError(isOrganization(owner) ? 'Must be an organization owner' : 'reqSiteAdmin');
  }

  // ---- enforcement ----

  /** Whether the account may grow the subject: true while quotas are off, else as its groups decide. */
  async evaluate(owner: Pick<User, 'id'>, subject: QuotaSubject): Promise<boolean> {
    if (!this.enabled) return true;
    const [usage, groups] = await Promise.all([this.usageOf(owner), this.groupsOf(owner)]);
    const evaluated = groups.map((g) => ({
      rules: g.rules.map((r) => ({ limit: Number(r.limit), subjects: subjectsOf(r).filter(isQuotaSubject) })),
    }));
    return evaluateGroups(evaluated, usage, subject, this.ctx.settings['quota.default'].TOTAL);
  }

  /**
   * Refuses a write that would grow the owner's storage while it is over quota: Forgejo's 413
   * `{"message": "quota exceeded", "user_id", "username"}`. Repository creation asks for `size:repos:all` on the
   * new repository's owner (user, organization, or the user an administrator creates it for).
   */
  async assertCanWrite(owner: Pick<User, 'id' | 'name'>, subject: QuotaSubject = 'size:repos:all'): Promise<void> {
    if (!(await this.evaluate(owner, subject))) throw new QuotaExceededError(owner.id, owner.name);
  }

  /**
   * Whether a push to a repository of this owner must be refused: over quota for `size:repos:all`, as Forgejo's
   * pre-receive hook decides. Such a push may still delete branches and tags; anything else is declined with
   * `Quota exceeded`.
   */
  async pushOverQuota(owner: Pick<User, 'id'>): Promise<boolean> {
    return !(await this.evaluate(owner, 'size:repos:all'));
  }

  // ---- loading ----

  /** What the account uses: its repositories' git size, and whatever the registered sources add. */
  async usageOf(owner: Pick<User, 'id'>): Promise<QuotaUsage> {
    const usage = emptyUsage();
    usage.size.repos = await this.store.repositorySizes(owner.id);
    for (const source of Object.values(this.sources)) await source.addUsage(owner.id, usage);
    return usage;
  }

  /** The groups that apply to the account, with their rules: its own, else the configured default groups. */
  async groupsOf(owner: Pick<User, 'id'>): Promise<LoadedQuotaGroup[]> {
    const own = await this.store.groupNamesOf(owner.id);
    const names = own.length > 0 ? own : (await this.store.findGroups(this.ctx.settings.quota.DEFAULT_GROUPS)).map((g) => g.name);
    return this.withRules(names.map((name) => ({ name })));
  }

  private async withRules(groups: readonly { name: string }[]): Promise<LoadedQuotaGroup[]> {
    const rules = await this.store.rulesOfGroups(groups.map((g) => g.name));
    return groups.map((g) => ({
      name: g.name,
      rules: rules.filter((r) => r.group_name === g.name).map(({ group_name: _, ...rule }) => rule),
    }));
  }

  private async loadRule(name: string): Promise<QuotaRuleRow> {
    const rule = await this.store.findRule(name);
    if (!rule) throw new NotFoundError();
    return rule;
  }

  private async loadGroupAndRule(store: QuotaStore, groupName: string, ruleName: string): Promise<void> {
    if (!(await store.findGroup(groupName))) throw new NotFoundError();
    if (!(await store.findRule(ruleName))) throw new NotFoundError();
  }
}

function assertSiteAdmin(actor: Actor): void {
  if (!isSiteAdmin(actor)) throw new ForbiddenError('reqSiteAdmin');
}


function validName(name: string | undefined): string {
  if (name === undefined || name === '') throw new ValidationError('Name', 'Required');
  if (name.length > MAX_NAME_LENGTH) throw new ValidationError('Name', `MaxSize(${MAX_NAME_LENGTH})`);
  return name;
}

/** A subject name as Forgejo parses it: exactly one of the known names, else a 422 naming it. */
export function parseSubject(name: string): QuotaSubject {
  if (!isQuotaSubject(name)) throw new ValidationError('', `unrecognized quota limit subject: [subject: ${name}]`);
  return name;
}

function parseSubjects(names: readonly string[]): QuotaSubject[] {
  return names.map(parseSubject);
}
