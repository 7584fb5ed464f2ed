import type { CoreContext } from '../context.js';
import { isSiteAdmin, type Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import type { RepoAccess } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import {
  CreateMilestoneOptionSchema,
  EditMilestoneOptionSchema,
  type CreateMilestoneOption,
  type EditMilestoneOption,
  type MilestoneListQuery,
} from './schemas.js';
import { MilestonesStore, type MilestoneFilter } from './store.js';
import type { Milestone } from './tables.js';
import './issues.js';

/** Forgejo's refusal when the actor may not write issues or pull requests of the repository. */
const NOT_WRITER = 'user should have a permission to write to a repo';

/** First second of year 9999: Forgejo's "no due date" lies past it, and so does any date it does not show. */
const NO_DUE_DATE_FROM = Date.UTC(9999, 0, 1) / 1000;

/**
 * Go's `strconv.ParseInt(s, 0, 64)`, which Forgejo reads a milestone's path segment with: decimal, or with a
 * `0x`, `0o`, `0b` or `0` (octal) prefix, underscores between digits allowed with a prefix. 0 when it is no number.
 */
export function parseGoInt(text: string): number {
  const negative = text.startsWith('-');
  let body = /^[+-]/.test(text) ? text.slice(1) : text;
  let base = 10;
  const prefix = /^0[xXoObB]/.exec(body)?.[0] ?? (body.length > 1 && body.startsWith('0') ? '0' : '');
  if (prefix) {
    base = prefix === '0' ? 8 : ({ x: 16, o: 8, b: 2 } as const)[prefix[1]!.toLowerCase() as 'x' | 'o' | 'b'];
    body = body.slice(prefix.length);
  }
  // Longer than any int64 in any base (binary, with separators): no number Go would take.
  if (body.length > 128) return 0;
  if (body.includes('_')) {
    if (!prefix || /__|_$/.test(body)) return 0;
    body = body.replace(/_/g, '');
  }
  const digits = '0123456789abcdef'.slice(0, base);
  if (body === '' || [...body.toLowerCase()].some((c) => !digits.includes(c))) return 0;
  const value = [...body.toLowerCase()].reduce((n, c) => n * BigInt(base) + BigInt(digits.indexOf(c)), 0n);
  // Past int64 Go fails; past JavaScript's safe integers no id exists either way.
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) return 0;
  return negative ? -Number(value) : Number(value);
}

/** A due date from the wire, in unix seconds; 0 (none) for dates Forgejo would not show. */
function dueOn(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new ValidationError('due_on', 'invalid time');
  const unix = Math.floor(ms / 1000);
  return unix >= NO_DUE_DATE_FROM ? 0 : unix;
}

/** A repository's milestones: reading them (anyone who sees the repository) and writing them (issue writers). */
export class MilestonesService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): MilestonesStore {
    return this.ctx.store(MilestonesStore);
  }

  /** Milestones go with their repository. */
  subscribe(): void {
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => {
      await tx.store(MilestonesStore).deleteOfRepo(payload.repo.id);
    });
  }

  /** Write on issues or on pull requests (Forgejo's `reqRepoWriter(issues, pulls)`), repository admins, site admins. */
  mayWrite(actor: Actor, access: RepoAccess): boolean {
    if (isSiteAdmin(actor) || access.mode >= AccessMode.Admin) return true;
    return unitMode(access, 'repo.issues') >= AccessMode.Write || unitMode(access, 'repo.pulls') >= AccessMode.Write;
  }

  /** Forbidden unless `mayWrite`. */
  assertWriter(actor: Actor, access: RepoAccess): void {
    if (!this.mayWrite(actor, access)) throw new ForbiddenError(NOT_WRITER);
  }

  /**
   * `state` open (the default, as documented), closed or all (any other text: open); `name` matches part of the
   * name in any case.
   */
  list(_actor: Actor, access: RepoAccess, query: MilestoneListQuery, paging?: Paging): Promise<Page<Milestone>> {
    const state = query.state;
    const filter: MilestoneFilter = { name: query.name || undefined };
    if (state !== 'all') filter.isClosed = state === 'closed';
    return this.store.list(access.repo.id, filter, clampPage(this.ctx.settings, paging));
  }

  /** The milestone a path names: by id when it reads as a number and that id exists here, else by exact name. */
  async resolve(_actor: Actor, access: RepoAccess, idOrName: string): Promise<Milestone> {
    const id = parseGoInt(idOrName);
    if (id > 0) {
      const byId = await this.store.byId(access.repo.id, id);
      if (byId) return byId;
    }
    const byName = await this.store.byName(access.repo.id, idOrName);
    if (!byName) throw new NotFoundError();
    return byName;
  }

  async create(actor: Actor, access: RepoAccess, input: CreateMilestoneOption): Promise<Milestone> {
    this.assertWriter(actor, access);
    const opts = acceptInput(CreateMilestoneOptionSchema, input);
    const now = nowUnix();
    const closed = opts.state === 'closed';
    return this.store.insert({
      repo_id: access.repo.id,
      name: (opts.title ?? '').trim(),
      content: opts.description ?? '',
      deadline_unix: opts.due_on === undefined ? 0 : dueOn(opts.due_on),
      is_closed: closed ? 1 : 0,
      closed_date_unix: closed ? now : 0,
      created_unix: now,
      updated_unix: now,
    });
  }

  /**
   * Changes what the options name: an empty title and a zero due date change nothing (a due date cannot be
   * removed here, as in Forgejo); `state` "closed" closes, any other text opens.
   */
  async edit(actor: Actor, access: RepoAccess, milestone: Milestone, input: EditMilestoneOption): Promise<Milestone> {
    this.assertWriter(actor, access);
    const opts = acceptInput(EditMilestoneOptionSchema, input);
    const now = nowUnix();
    const changes: Partial<Pick<Milestone, 'name' | 'content' | 'deadline_unix' | 'is_closed' | 'closed_date_unix' | 'updated_unix'>> = { updated_unix: now };
    if (opts.title) changes.name = opts.title.trim();
    if (opts.description !== undefined) changes.content = opts.description;
    if (opts.due_on !== undefined && Date.parse(opts.due_on) !== Date.parse('0001-01-01T00:00:00Z')) changes.deadline_unix = dueOn(opts.due_on);
    if (opts.state !== undefined) {
      const closed = opts.state === 'closed';
      changes.is_closed = closed ? 1 : 0;
      if (closed && !milestone.is_closed) changes.closed_date_unix = now;
    }
    const updated = await this.store.update(milestone.id, changes);
    if (!updated) throw new NotFoundError();
    return updated;
  }

  /** Deletes the milestone; its issues keep no milestone. */
  async delete(actor: Actor, access: RepoAccess, milestone: Milestone): Promise<void> {
    this.assertWriter(actor, access);
    await this.ctx.transaction(async (tx) => {
      if (!(await tx.store(MilestonesStore).delete(access.repo.id, milestone.id))) return;
      await this.ctx.provider('milestones.issues').clearMilestone(tx, milestone.id);
    });
  }
}
