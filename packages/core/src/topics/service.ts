import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { clampPage, offsetOf, type Page, type Paging } from '../paging.js';
import { isSiteAdmin, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import type { CoreTransaction } from '../context.js';
import type { RepoAccess } from '../repos/index.js';
import type { RepoTopics } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import { parseTopics } from '../repos/index.js';
import { MAX_TOPICS_PER_REPO, isValidTopic, normalizeTopic, sanitizeTopics } from './names.js';
import { RepoTopicOptionsSchema, type RepoTopicOptions } from './schemas.js';
import { TopicsStore } from './store.js';
import type { Topic } from './tables.js';

/**
 * Topic names that cannot be stored, or too many of them: a 422 whose body names them (Forgejo's
 * APIInvalidTopicsError, `{"invalidTopics": […], "message": …}`).
 */
export class InvalidTopicsError extends ValidationError {
  constructor(
    readonly invalidTopics: string[] | null,
    message: string,
  ) {
    super('', message);
    this.name = 'InvalidTopicsError';
  }
}

/** The message of every refusal to a caller who may read but not administer the repository. */
const NOT_REPO_ADMIN = 'user should be an owner or a collaborator with admin write of a repository';

/**
 * Repository topics. The `topic`/`repo_topic` rows and the repository's own `topics` column (what
 * `Repository.topics` shows and search matches) change together, in one transaction.
 */
export class TopicsService implements RepoTopics {
  constructor(private readonly ctx: CoreContext) {}

  /** Registers what keeps topic counts true when repositories go; once per host. */
  subscribe(): void {
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => {
      const names = parseTopics(payload.repo.topics);
      if (names.length > 0) await tx.store(TopicsStore).uncount(names, nowUnix());
    });
  }

  /** The repository's topic names, by name, a page at a time. */
  list(_actor: Actor, access: RepoAccess, paging?: Paging): Page<string> {
    const names = parseTopics(access.repo.topics);
    const page = clampPage(this.ctx.settings, paging);
    const start = offsetOf(page);
    return { items: names.slice(start, start + page.limit), total: names.length };
  }

  /**
   * Replaces the repository's topics. Names are normalized; more than 25 valid ones, or any invalid one, is a 422
   * and nothing changes (Gitea's UpdateTopics, in its order: the count first, then the names).
   */
  async replace(actor: Actor, access: RepoAccess, input: RepoTopicOptions): Promise<void> {
    assertRepoAdmin(actor, access);
    const opts = acceptInput(RepoTopicOptionsSchema, input);
    const { valid: wanted, invalid } = sanitizeTopics(opts.topics ?? []);
    if (wanted.length > MAX_TOPICS_PER_REPO) throw new InvalidTopicsError(null, 'Exceeding maximum number of topics per repo');
    if (invalid.length > 0) throw new InvalidTopicsError(invalid, 'Topic names are invalid');
    await this.change(access, async (store, current, now) => {
      const keep = new Set(wanted);
      const removed = current.filter((t) => !keep.has(t.name));
      const have = new Set(current.map((t) => t.name));
      const added = await store.ensure(wanted.filter((n) => !have.has(n)), now);
      await store.unlink(access.repo.id, removed, now);
      await store.link(access.repo.id, added, now);
    });
  }

  /** Adds one topic (nothing happens when the repository has it already). */
  async add(actor: Actor, access: RepoAccess, rawName: string): Promise<void> {
    assertRepoAdmin(actor, access);
    const name = validName(rawName);
    await this.change(access, async (store, current, now) => {
      // Counted before looking for the name, as Forgejo does: at the limit even a topic already there is refused.
      if (current.length >= MAX_TOPICS_PER_REPO) throw new InvalidTopicsError(null, 'Exceeding maximum allowed topics per repo.');
      if (current.some((t) => t.name === name)) return;
      await store.link(access.repo.id, await store.ensure([name], now), now);
    });
  }

  /** Removes one topic; NotFound when the repository does not carry it. */
  async remove(actor: Actor, access: RepoAccess, rawName: string): Promise<void> {
    assertRepoAdmin(actor, access);
    const name = validName(rawName);
    await this.change(access, async (store, current, now) => {
      const topic = current.find((t) => t.name === name);
      if (!topic) throw new NotFoundError();
      await store.unlink(access.repo.id, [topic], now);
    });
  }

  /** Topics whose name contains `keyword` (every topic when it is empty), most used first. */
  search(_actor: Actor, keyword: string, paging?: Paging): Promise<Page<Topic>> {
    return this.ctx.store(TopicsStore).search(keyword.toLowerCase(), clampPage(this.ctx.settings, paging));
  }

  /**
   * Runs `work` on the repository's current topics in a transaction, then writes the repository's `topics`
   * column from what the links say. The row is written first so that concurrent changes to the same repository
   * queue behind each other (its row lock) instead of each writing a column that misses the other's topic.
   */
  private async change(access: RepoAccess, work: (store: TopicsStore, current: Topic[], now: number) => Promise<void>): Promise<void> {
    const repoId = access.repo.id;
    const column = await this.ctx.transaction(async (tx: CoreTransaction) => {
      const repos = tx.port(ReposPort);
      if (!(await repos.setTopics(repoId, access.repo.topics))) throw new NotFoundError();
      const store = tx.store(TopicsStore);
      await work(store, await store.topicsOf(repoId), nowUnix());
      const names = (await store.topicsOf(repoId)).map((t) => t.name);
      const text = JSON.stringify(names);
      await repos.setTopics(repoId, text);
      return text;
    });
    // The caller's loaded repository shows what was stored.
    access.repo.topics = column;
  }
}

function assertRepoAdmin(actor: Actor, access: RepoAccess): void {
  if (access.mode < AccessMode.Admin && !isSiteAdmin(actor)) throw new ForbiddenError(NOT_REPO_ADMIN);
}

/** A single name from the path: normalized, and refused (not repaired) when invalid. */
function validName(raw: string): string {
  const name = normalizeTopic(raw);
  if (!isValidTopic(name)) throw new InvalidTopicsError([name], 'Topic name is invalid');
  return name;
}
