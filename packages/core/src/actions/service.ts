import type { CoreContext, CoreTransaction } from '../context.js';
import { isSelf, isSiteAdmin, type Actor, type User } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { viewUnits, type RepoAccess } from '../repos/index.js';
import { OrgsService } from '../orgs/index.js';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../errors.js';
import type { Page, PageRequest } from '../paging.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { countRekey, decryptSecret, emptyRekeyCounts, encryptSecret, forEachRowInBatches, rekeySecret, type RekeyCounts, type SecretRekey } from '../security/index.js';
import { acceptInput } from '../validation/index.js';
import { assertDataSize, assertSecretName, assertVariableName, lookupName, normalizeLineEndings, storedName } from './names.js';
import {
  CreateOrUpdateSecretOptionSchema,
  CreateVariableOptionSchema,
  UpdateVariableOptionSchema,
  type CreateOrUpdateSecretOption,
  type CreateVariableOption,
  type UpdateVariableOption,
} from './schemas.js';
import { ActionsStore, type ActionsScope, type SecretListing } from './store.js';
import type { ActionVariable } from './tables.js';

/** What an API path names: a repository's secrets and variables, an organization's, or the signed-in user's. */
export type ActionsOwner = { kind: 'repo'; access: RepoAccess } | { kind: 'org'; org: User } | { kind: 'user'; user: User };

/** The purpose secrets are encrypted under (`security/secrets.ts`); it never changes. */
export const SECRET_PURPOSE = 'actions secret';

/** Forgejo's `ErrSecretNotFound` (its name is never filled in). */
const SECRET_NOT_FOUND = 'secret was not found [name: ]';
const VARIABLE_NOT_FOUND = 'variable not found';

/**
 * Actions secrets and variables of repositories, organizations and users (Forgejo's `services/secrets` and
 * `services/actions/variables.go`). A secret's value is encrypted at rest and never leaves this service: lists show
 * names and creation times; a variable's value is shown as it is. Names follow Forgejo's rules (`names.ts`), are
 * matched case-insensitively and stored upper-case; values have their CRLF line endings made LF.
 */
