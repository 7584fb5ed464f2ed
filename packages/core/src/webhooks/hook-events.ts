/**
 * Which events a hook is sent (Forgejo's `HookEvent`): everything, push only, or the chosen events, and a
 * branch filter glob. Stored as JSON with Forgejo's field names.
 */
import type { HookEventName } from './formats/types.js';
import { compileGlob } from '../glob.js';

// Lives in glob.ts (push mirror branch lists and host lists compile with it too); the webhook code imports it from here.
export { compileGlob };

/** The chosen events, by Forgejo's `HookEvents` JSON names. */
const EVENT_FLAGS = [
  'create',
  'delete',
  'fork',
  'issues',
  'issue_assign',
  'issue_label',
  'issue_milestone',
  'issue_comment',
  'push',
  'pull_request',
  'pull_request_assign',
  'pull_request_label',
  'pull_request_milestone',
  'pull_request_comment',
  'pull_request_review',
  'pull_request_sync',
  'pull_request_review_request',
  'wiki',
  'repository',
  'release',
  'package',
  // A workflow run that finished (Forgejo's HookEventActionRunFailure/Recover/Success).
  'action_run_failure',
  'action_run_recover',
  'action_run_success',
] as const;
type EventFlag = (typeof EVENT_FLAGS)[number];

export interface HookEventSettings {
  push_only: boolean;
  send_everything: boolean;
  choose_events: boolean;
  branch_filter: string;
  events: Partial<Record<EventFlag, boolean>>;
}

const ISSUE_FLAGS: readonly EventFlag[] = ['issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
const PULL_FLAGS: readonly EventFlag[] = [
  'pull_request_assign',
  'pull_request_label',
  'pull_request_milestone',
  'pull_request_comment',
  'pull_request_review',
  'pull_request_review_request',
  'pull_request_sync',
];

/**
 * The settings `CreateHookOption.events`/`EditHookOption.events` ask for, as Forgejo reads them: names match
 * case-insensitively, `issues` and `pull_request` also choose every issue or pull request event (`issues_only`
 * and `pull_request_only` just the base one), an empty list means push.
 */
export function eventsFromOption(names: readonly string[] | undefined, branchFilter: string): HookEventSettings {
  const wanted = new Set((names && names.length > 0 ? names : ['push']).map((n) => n.toLowerCase()));
  const has = (name: string) => wanted.has(name);
  const events: Partial<Record<EventFlag, boolean>> = {};
  for (const flag of ['create', 'delete', 'fork', 'push', 'wiki', 'repository', 'release', 'package', 'action_run_failure', 'action_run_recover', 'action_run_success'] as const) {
    events[flag] = has(flag);
  }
  events.issues = has('issues_only') || has('issues');
  for (const flag of ISSUE_FLAGS) events[flag] = has(flag) || has('issues');
  events.pull_request = has('pull_request_only') || has('pull_request');
  for (const flag of PULL_FLAGS) events[flag] = has(flag) || has('pull_request');
  return { push_only: false, send_everything: false, choose_events: true, branch_filter: branchFilter, events };
}

export function parseEventSettings(json: string): HookEventSettings {
  try {
    const value = JSON.parse(json) as Partial<HookEventSettings>;
    return {
      push_only: value.push_only === true,
      send_everything: value.send_everything === true,
      choose_events: value.choose_events === true,
      branch_filter: typeof value.branch_filter === 'string' ? value.branch_filter : '',
      events: value.events && typeof value.events === 'object' ? value.events : {},
    };
  } catch {
    return { push_only: true, send_everything: false, choose_events: false, branch_filter: '', events: {} };
  }
}

/** The flag an event is chosen by (reviews share one flag, as in Forgejo). */
function flagOf(event: HookEventName): EventFlag | undefined {
  if (event === 'pull_request_review_approved' || event === 'pull_request_review_rejected' || event === 'pull_request_review_comment') return 'pull_request_review';
  return (EVENT_FLAGS as readonly string[]).includes(event) ? (event as EventFlag) : undefined;
}

/** Does a hook with these settings get `event`? */
export function wantsEvent(settings: HookEventSettings, event: HookEventName): boolean {
  if (settings.send_everything) return true;
  if (settings.push_only) return event === 'push';
  const flag = flagOf(event);
  return flag !== undefined && settings.events[flag] === true;
}

/** The API `events` list (Forgejo's `EventsArray`). */
export function eventNames(settings: HookEventSettings): string[] {
  return EVENT_FLAGS.filter((flag) => {
    if (settings.send_everything) return true;
    if (settings.push_only) return flag === 'push';
    return settings.events[flag] === true;
  });
}

/**
 * Forgejo's branch filter check: empty or `*` passes everything; a branch is matched by its name, any other
 * ref by its full name; a filter that does not compile passes nothing.
 */
export function branchFilterMatches(filter: string, ref: string): boolean {
  if (filter === '' || filter === '*') return true;
  const glob = compileGlob(filter);
  if (!glob) return false;
  return glob.match(ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref);
}
