/**
 * A repository's units (code, issues, pull requests, wiki…): which are on, and their settings. Stored as one JSON
 * column on the repository row, so reading a repository with everything the API shows stays one query.
 */
import type { Settings } from '../config/index.js';

export interface IssuesUnit {
  enable_time_tracker: boolean;
  allow_only_contributors_to_track_time: boolean;
  enable_issue_dependencies: boolean;
}

export const MERGE_STYLES = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged'] as const;
export type MergeStyle = (typeof MERGE_STYLES)[number];
export const UPDATE_STYLES = ['merge', 'rebase'] as const;
export type UpdateStyle = (typeof UPDATE_STYLES)[number];

export interface PullsUnit {
  ignore_whitespace_conflicts: boolean;
  allow_merge_commits: boolean;
  allow_rebase: boolean;
  allow_rebase_explicit: boolean;
  allow_squash_merge: boolean;
  allow_fast_forward_only_merge: boolean;
  allow_manual_merge: boolean;
  autodetect_manual_merge: boolean;
  allow_rebase_update: boolean;
  default_delete_branch_after_merge: boolean;
  // A merge style, or `rebase-update-only`, which Forgejo's EditRepoOption accepts too.
  default_merge_style: MergeStyle | 'rebase-update-only';
  default_update_style: UpdateStyle;
  default_allow_maintainer_edit: boolean;
}

export interface ExternalTrackerUnit {
  external_tracker_url: string;
  external_tracker_format: string;
  external_tracker_style: string;
  external_tracker_regexp_pattern: string;
}

export interface ExternalWikiUnit {
  external_wiki_url: string;
}

export interface WikiUnit {
  globally_editable: boolean;
}

/** The enabled units: a unit is on when its key is present. */
export interface RepoUnits {
  code?: Record<string, never>;
  issues?: IssuesUnit;
  external_tracker?: ExternalTrackerUnit;
  pulls?: PullsUnit;
  releases?: Record<string, never>;
  wiki?: WikiUnit;
  external_wiki?: ExternalWikiUnit;
  projects?: Record<string, never>;
  packages?: Record<string, never>;
  actions?: Record<string, never>;
}

export function defaultIssuesUnit(settings: Settings): IssuesUnit {
  return {
    enable_time_tracker: settings.service.ENABLE_TIMETRACKING,
    allow_only_contributors_to_track_time: true,
    enable_issue_dependencies: true,
  };
}

export function defaultPullsUnit(): PullsUnit {
  return {
    ignore_whitespace_conflicts: false,
    allow_merge_commits: true,
    allow_rebase: true,
    allow_rebase_explicit: true,
    allow_squash_merge: true,
    allow_fast_forward_only_merge: true,
    allow_manual_merge: false,
    autodetect_manual_merge: false,
    allow_rebase_update: true,
    default_delete_branch_after_merge: false,
    default_merge_style: 'merge',
    default_update_style: 'merge',
    default_allow_maintainer_edit: false,
  };
}

/** The units a new repository starts with (Forgejo's DEFAULT_REPO_UNITS). */
export function defaultUnits(settings: Settings): RepoUnits {
  return {
    code: {},
    issues: defaultIssuesUnit(settings),
    pulls: defaultPullsUnit(),
    releases: {},
    wiki: { globally_editable: false },
    projects: {},
    packages: {},
    actions: {},
  };
}

/** The units stored in a row's `units` column ('' for rows that never changed them: the defaults). */
export function parseUnits(text: string, settings: Settings): RepoUnits {
  if (!text) return defaultUnits(settings);
  const stored = JSON.parse(text) as RepoUnits;
  // Settings added to a unit after a row was written read as their defaults.
  if (stored.issues) stored.issues = { ...defaultIssuesUnit(settings), ...stored.issues };
  if (stored.pulls) stored.pulls = { ...defaultPullsUnit(), ...stored.pulls };
  return stored;
}

/**
 * `parseUnits` for readers that only look (converters): most repositories share one `units` text, so its parsed
 * form is kept per settings and text, frozen so no reader can change what the next one sees.
 */
const viewedUnits = new WeakMap<Settings, Map<string, Readonly<RepoUnits>>>();
const VIEWED_UNITS_KEPT = 256;

export function viewUnits(text: string, settings: Settings): Readonly<RepoUnits> {
  let kept = viewedUnits.get(settings);
  if (!kept) viewedUnits.set(settings, (kept = new Map()));
  let units = kept.get(text);
  if (!units) {
    units = deepFreeze(parseUnits(text, settings));
    if (kept.size >= VIEWED_UNITS_KEPT) kept.clear();
    kept.set(text, units);
  }
  return units;
}

function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) if (inner && typeof inner === 'object') deepFreeze(inner as object);
  return Object.freeze(value);
}

export function serializeUnits(units: RepoUnits): string {
  return JSON.stringify(units);
}

/** A row's topics (JSON array of names). */
export function parseTopics(text: string): string[] {
  if (!text || text === '[]') return [];
  return JSON.parse(text) as string[];
}