export class ActionsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): ActionsStore {
    return this.ctx.store(ActionsStore);
  }

  /** A deleted repository's secrets and variables go with it; an account's (organizations' too) with the account. */
  subscribe(): void {
    const events = this.ctx.events;
    events.withinTransaction('repo.deleted', async ({ payload }, tx) => tx.store(ActionsStore).deleteScope({ ownerId: 0, repoId: payload.repo.id }));
    events.withinTransaction('user.deleted', async ({ payload }, tx) => tx.store(ActionsStore).deleteScope({ ownerId: payload.user.id, repoId: 0 }));
  }

  /** Moves the stored secrets to a new key, inside the caller's transaction. */
  async reencryptSecrets(tx: CoreTransaction, rekey: SecretRekey): Promise<RekeyCounts> {
    const store = tx.store(ActionsStore);
    const counts = emptyRekeyCounts();
    await forEachRowInBatches(
      (after, limit) => store.secretsAfter(after, limit),
      async (row) => {
        const stored = countRekey(counts, rekeySecret(rekey, SECRET_PURPOSE, row.data), `actions secret ${row.id}`);
        if (stored !== undefined) await store.setSecretData(row.id, stored);
      },
    );
    return counts;
  }

  // ---- what a task receives ----

  /**
   * The secrets a workflow task of the repository receives, by name (Forgejo's `getSecretsOfTask`): the owner's,
   * overridden by the repository's. A value that no longer decrypts (the key changed without re-encryption) is left
   * out rather than sent wrong.
   */
  async secretsForTask(ownerId: number, repoId: number): Promise<Map<string, string>> {
    const key = this.ctx.settings.security.SECRET_KEY;
    const secrets = new Map<string, string>();
    for (const row of await this.store.secretsOfRepo(ownerId, repoId)) {
      const value = decryptSecret(key, SECRET_PURPOSE, row.data);
      if (value !== undefined) secrets.set(row.name, value);
    }
    return secrets;
  }

  /** The variables a workflow task of the repository receives: the owner's, overridden by the repository's. */
  async variablesForTask(ownerId: number, repoId: number): Promise<Map<string, string>> {
    const variables = new Map<string, string>();
    for (const row of await this.store.variablesOfRepo(ownerId, repoId)) variables.set(row.name, row.data);
    return variables;
  }

  // ---- who may manage which ----

  /**
   * Forgejo's checks: a repository's owners (`reqOwner`: its owner, an organization's owners) with the Actions unit
   * enabled (404 otherwise); an organization's owners (`reqOrgOwnership`); the signed-in user for their own. Site
   * administrators pass the first two; the system passes all.
   */
  async assertManage(actor: Actor, owner: ActionsOwner): Promise<ActionsScope> {
    if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
    if (owner.kind === 'repo') {
      if (viewUnits(owner.access.repo.units, this.ctx.settings).actions === undefined) throw new NotFoundError();
      if (owner.access.mode < AccessMode.Owner && !isSiteAdmin(actor)) throw new ForbiddenError('user should be the owner of the repo');
      return { ownerId: 0, repoId: owner.access.repo.id };
    }
    if (owner.kind === 'org') {
      await this.ctx.service(OrgsService).assertOwner(actor, owner.org);
      return { ownerId: owner.org.id, repoId: 0 };
    }
    if (!isSelf(actor, owner.user) && actor.kind !== 'system') throw new ForbiddenError('only the account itself may manage its secrets and variables');
    return { ownerId: owner.user.id, repoId: 0 };
  }

  // ---- secrets ----

  /** The secrets' names and creation times, by name; never their values. */
  async listSecrets(actor: Actor, owner: ActionsOwner, page: PageRequest): Promise<Page<SecretListing>> {
    return this.store.secrets(await this.assertManage(actor, owner), page);
  }

  /**
   * Forgejo's `CreateOrUpdateSecret`: sets secret `name` to `data` (CRLF made LF, encrypted); `created` when there
   * was none of that name. Of two callers creating one name at once, one creates and the other updates.
   */
  async putSecret(actor: Actor, owner: ActionsOwner, name: string, input: CreateOrUpdateSecretOption): Promise<{ created: boolean }> {
    const scope = await this.assertManage(actor, owner);
    const { data } = acceptInput(CreateOrUpdateSecretOptionSchema, input);
    assertSecretName(name);
    assertDataSize('data', data);
    const key = storedName(name);
    const encrypted = encryptSecret(this.ctx.settings.security.SECRET_KEY, SECRET_PURPOSE, normalizeLineEndings(data));
    const store = this.store;
    // A secret deleted between the insert that found it and the update that wanted it is created again.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await store.insertSecretIfAbsent(scope, key, encrypted, nowUnix())) return { created: true };
      if (await store.updateSecretData(scope, key, encrypted)) return { created: false };
    }
    throw new ConflictError(`secret ${key} is being changed by another request`);
  }

  /** Forgejo's `DeleteSecretByName`: 404 when the scope has no secret of that name. */
  async deleteSecret(actor: Actor, owner: ActionsOwner, name: string): Promise<void> {
    const scope = await this.assertManage(actor, owner);
    const key = lookupName(name);
    if (key === undefined || !(await this.store.deleteSecret(scope, key))) throw new NotFoundError(SECRET_NOT_FOUND);
  }

  // ---- variables ----

  /** The variables, in the order they were created. */
  async listVariables(actor: Actor, owner: ActionsOwner, page: PageRequest): Promise<Page<ActionVariable>> {
    return this.store.variables(await this.assertManage(actor, owner), page);
  }

  async getVariable(actor: Actor, owner: ActionsOwner, name: string): Promise<ActionVariable> {
    const scope = await this.assertManage(actor, owner);
    return this.findVariable(scope, name);
  }

  /** Forgejo's `CreateVariable`: 409 when the scope has one of that name already (the first of two at once wins). */
  async createVariable(actor: Actor, owner: ActionsOwner, name: string, input: CreateVariableOption): Promise<ActionVariable> {
    const scope = await this.assertManage(actor, owner);
    const { value } = acceptInput(CreateVariableOptionSchema, input);
    const key = lookupName(name);
    // Forgejo looks the name up before it checks it: a name taken is a conflict whatever the rules say now.
    if (key !== undefined && (await this.store.findVariable(scope, key))) throw variableExists(name);
    assertVariableName(name);
    assertDataSize('value', value);
    const created = await this.store.insertVariableIfAbsent(scope, storedName(name), normalizeLineEndings(value), nowUnix());
    if (!created) throw variableExists(name);
    return created;
  }

  /**
   * Forgejo's `UpdateVariable`: a new value, and a new name when `name` is given and not empty (404 for a variable
   * the scope does not have, 409 for a name another of its variables has).
   */
  async updateVariable(actor: Actor, owner: ActionsOwner, name: string, input: UpdateVariableOption): Promise<ActionVariable> {
    const scope = await this.assertManage(actor, owner);
    const opts = acceptInput(UpdateVariableOptionSchema, input);
    const variable = await this.findVariable(scope, name);
    const newName = opts.name || name;
    assertVariableName(newName);
    assertDataSize('value', opts.value);
    const key = storedName(newName);
    const data = normalizeLineEndings(opts.value);
    const now = nowUnix();
    try {
      if (!(await this.store.updateVariable(variable.id, key, data, now))) throw new NotFoundError(VARIABLE_NOT_FOUND);
    } catch (error) {
      if (isUniqueViolation(error)) throw variableExists(newName);
      throw error;
    }
    return { ...variable, name: key, data, updated_unix: now };
  }

  /** Forgejo's `DeleteVariableByName`: 404 when the scope has no variable of that name. */
  async deleteVariable(actor: Actor, owner: ActionsOwner, name: string): Promise<void> {
    const scope = await this.assertManage(actor, owner);
    const key = lookupName(name);
    if (key === undefined || !(await this.store.deleteVariable(scope, key))) throw new NotFoundError(VARIABLE_NOT_FOUND);
  }

  private async findVariable(scope: ActionsScope, name: string): Promise<ActionVariable> {
    const key = lookupName(name);
    const variable = key === undefined ? undefined : await this.store.findVariable(scope, key);
    if (!variable) throw new NotFoundError(VARIABLE_NOT_FOUND);
    return variable;
  }
}

function variableExists(name: string): ConflictError {
  return new ConflictError(`variable name ${name} already exists`);
}
