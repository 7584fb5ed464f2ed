import './events.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { actorUser, isSiteAdmin, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { AccessService } from '../access/index.js';
import { OrgsService } from '../orgs/index.js';
import { OrgsPort } from '../orgs/index.js';
import { TeamsService } from '../orgs/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { RepositoryExistsError } from '../git/index.js';
import { UsersPort } from '../users/index.js';
import { isOrganization, type User } from '../users/index.js';
import { TransferRepoOptionSchema, type TransferRepoOption } from './schemas.js';
import { ReposStore } from './store.js';
import { RepoStorageService } from './storage.js';
import { repoKey, type RepoAccess } from './service.js';
import { repositoryExistsError } from './edit.js';
import type { PendingTransferView } from './convert.js';
import { RepoStatus, type Repository, type RepoTransfer } from './tables.js';

export { RepoStatus };

/** A repository with the actor's access and, while one is offered, its pending transfer. */
export type RepoAccessWithTransfer = RepoAccess & { pendingTransfer?: PendingTransferView };

/** What `start` did: moved the repository at once, or offered it to the recipient (`pending`). */
export interface TransferOutcome {
  access: RepoAccessWithTransfer;
  pending: boolean;
}

/** A pending transfer the actor may answer, with the repository it concerns (see `resolveOffered`). */
export interface OfferedTransfer {
  access: RepoAccess;
  transfer: RepoTransfer;
  doer: User;
  recipient: User;
}

/**
 * Transfers of repositories between owners, as Forgejo does them: a site administrator, or an owner moving a
 * repository to an account they may create repositories for, moves it at once; otherwise the recipient is
 * offered it and accepts or rejects. The git storage moves with the row (`RepoStorageService.changeWithStorage`).
 * Organization recipients: members allowed to create repositories there move it at once; `team_ids` are given it.
 */
export class RepoTransferService {
  constructor(private readonly ctx: CoreContext) {}

  private get storage(): RepoStorageService {
    return this.ctx.service(RepoStorageService);
  }

  /** Starts a transfer of `access` to `input.new_owner`. The owner and site administrators may. */
  async start(actor: Actor, access: RepoAccess, input: TransferRepoOption): Promise<TransferOutcome> {
    if (access.mode < AccessMode.Owner && !isSiteAdmin(actor)) throw new ForbiddenError('user should be the owner of the repo');
    const opts = acceptInput(TransferRepoOptionSchema, input);
    const { repo, owner } = access;
    const recipient = await this.ctx.port(UsersPort).byName(opts.new_owner);
    // A private organization stays unknown to those who may not see it; an individual is found by name.
    if (!recipient || (isOrganization(recipient) && !(await this.ctx.service(AccessService).canSee(actor, recipient)))) {
      throw new NotFoundError('The new owner does not exist or cannot be found');
    }
    let teamIds: number[] = [];
    if (opts.team_ids !== undefined) {
      if (!isOrganization(recipient)) throw new ValidationError('', 'Teams can only be added to organization-owned repositories');
      teamIds = await this.ctx.service(TeamsService).transferTeams(recipient, opts.team_ids);
    }
    await this.assertReadyForTransfer(repo);

    const doer = actorUser(actor);
    // A recipient who blocked the one offering (or the owner) takes nothing from them (as Forgejo refuses it).
    const offeredBy = [...new Set([owner.id, ...(doer ? [doer.id] : [])])].filter((id) => id !== recipient.id);
    if (!isSiteAdmin(actor)) {
      const blocks = this.ctx.port(UsersPort);
      for (const id of offeredBy) if (await blocks.isBlocked(recipient.id, id)) throw new ForbiddenError('the new owner has blocked you');
    }
    if (isSiteAdmin(actor) || doer?.id === recipient.id || (isOrganization(recipient) && (await this.mayCreateRepositoryFor(actor, recipient)))) {
      return { access: await this.moveTo(actor, access, recipient, teamIds), pending: false };
    }
    if (!doer) throw new ForbiddenError('user should be the owner of the repo');

    const now = nowUnix();
    try {
      const offered = await this.ctx.transaction(async (tx) => {
        const store = tx.store(ReposStore);
        if (await store.findByOwnerAndName(recipient.id, repo.lower_name)) throw repositoryExistsError(recipient, repo.name);
        const row = await store.updateIfUnchanged(repo.id, repo, { status: RepoStatus.PendingTransfer });
        if (!row) throw new ConflictError('repository is already being transferred');
        // The teams are kept with the offer and given the repository when it is accepted.
        await store.insertTransfer({ doer_id: doer.id, recipient_id: recipient.id, repo_id: repo.id, team_ids: JSON.stringify(teamIds), created_unix: now, updated_unix: now });
        tx.emit('repo.transfer_offered', { repo: row, owner, recipient, actor });
        return row;
      });
      return { access: { repo: offered, owner, mode: access.mode, pendingTransfer: { doer, recipient } }, pending: true };
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('repository is already being transferred');
      throw error;
    }
  }

