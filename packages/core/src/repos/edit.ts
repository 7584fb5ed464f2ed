import './events.js';
import type { Updateable } from 'kysely';
import { ConflictError, ForbiddenError, ValidationError } from '../errors.js';
import type { CoreContext, CoreTransaction } from '../context.js';
import type { Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import type { Settings } from '../config/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { RepositoryExistsError, type RepoKey } from '../git/index.js';
import type { User } from '../users/index.js';
import { assertValidBranchName, assertValidRepoName } from './names.js';
import { EditRepoOptionSchema, type EditRepoOption } from './schemas.js';
import { ReposStore } from './store.js';
import { RepoStorageService } from './storage.js';
import { repoKey, type RepoAccess } from './service.js';
import { defaultPullsUnit, parseUnits, serializeUnits, type IssuesUnit, type PullsUnit, type RepoUnits } from './units.js';
import type { RepositoryTable } from './tables.js';

/**
 * The part of a repository edit a higher domain keeps in its own rows: a pull mirror's `mirror_interval` and
 * `enable_prune` (provided by mirrors). `assertEditable` runs with the other checks, before anything changes;
 * `applyEdit` runs in the edit's transaction, after the row is updated and before its events are queued.
 */
export interface RepoEditExtension {
  assertEditable(access: RepoAccess, opts: EditRepoOption): void;
  applyEdit(tx: CoreTransaction, access: RepoAccess, opts: EditRepoOption): Promise<void>;
}

declare module '../context.js' {
  interface CoreProviders {
    'repos.editExtension': RepoEditExtension;
  }
}

/** The 422 Forgejo answers when the new name (or the recipient of a transfer) already has a repository of that name. */
export function repositoryExistsError(owner: Pick<User, 'name'>, name: string): ValidationError {
  return new ValidationError('', `repository already exists [uname: ${owner.name}, name: ${name}]`);
}

/**
 * A repository's settings (`PATCH /repos/{owner}/{repo}`): name, description, visibility, template flag, default
 * branch, units and their settings, archiving. A rename moves the git storage with the row, crash-consistently
 * (see `RepoStorageService.changeWithStorage`).
 */
export class RepoSettingsService {
  constructor(private readonly ctx: CoreContext) {}

  private get storage(): RepoStorageService {
    return this.ctx.service(RepoStorageService);
  }

  /**
   * Applies every field `input` sets; the others stay. Repository administrators (the owner, site administrators)
   * may. Everything is checked before anything changes, and the row changes in one transaction.
   */
  async edit(actor: Actor, access: RepoAccess, input: EditRepoOption): Promise<RepoAccess> {
    if (access.mode < AccessMode.Admin) throw new ForbiddenError('user should be an owner or a collaborator with admin write of a repository');
    const opts = acceptInput(EditRepoOptionSchema, input);
    const { repo, owner } = access;
    const patch: Updateable<RepositoryTable> = {};

    let target: RepoKey | undefined;
    if (opts.name !== undefined && opts.name !== repo.name) {
      const lower = opts.name.toLowerCase();
      if (lower !== repo.lower_name) {
        assertValidRepoName(opts.name);
        target = { owner: owner.lower_name, name: lower };
        if ((await this.ctx.store(ReposStore).findByOwnerAndName(owner.id, lower)) || (await this.ctx.git.exists(target))) {
          throw repositoryExistsError(owner, opts.name);
        }
      }
      patch.name = opts.name;
      patch.lower_name = lower;
    }
    if (opts.description !== undefined) patch.description = opts.description;
    if (opts.website !== undefined) patch.website = opts.website;
    if (opts.private !== undefined) patch.is_private = opts.private ? 1 : 0;
    // As Forgejo: a fork's visibility is its parent's, whatever was asked.
    if (opts.private !== undefined && repo.is_fork === 1 && repo.fork_id > 0) {
      const parent = await this.ctx.store(ReposStore).findById(repo.fork_id);
      if (parent) patch.is_private = parent.is_private;
    }
    if (opts.template !== undefined) patch.is_template = opts.template ? 1 : 0;

    const key = target ?? repoKey(owner, repo);
    let head: { key: RepoKey; branch: string; previous: string; ifBranchExists?: boolean } | undefined;
    if (opts.default_branch !== undefined && opts.default_branch !== repo.default_branch) {
      const branch = opts.default_branch;
      if (repo.is_empty === 1) {
        // Nothing to check against yet: the first push creates it (or picks another branch, see deriveFromRefs).
        assertValidBranchName(branch);
        head = { key, branch, previous: repo.default_branch };
      } else {
        // As Forgejo: a branch the repository does not have leaves the default branch as it is. Checked holding
        // the repository's storage lock, so a branch deleted while this change waited for it is seen gone.
        head = { key, branch, previous: repo.default_branch, ifBranchExists: true };
      }
      patch.default_branch = branch;
    }
    if (opts.wiki_branch !== undefined && opts.wiki_branch !== repo.wiki_branch) {
      // '' stands for the default branch. No wiki storage exists yet, so there is no branch to rename.
      if (opts.wiki_branch !== '') assertValidBranchName(opts.wiki_branch, 'wiki_branch');
      patch.wiki_branch = opts.wiki_branch;
    }

    const units = editUnits(parseUnits(repo.units, this.ctx.settings), opts, this.ctx.settings);
    const unitsText = serializeUnits(units);
    if (unitsText !== repo.units) patch.units = unitsText;

    if (opts.archived !== undefined) {
      if (repo.is_mirror === 1) throw new ValidationError('', 'repo is a mirror, cannot archive/un-archive');
      if ((repo.is_archived === 1) !== opts.archived) {
        patch.is_archived = opts.archived ? 1 : 0;
        patch.archived_unix = opts.archived ? nowUnix() : 0;
      }
    }
    // `mirror_interval` and `enable_prune` belong to a mirror's settings (ignored for other repositories).
    const mirrors = this.ctx.provider('repos.editExtension');
    mirrors.assertEditable(access, opts);

    patch.updated_unix = nowUnix();
    const move = target ? { from: repoKey(owner, repo), to: target } : undefined;
    try {
      const updated = await this.storage.changeWithStorage({ repoId: repo.id, move, head }, async (tx, applied) => {
        // The branch was gone when looked at under the lock: every other field is applied, the default branch not.
        if (!applied.head) delete patch.default_branch;
        const row = await tx.store(ReposStore).updateIfUnchanged(repo.id, repo, patch);
        if (!row) throw new ConflictError('the repository was changed meanwhile; try again');
        await mirrors.applyEdit(tx, access, opts);
        tx.emit('repo.edited', { repo: row, previous: repo, owner, actor });
        if (row.name !== repo.name) tx.emit('repo.renamed', { repo: row, owner, actor, oldName: repo.name });
        return row;
      });
      return { repo: updated, owner, mode: access.mode };
    } catch (error) {
      // Someone took the name (row or storage) after the check above.
      if (error instanceof RepositoryExistsError || isUniqueViolation(error)) throw repositoryExistsError(owner, opts.name ?? repo.name);
      throw error;
    }
  }

  /** Renames a repository (its storage moves with it): `edit` with only a name. */
  rename(actor: Actor, access: RepoAccess, name: string): Promise<RepoAccess> {
    return this.edit(actor, access, { name });
  }

  /** Archives or unarchives a repository: `edit` with only `archived`. */
  setArchived(actor: Actor, access: RepoAccess, archived: boolean): Promise<RepoAccess> {
    return this.edit(actor, access, { archived });
  }
}

/**
 * The units after an edit, as Forgejo's API decides them: `has_*` turns a unit on or off; the issue tracker and
 * the wiki are either internal or external (the external one when its settings are given); merge settings apply
 * while pull requests are on. A field left out leaves its unit as it is.
 */
export function editUnits(current: RepoUnits, opts: EditRepoOption, settings: Settings): RepoUnits {
  const next: RepoUnits = { ...current };

  const hadTracker = current.issues !== undefined || current.external_tracker !== undefined;
  if (!(opts.has_issues ?? hadTracker)) {
    delete next.issues;
    delete next.external_tracker;
  } else if (opts.external_tracker) {
    const tracker = opts.external_tracker;
    const url = tracker.external_tracker_url ?? '';
    const format = tracker.external_tracker_format ?? '';
    if (!isValidExternalUrl(url, settings)) throw new ValidationError('', 'External tracker URL not valid');
    if (format !== '' && !isValidExternalTrackerFormat(format, settings)) throw new ValidationError('', 'External tracker URL format not valid');
    next.external_tracker = {
      external_tracker_url: url,
      external_tracker_format: format,
      external_tracker_style: tracker.external_tracker_style ?? '',
      external_tracker_regexp_pattern: tracker.external_tracker_regexp_pattern ?? '',
    };
    delete next.issues;
  } else if (opts.has_issues === true || current.issues !== undefined) {
    // Settings given are taken whole (absent ones false, as Go reads them); else kept, or on for a new tracker.
    const given = opts.internal_tracker;
    const issues: IssuesUnit = given
      ? {
          enable_time_tracker: given.enable_time_tracker ?? false,
          allow_only_contributors_to_track_time: given.allow_only_contributors_to_track_time ?? false,
          enable_issue_dependencies: given.enable_issue_dependencies ?? false,
        }
      : (current.issues ?? { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true });
    next.issues = issues;
    delete next.external_tracker;
  }

  const hadWiki = current.wiki !== undefined || current.external_wiki !== undefined;
  if (!(opts.has_wiki ?? hadWiki)) {
    delete next.wiki;
    delete next.external_wiki;
  } else if (opts.external_wiki) {
    const url = opts.external_wiki.external_wiki_url ?? '';
    if (!isValidExternalUrl(url, settings)) throw new ValidationError('', 'Invalid external wiki URL');
    next.external_wiki = { external_wiki_url: url };
    delete next.wiki;
  } else if (opts.has_wiki === true || current.wiki !== undefined) {
    next.wiki = { globally_editable: opts.globally_editable_wiki ?? current.wiki?.globally_editable ?? false };
    delete next.external_wiki;
  }

  if (opts.has_pull_requests ?? current.pulls !== undefined) {
    // A unit turned on again starts from Forgejo's API defaults (manual merges allowed).
    const pulls: PullsUnit = { ...(current.pulls ?? { ...defaultPullsUnit(), allow_manual_merge: true }) };
    const settable = [
      'ignore_whitespace_conflicts', 'allow_merge_commits', 'allow_rebase', 'allow_rebase_explicit', 'allow_squash_merge',
      'allow_fast_forward_only_merge', 'allow_manual_merge', 'autodetect_manual_merge', 'allow_rebase_update',
      'default_delete_branch_after_merge', 'default_allow_maintainer_edit',
    ] as const;
    for (const field of settable) {
      const value = opts[field];
      if (value !== undefined) pulls[field] = value;
    }
    if (opts.default_merge_style !== undefined) pulls.default_merge_style = opts.default_merge_style;
    if (opts.default_update_style !== undefined) pulls.default_update_style = opts.default_update_style;
    next.pulls = pulls;
  } else {
    delete next.pulls;
  }

  const simple = [
    ['has_projects', 'projects'],
    ['has_releases', 'releases'],
    ['has_packages', 'packages'],
    ['has_actions', 'actions'],
  ] as const;
  for (const [field, unit] of simple) {
    const on = opts[field];
    if (on === true) next[unit] = {};
    else if (on === false) delete next[unit];
  }
  return next;
}

/**
 * Forgejo's external URL rule (trackers, wikis): an absolute http(s) URL that is not this server's API and does
 * not point at the loopback interface.
 */
export function isValidExternalUrl(text: string, settings: Settings): boolean {
  // Go's URL parser refuses what JavaScript's would quietly trim or encode.
  // eslint-disable-next-line no-control-regex
  if (text === '' || /[\s\x00-\x1f\x7f]/.test(text)) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (text.toLowerCase().startsWith(`${settings.server.ROOT_URL}api`.toLowerCase())) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host !== 'localhost' && !isLoopbackAddress(host);
}

/** 127.0.0.0/8, ::1, and IPv4-mapped loopback addresses, as Go's `IP.IsLoopback` answers. */
function isLoopbackAddress(host: string): boolean {
  if (/^127(\.\d{1,3}){3}$/.test(host)) return true;
  if (host === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(host)) return true;
  // The URL parser writes an IPv4-mapped address in hex: ::ffff:7f00:1.
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

/** A tracker URL format: an external URL whose `{user}`, `{repo}` and `{index}` placeholders have both braces. */
export function isValidExternalTrackerFormat(format: string, settings: Settings): boolean {
  if (!isValidExternalUrl(format, settings)) return false;
  for (const match of format.matchAll(/(\{?)(?:user|repo|index)+?(\}?)/g)) {
    const [, open, close] = match;
    if ((open === '{') !== (close === '}')) return false;
  }
  return true;
}
