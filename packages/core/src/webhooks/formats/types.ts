/**
 * What a hook type's formatter receives and returns. The `forgejo`/`gitea`/`gogs` types send the payload as it is
 * (JSON or form-encoded); the chat and service types turn it into their own request. Formatters are pure: no
 * I/O, no clock, so a delivery and its retries send the same bytes.
 */

/** The events a hook can be sent, by the names `X-Forgejo-Event` carries. */
export type HookEventName =
  | 'push'
  | 'create'
  | 'delete'
  | 'fork'
  | 'repository'
  | 'release'
  | 'issues'
  | 'issue_assign'
  | 'issue_label'
  | 'issue_milestone'
  | 'issue_comment'
  | 'pull_request'
  | 'pull_request_assign'
  | 'pull_request_label'
  | 'pull_request_milestone'
  | 'pull_request_comment'
  | 'pull_request_review_approved'
  | 'pull_request_review_rejected'
  | 'pull_request_review_comment'
  | 'pull_request_sync'
  | 'pull_request_review_request'
  | 'wiki'
  | 'package'
  | 'action_run_failure'
  | 'action_run_recover'
  | 'action_run_success'
  | 'workflow_run'
  | 'workflow_job';

/** The request a formatter produces; the deliverer adds signatures, event and delivery headers, and auth. */
export interface HookRequestContent {
  /** Defaults to POST. */
  method?: 'POST' | 'PUT' | 'GET';
  /** Defaults to the hook's URL (some types build their own, e.g. Matrix's room URL). */
  url?: string;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

/** The hook as a formatter sees it. `meta` is the type's own settings (validated by its `parseConfig`). */
export interface FormattedHook {
  type: string;
  url: string;
  meta: Record<string, unknown>;
  /** `json` or `form` (the `content_type` of `forgejo`/`gitea`/`gogs` hooks). */
  contentType: 'json' | 'form';
  /**
   * The repository files the type asked for with `filesWanted` (path → text), read by the deliverer at the commit
   * it named; a path that does not exist there is left out. Only SourceHut builds ask (its manifest).
   */
  files?: Readonly<Record<string, string>>;
}

/** The Forgejo payload as JSON (the wire shape, e.g. `PushPayload`); formatters read the fields they need. */
export type HookPayload = Record<string, unknown>;

export interface HookFormatter {
  /**
   * Checks and normalises the type's settings from `CreateHookOption.config` (e.g. Slack's `channel`); throws
   * the core `ValidationError` naming the field (`config`) as Forgejo does for bad settings.
   */
  parseConfig(config: Readonly<Record<string, string>>): Record<string, unknown>;
  /** The request for one event; `undefined` when the type does not send that event. */
  format(event: HookEventName, payload: HookPayload, hook: FormattedHook): HookRequestContent | undefined;
  /**
   * The repository files `format` needs for this event, to read at `commit` before formatting (SourceHut builds:
   * its manifest); absent or `undefined` when it needs none.
   */
  filesWanted?(event: HookEventName, payload: HookPayload, meta: Record<string, unknown>): { commit: string; paths: string[] } | undefined;
}