  /**
   * The repository `owner/name` as the recipient of its pending transfer sees it, for accepting or rejecting:
   * NotFound when the actor may not see the repository or nothing is pending, Forbidden for anyone but the
   * recipient. The recipient may see a private repository offered to them, as Forgejo grants them read access.
   */
  async resolveOffered(actor: Actor, ownerName: string, name: string): Promise<OfferedTransfer> {
    const owner = await this.ctx.port(UsersPort).byName(ownerName);
    const repo = owner && (await this.ctx.store(ReposStore).findByOwnerAndName(owner.id, name));
    if (!owner || !repo) throw new NotFoundError();
    const transfer = repo.status === RepoStatus.PendingTransfer ? await this.ctx.store(ReposStore).findTransfer(repo.id) : undefined;
    const access = await this.ctx.service(AccessService).repoAccess(actor, repo, owner);
    if (!transfer) throw new NotFoundError();
    const users = await this.ctx.port(UsersPort).byIds([transfer.doer_id, transfer.recipient_id]);
    const doer = users.get(transfer.doer_id);
    const recipient = users.get(transfer.recipient_id);
    // Both accounts are referenced with ON DELETE CASCADE: a transfer row outlives neither.
    if (!doer || !recipient) throw new NotFoundError();
    const mayAnswer = await this.mayAnswer(actor, recipient);
    let mode = access.mode;
    // Whoever may answer the offer may see the repository offered, as Forgejo grants the recipient read access.
    if (mode === AccessMode.None && mayAnswer) mode = AccessMode.Read;
    if (mode === AccessMode.None) throw new NotFoundError();
    if (!mayAnswer) throw new ForbiddenError('user does not have permissions to do this');
    return { access: { ...access, mode }, transfer, doer, recipient };
  }

  /** The recipient takes the repository offered to them (as `resolveOffered` found it): it moves to them at once. */
  async accept(actor: Actor, offered: OfferedTransfer): Promise<RepoAccess> {
    return this.moveTo(actor, offered.access, offered.recipient, parseTeamIds(offered.transfer.team_ids));
  }

  /** The recipient declines the repository offered to them: it stays where it is, ready again. */
  async reject(actor: Actor, offered: OfferedTransfer): Promise<RepoAccess> {
    const { access, recipient } = offered;
    const { repo, owner } = access;
    const row = await this.ctx.transaction(async (tx) => {
      const store = tx.store(ReposStore);
      const updated = await store.updateIfUnchanged(repo.id, repo, { status: RepoStatus.Ready });
      if (!updated) throw new ConflictError('the repository was changed meanwhile; try again');
      await store.deleteTransfers(repo.id);
      tx.emit('repo.transfer_rejected', { repo: updated, owner, recipient, actor });
      return updated;
    });
    return { repo: row, owner, mode: access.mode };
  }

