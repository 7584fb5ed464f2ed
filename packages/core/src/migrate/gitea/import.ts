/**
 * Content migration from a Gitea, Forgejo or RepoHost instance by its API, after the git data is in place (the
 * migration job calls it): labels, milestones, releases with assets, issues and pull requests with their comments,
 * as asked. Steps run in Forgejo's order and report progress each page; the signal stops the import between
 * items. Failures are `MigrationError`s whose text holds no credentials.
 *
 * Not migrated: issue and comment attachments (the wiki is cloned by the migration itself, from `<remote>.wiki.git`).
 */
import { userActor, type Actor } from '../../users/index.js';
import type { CoreContext } from '../../context.js';
import { repoKey } from '../../repos/index.js';
import type { Repository } from '../../repos/index.js';
import type { User } from '../../users/index.js';
import { prepareRemote } from '../../remote/index.js';
import type { CheckedRemote } from '../../remote/index.js';
import { GiteaApiClient, MigrationError } from './client.js';
import { GiteaDownloader, type RemoteIssue, type RemotePage } from './downloader.js';
import { GiteaUploader, type IssueWithComments } from './uploader.js';
import { trimEnd } from '../../text.js';

export { MigrationError } from './client.js';

/** What of the remote repository to bring over, as `MigrateRepoOptions` asks for it. */
export interface ImportItems {
  issues: boolean;
  labels: boolean;
  milestones: boolean;
  releases: boolean;
  pull_requests: boolean;
  comments: boolean;
  wiki: boolean;
}

/** The steps progress is reported for, in the order they run. */
export type ImportStep = 'labels' | 'milestones' | 'releases' | 'issues' | 'comments' | 'pull_requests';

export interface ImportRepositoryContentInput {
  repo: Repository;
  owner: User;
  /** Who migrates: the importer acts for them (redirect checks, merged pull requests' merger). */
  doer: User;
  /** The remote instance's base URL (`http://host:port/` or with a sub-path) and its basic credentials. */
  remote: CheckedRemote;
  /** An access token on the remote (preferred over basic credentials). */
  token?: string;
  sourceOwner: string;
  sourceName: string;
  items: ImportItems;
  progress: (step: ImportStep, done: number, total: number) => Promise<void>;
  signal: AbortSignal;
}

/** A list read page by page is cut here (a remote that never stops answering full pages). */
const MAX_PAGES = 100_000;

export async function importRepositoryContent(ctx: CoreContext, input: ImportRepositoryContentInput): Promise<void> {
  const { items, progress, signal } = input;
  const actor = userActor(input.doer);
  const client = new GiteaApiClient({ settings: ctx.settings, actor, remote: input.remote, token: input.token, signal });
  const downloader = new GiteaDownloader(client, input.sourceOwner, input.sourceName);
  // Accounts are the same people only when the remote is this very instance (Forgejo's "same app" rule).
  const sameInstance = trimEnd(client.baseUrl, '/') === trimEnd(ctx.settings.server.ROOT_URL, '/');
  const uploader = new GiteaUploader(ctx, input.repo, input.owner, input.doer, sameInstance);
  try {
    const wantsAny = items.labels || items.milestones || items.releases || items.issues || items.pull_requests;
    if (!wantsAny) return;
    await downloader.open();
    await uploader.prepare();

    if (items.milestones) {
      await eachPage((page) => downloader.milestones(page), client, async (page, done, total) => {
        await uploader.milestones(page.items);
        await progress('milestones', done, total);
      });
    }
    if (items.labels) {
      await eachPage((page) => downloader.labels(page), client, async (page, done, total) => {
        await uploader.labels(page.items);
        await progress('labels', done, total);
      });
    }
    if (items.releases) {
      await eachPage((page) => downloader.releases(page), client, async (page, done, total) => {
        for (const release of page.items) {
          client.checkAborted();
          await uploader.release(client, release);
        }
        await progress('releases', done, total);
      });
    }
    let commentsRead = 0;
    // Comments, reactions and reviews of a page, read before anything of it is written (Forgejo reads reactions always).
    const withComments = async <T extends RemoteIssue>(list: readonly T[], isPull: boolean): Promise<IssueWithComments<T>[]> => {
      const out: IssueWithComments<T>[] = [];
      for (const item of list) {
        client.checkAborted();
        const comments = items.comments ? await downloader.comments(item.number) : [];
        for (const comment of comments) comment.reactions = await downloader.commentReactions(comment.id);
        const reactions = await downloader.issueReactions(item.number);
        const reviews = isPull && items.comments ? await downloader.reviews(item.number) : [];
        out.push({ item, comments, reactions, reviews });
        commentsRead += comments.length;
      }
      if (items.comments) await progress('comments', commentsRead, commentsRead);
      return out;
    };
    if (items.issues) {
      await eachPage((page) => downloader.issues(page), client, async (page, done, total) => {
        await uploader.issues(await withComments(page.items, false));
        await progress('issues', done, total);
      });
    }
    if (items.pull_requests) {
      await fetchPullHeads(ctx, actor, input, client);
      await eachPage((page) => downloader.pulls(page), client, async (page, done, total) => {
        await uploader.pulls(await withComments(page.items, true));
        await progress('pull_requests', done, total);
      });
    }
    await uploader.finish();
  } catch (error) {
    if (error instanceof MigrationError) throw new MigrationError(client.redact(error.message));
    if (signal.aborted) throw new MigrationError('the migration was stopped');
    throw new MigrationError(client.redact(`the migration failed: ${error instanceof Error ? error.message : String(error)}`));
  }
}

/**
 * Brings the remote's pull request heads (`refs/pull/N/head`) into the repository in one fetch, so that pull
 * requests from forks and closed ones keep their commits (the clone takes branches and tags only). Numbers are
 * kept, so the refs land where the imported pull requests look. Best effort: a remote that refuses, or a backend
 * without remote git, leaves each pull request to the commits the clone brought.
 */
async function fetchPullHeads(ctx: CoreContext, actor: Actor, input: ImportRepositoryContentInput, client: GiteaApiClient): Promise<void> {
  const base = client.baseUrl;
  const address = `${base}${encodeURIComponent(input.sourceOwner)}/${encodeURIComponent(input.sourceName)}.git`;
  const credentials = input.remote.credentials ?? (input.token ? { username: 'oauth2', password: input.token } : undefined);
  const timeoutMs = Math.max(1, ctx.settings['git.timeout'].MIGRATE) * 1000;
  try {
    const prepared = await prepareRemote(ctx.settings, actor, { address, ...credentials }, { timeoutMs, signal: input.signal });
    await ctx.git.fetchRemote(repoKey(input.owner, input.repo), prepared.git, { refspecs: ['+refs/pull/*/head:refs/pull/*/head'], prune: false });
  } catch {
    client.checkAborted();
  }
}

/** Reads a list page after page, handing each to `take` with the count so far and the total (when known). */
async function eachPage<T>(
  read: (page: number) => Promise<RemotePage<T>>,
  client: GiteaApiClient,
  take: (page: RemotePage<T>, done: number, total: number) => Promise<void>,
): Promise<void> {
  let done = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    client.checkAborted();
    const answer = await read(page);
    done += answer.items.length;
    await take(answer, done, Math.max(answer.total ?? done, done));
    if (answer.last) return;
  }
}