  /**
   * Loads the pending transfers of the repositories among `items` that have one, so `toApiRepository` shows
   * `repo_transfer`: one query for the transfers and one for their accounts, none when nothing is pending.
   */
  async withPendingTransfers<T extends RepoAccess>(items: readonly T[]): Promise<(T & { pendingTransfer?: PendingTransferView })[]> {
    const pending = items.filter((i) => i.repo.status === RepoStatus.PendingTransfer).map((i) => i.repo.id);
    if (pending.length === 0) return [...items];
    const transfers = new Map((await this.ctx.store(ReposStore).transfersOf(pending)).map((t) => [t.repo_id, t]));
    const users = await this.ctx.port(UsersPort).byIds([...transfers.values()].flatMap((t) => [t.doer_id, t.recipient_id]));
    return items.map((item) => {
      const transfer = transfers.get(item.repo.id);
      const doer = transfer && users.get(transfer.doer_id);
      const recipient = transfer && users.get(transfer.recipient_id);
      return doer && recipient ? { ...item, pendingTransfer: { doer, recipient } } : item;
    });
  }

  /**
   * Moves the repository to `recipient`: storage first (recorded as an intent), then, in one transaction, the row,
   * both owners' repository counts and the end of any pending transfer.
   */
  private async moveTo(actor: Actor, access: RepoAccess, recipient: User, teamIds: readonly number[] = []): Promise<RepoAccess> {
    const { repo, owner } = access;
    const to = repoKey(recipient, repo);
    if ((await this.ctx.store(ReposStore).findByOwnerAndName(recipient.id, repo.lower_name)) || (await this.ctx.git.exists(to))) {
      throw repositoryExistsError(recipient, repo.name);
    }
    try {
      const moved = await this.storage.changeWithStorage({ repoId: repo.id, move: { from: repoKey(owner, repo), to } }, async (tx) => {
        const store = tx.store(ReposStore);
        const row = await store.updateIfUnchanged(repo.id, repo, { owner_id: recipient.id, status: RepoStatus.Ready, updated_unix: nowUnix() });
        if (!row) throw new ConflictError('the repository was changed meanwhile; try again');
        await store.deleteTransfers(repo.id);
        const users = tx.port(UsersPort);
        await users.adjustRepoCount(recipient.id, 1);
        await users.adjustRepoCount(owner.id, -1);
        tx.emit('repo.transferred', { repo: row, owner: recipient, previousOwner: owner, actor });
        // Teams named with the transfer (those still there): in the same transaction as the move.
        await tx.port(OrgsPort).addRepoToTeams(recipient.id, teamIds, repo.id);
        return row;
      });
      return this.ctx.service(AccessService).repoAccess(actor, moved, recipient);
    } catch (error) {
      // The name was taken at the recipient (row or storage) after the check above.
      if (error instanceof RepositoryExistsError || isUniqueViolation(error)) throw repositoryExistsError(recipient, repo.name);
      throw error;
    }
  }

  private async assertReadyForTransfer(repo: Repository): Promise<void> {
    if (repo.status === RepoStatus.PendingTransfer) {
      // A transfer row goes with its recipient's account: a status left pending without one is ready again.
      if (await this.ctx.store(ReposStore).findTransfer(repo.id)) throw new ConflictError('repository is already being transferred');
    } else if (repo.status !== RepoStatus.Ready) {
      throw new ConflictError('repo is not ready, currently migrating');
    }
  }

  /** Whether the actor may create repositories owned by `organization`: its owners, teams allowed to, site administrators. */
  private mayCreateRepositoryFor(actor: Actor, organization: User): Promise<boolean> {
    return this.ctx.service(OrgsService).canCreateRepo(actor, organization);
  }

  /**
   * Whether the actor may accept or reject a transfer to `recipient`: the recipient itself, or for an
   * organization, whoever may create repositories for it.
   */
  private async mayAnswer(actor: Actor, recipient: User): Promise<boolean> {
    if (isOrganization(recipient)) return this.mayCreateRepositoryFor(actor, recipient);
    return actorUser(actor)?.id === recipient.id;
  }
}

/** The team ids stored with a pending transfer (a JSON array; anything else is none). */
function parseTeamIds(text: string): number[] {
  try {
    const parsed: unknown = JSON.parse(text || '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isSafeInteger(id)) : [];
  } catch {
    return [];
  }
}
