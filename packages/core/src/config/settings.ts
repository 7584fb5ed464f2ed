import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { iniFromEnv, mergeIni, parseIni, type IniData } from './ini.js';

/**
 * Every setting RepoHost reads, under Forgejo's section and key names, with Forgejo's defaults.
 * The table is the single source: the `Settings` type, parsing and defaults all come from it.
 */
type Kind = 'string' | 'int' | 'bool' | 'list' | 'size';
interface Spec<K extends Kind, V> {
  kind: K;
  default: V;
}
const str = (d: string): Spec<'string', string> => ({ kind: 'string', default: d });
const int = (d: number): Spec<'int', number> => ({ kind: 'int', default: d });
const bool = (d: boolean): Spec<'bool', boolean> => ({ kind: 'bool', default: d });
const list = (d: string[]): Spec<'list', string[]> => ({ kind: 'list', default: d });
/** Bytes, written as Forgejo reads sizes: a number of bytes, `-1`, or a size with a unit (`1 GiB`, `500MB`). */
const size = (d: number): Spec<'size', number> => ({ kind: 'size', default: d });

/** The keys every `[cron.<name>]` section has. */
const cronTask = (enabled: boolean, runAtStart: boolean, schedule: string) => ({
  ENABLED: bool(enabled),
  RUN_AT_START: bool(runAtStart),
  SCHEDULE: str(schedule),
  NOTICE_ON_SUCCESS: bool(false),
});

/** Most processes `[server] WORKERS` (and `repohost web --workers`) may name. */
const MAX_WORKERS = 64;

/** Forgejo's default `[log] ACCESS_LOG_TEMPLATE`, the only one RepoHost writes. */
export const DEFAULT_ACCESS_LOG_TEMPLATE =
  '{{.Ctx.RemoteHost}} - {{.Identity}} {{.Start.Format "[02/Jan/2006:15:04:05 -0700]" }} "{{.Ctx.Req.Method}} {{.Ctx.Req.URL.RequestURI}} {{.Ctx.Req.Proto}}" {{.ResponseWriter.Status}} {{.ResponseWriter.Size}} "{{.Ctx.Req.Referer}}" "{{.Ctx.Req.UserAgent}}"';

/** The version string `GET /version` reports; SDK feature gates compare it as semver. */
export const DEFAULT_REPORTED_VERSION = '11.0.0+repohost-0.1.0';

const SPEC = {
  '': {
    APP_NAME: str('RepoHost'),
    WORK_PATH: str(''),
  },
  server: {
    PROTOCOL: str('http'),
    DOMAIN: str('localhost'),
    HTTP_ADDR: str('0.0.0.0'),
    HTTP_PORT: int(3000),
    /** Empty means `PROTOCOL://DOMAIN:HTTP_PORT/`, as Forgejo derives it. */
    ROOT_URL: str(''),
    /** Relative paths are taken from the work path. */
    APP_DATA_PATH: str('data'),
    SSH_DOMAIN: str(''),
    SSH_PORT: int(22),
    DISABLE_SSH: bool(false),
    /** Run the built-in SSH server (otherwise OpenSSH can serve git through `repohost keys` and `repohost serv`). */
    START_SSH_SERVER: bool(false),
    /** Address the built-in SSH server listens on; empty means all. */
    SSH_LISTEN_HOST: str(''),
    /** Port the built-in SSH server listens on; absent (-1) means SSH_PORT, 0 picks a free one. */
    SSH_LISTEN_PORT: int(-1),
    /** Host key files, relative to APP_DATA_PATH; when none exists, an ed25519 key is generated at the first. */
    SSH_SERVER_HOST_KEYS: list(['ssh/gitea.rsa', 'ssh/gogs.rsa']),
    /** The login the built-in server accepts (`git@host`); any other user name is refused. */
    BUILTIN_SSH_SERVER_USER: str('git'),
    /** Algorithms the built-in server offers; empty means the SSH library's defaults. */
    SSH_SERVER_CIPHERS: list([]),
    SSH_SERVER_KEY_EXCHANGES: list([]),
    SSH_SERVER_MACS: list([]),
    /** Refuse keys below `[ssh.minimum_key_sizes]` (Forgejo's defaults: RSA 3071 bits; DSA not allowed). */
    MINIMUM_KEY_SIZE_CHECK: bool(true),
    /** Serve Git LFS (`/{owner}/{repo}.git/info/lfs/…`, `git-lfs-authenticate` over SSH, `/media/…` objects). */
    LFS_START_SERVER: bool(false),
    /**
     * Key of the JWTs `git-lfs-authenticate` hands out over SSH (base64url of 32 bytes, as Forgejo writes it).
     * Empty: a key derived from `[security] SECRET_KEY` (its own purpose), the same in every process.
     */
    LFS_JWT_SECRET: str(''),
    /** How long such a JWT is good, a Go duration (Forgejo's default `24h`). */
    LFS_HTTP_AUTH_EXPIRY: str('24h'),
    /** Largest LFS object accepted, in bytes; 0 means no limit. */
    LFS_MAX_FILE_SIZE: int(0),
    /** Locks one `GET …/info/lfs/locks` page lists at most; 0 means no limit. */
    LFS_LOCKS_PAGING_NUM: int(50),
    /** Objects one batch request may name; 0 means no limit (the request body is bounded all the same). */
    LFS_MAX_BATCH_SIZE: int(0),
    /**
     * RepoHost's own: processes `repohost web` serves with (one port, node:cluster); 0 means one per CPU. One
     * process needs no cluster; `--workers` overrides it.
     */
    WORKERS: int(1),
  },
  database: {
    DB_TYPE: str('sqlite3'),
    HOST: str('127.0.0.1:5432'),
    NAME: str('forgejo'),
    USER: str('root'),
    PASSWD: str(''),
    SCHEMA: str(''),
    SSL_MODE: str('disable'),
    /** SQLite file; empty means `APP_DATA_PATH/forgejo.db`; `:memory:` keeps everything in memory. */
    PATH: str(''),
    SQLITE_JOURNAL_MODE: str('WAL'),
    SQLITE_TIMEOUT: int(500),
    MAX_OPEN_CONNS: int(10),
  },
  repository: {
    /** Empty means `APP_DATA_PATH/forgejo-repositories`. */
    ROOT: str(''),
    /** Git storage: `native` (bare repositories under ROOT, the `git` binary) or `memory` (isomorphic-git, nothing on disk). */
    BACKEND: str('native'),
    DEFAULT_BRANCH: str('main'),
    MAX_CREATION_LIMIT: int(-1),
    ALLOW_FORK_WITHOUT_MAXIMUM_LIMIT: bool(true),
    DISABLE_HTTP_GIT: bool(false),
    DISABLE_STARS: bool(false),
    DISABLE_FORKS: bool(false),
    DISABLE_MIGRATIONS: bool(false),
    /** Site administrators' repository flags (`/repos/{owner}/{repo}/flags…`): the routes exist only when true. */
    ENABLE_FLAGS: bool(false),
  },
  'repository.signing': {
    /** `none`, `default` (git's own `user.signingkey`, which RepoHost's git does not set) or a key: a GPG key id, or with `FORMAT = ssh` the path of a public key file. */
    SIGNING_KEY: str('default'),
    SIGNING_NAME: str(''),
    SIGNING_EMAIL: str(''),
    /** `openpgp` or `ssh`. */
    FORMAT: str('openpgp'),
  },
  'repository.issue': {
    /** Issues (and, apart, pull requests) a repository may pin at once. */
    MAX_PINNED: int(3),
  },
  'repository.release': {
    /** Types release assets may have, as `[attachment] ALLOWED_TYPES` reads them; empty: any. */
    ALLOWED_TYPES: str(''),
  },
  'repository.pull-request': {
    /** Title prefixes that mark a pull request as a draft (not mergeable). */
    WORK_IN_PROGRESS_PREFIXES: list(['WIP:', '[WIP]']),
    /** When a merged pull request's head branch is deleted, pull requests into it move to its base. */
    RETARGET_CHILDREN_ON_MERGE: bool(true),
  },
  // RepoHost's own keys (Forgejo renders on the request's goroutine, unbounded): every render runs in a pool of
  // worker threads, so one document can never hold up other requests.
  markdown: {
    /** Bytes of text one render takes at most: a larger `/markdown` body is a 413, larger stored text shows escaped. */
    MAX_RENDER_SIZE: size(1048576),
    /** Seconds one render may take (queue wait included) before its worker is stopped: the request gets a 422. */
    RENDER_TIMEOUT: int(5),
    /** Worker threads that render at once; 0 means one per CPU but one (at least one), which is left to requests. */
    RENDER_WORKERS: int(0),
  },
  api: {
    ENABLE_SWAGGER: bool(true),
    MAX_RESPONSE_ITEMS: int(50),
    DEFAULT_PAGING_NUM: int(30),
    DEFAULT_GIT_TREES_PER_PAGE: int(1000),
    DEFAULT_MAX_BLOB_SIZE: int(10485760),
    /** RepoHost's own (Forgejo sets none): files one `POST /contents` change may name (more: 422); 0 or less, no limit. */
    MAX_CHANGE_FILES: int(1000),
  },
  // RepoHost's own (Forgejo and Gitea have none): GitHub's API rate limits, its headers (`X-RateLimit-Limit`,
  // `-Remaining`, `-Reset`, `-Used`, `-Resource`) on every API answer and 429 with `Retry-After` once a limit is
  // spent. Three resources, each counted apart: `core` (the API), `search` (the search endpoints) and `git` (git over
  // HTTP). A signed-in account is one caller whatever it signs in with (its tokens, OAuth2 grants and password
  // share its count, as on GitHub); a workflow task's token counts for its repository; anonymous calls count per
  // client address (behind `[security] REVERSE_PROXY_TRUSTED_PROXIES`, the forwarded one; IPv6 per /64). Counts are
  // kept in the database, so every process of an installation shares them: each process claims calls in slices
  // (CLAIM_SIZE) and counts them itself, so a limit holds across processes to within one slice per process.
  'api.ratelimit': {
    /** Count API and git-over-HTTP calls and refuse them past a limit; off (the default): no counting, no headers. */
    ENABLED: bool(false),
    /** Seconds a `core` window lasts, from its first call; its count then starts afresh. */
    CORE_WINDOW: int(3600),
    /** API calls (searches apart) a signed-in account may make per window; 0: no limit. */
    CORE_LIMIT: int(5000),
    /** API calls (searches apart) one client address may make per window without signing in; 0: no limit. */
    CORE_ANONYMOUS_LIMIT: int(60),
    /** Seconds a `search` window lasts (`/repos/search`, `/users/search`, `/repos/issues/search`, `/topics/search`, …). */
    SEARCH_WINDOW: int(60),
    /** Searches a signed-in account may make per window; 0: no limit. */
    SEARCH_LIMIT: int(30),
    /** Searches one client address may make per window without signing in; 0: no limit. */
    SEARCH_ANONYMOUS_LIMIT: int(10),
    /** Seconds a `git` window lasts (git over HTTP: each `info/refs`, fetch and push request counts one). */
    GIT_WINDOW: int(3600),
    /** git requests over HTTP a signed-in account may make per window; 0: no limit. */
    GIT_LIMIT: int(5000),
    /** git requests over HTTP one client address may make per window without signing in (a clone makes two); 0: no limit. */
    GIT_ANONYMOUS_LIMIT: int(600),
    /** Site administrators are not counted (nor sent the headers). */
    EXEMPT_SITE_ADMINS: bool(true),
    /**
     * Calls a process claims from a caller's database row at once and then counts in memory: one row write per slice.
     * Calls claimed but not made by a process are lost to the caller until the window ends. 0: automatic, a fiftieth
     * of the limit, at least 1 and at most 1000.
     */
    CLAIM_SIZE: int(0),
  },
  ui: {
    EXPLORE_PAGING_NUM: int(20),
    /** Commits an activity feed entry of a push lists. */
    FEED_MAX_COMMIT_NUM: int(5),
    /** Gitea's name: the Gitea SDK and its clients expect it (Forgejo ships `forgejo-auto`; set it in [ui] to taste). */
    DEFAULT_THEME: str('gitea-auto'),
    REACTIONS: list(['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes']),
    CUSTOM_EMOJIS: list(['git', 'gitea', 'codeberg', 'gitlab', 'github', 'gogs', 'forgejo']),
  },
  attachment: {
    ENABLED: bool(true),
    ALLOWED_TYPES: str(
      '.avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip',
    ),
    /** Megabytes. */
    MAX_SIZE: int(2048),
    MAX_FILES: int(5),
  },
  security: {
    /**
     * Encrypts secrets at rest (TOTP secrets, LDAP bind passwords, mirror and migration credentials, webhook
     * `Authorization` headers). When neither this nor SECRET_KEY_URI is set, the key file `secret_key` in APP_DATA_PATH
     * is read; `repohost` creates that file on a new installation. Never empty: see `RepoHost.open`.
     */
    SECRET_KEY: str(''),
    /** `file:/path`: the key is that file's content, whitespace trimmed (Forgejo's). Setting both is an error. */
    SECRET_KEY_URI: str(''),
    DISABLE_QUERY_AUTH_TOKEN: bool(false),
    REVERSE_PROXY_AUTHENTICATION_USER: str('X-WEBAUTH-USER'),
    REVERSE_PROXY_TRUSTED_PROXIES: list(['127.0.0.0/8', '::1/128']),
    /**
     * Hops of `X-Forwarded-For` read from the right when the connection comes from a trusted proxy (Forgejo's
     * default 1: the address the proxy itself saw); 0 ignores forwarding headers.
     */
    REVERSE_PROXY_LIMIT: int(1),
    MIN_PASSWORD_LENGTH: int(8),
    /** Site administrators may migrate from local paths and `file://` addresses. */
    IMPORT_LOCAL_PATHS: bool(false),
    /**
     * Repositories' own server-side git hooks (`/repos/{owner}/{repo}/hooks/git`): while true (Forgejo's default)
     * nobody may edit them and pushes do not run them. When false, site administrators and accounts given
     * `allow_git_hook` may edit them: they run as the server's user, so that is a grant of the server itself.
     */
    DISABLE_GIT_HOOKS: bool(true),
    // Sign-in throttling: RepoHost's own keys (Forgejo and Gitea have none; they leave it to fail2ban). Each
    // password check (with its two-factor code) takes a slot from its counters in the database before it runs, so
    // concurrent guesses never exceed a limit; a full counter answers 429 until its window ends, even to the right
    // password. An account is its name and its emails together (a name no account has counts as typed); an address
    // is an IPv4 address or an IPv6 /64. Addresses an account signed in from are "known" to it.
    /** Failures one account may have from one address per window (refuses that address for it only); 0 disables. */
    LOGIN_MAX_FAILURES_PER_ACCOUNT: int(10),
    /** Failures one client address may have per window, whatever accounts it tries (not counted or refused for accounts that know it); 0 disables. */
    LOGIN_MAX_FAILURES_PER_ADDRESS: int(50),
    /** Failures one account may have per window from all addresses it does not know; beyond, those are refused and known ones are not; 0 disables. */
    LOGIN_MAX_FAILURES_PER_ACCOUNT_FROM_UNKNOWN_ADDRESSES: int(100),
    /** Days a successful sign-in keeps its address known to the account; 0 makes no address known. */
    LOGIN_KNOWN_ADDRESS_DAYS: int(90),
    /** Seconds a window lasts, from its first failure; 0 disables every limit. */
    LOGIN_FAILURE_WINDOW: int(300),
  },
  service: {
    ENABLE_REVERSE_PROXY_AUTHENTICATION_API: bool(false),
    REQUIRE_SIGNIN_VIEW: bool(false),
    ENABLE_TIMETRACKING: bool(true),
    /** Issues may depend on issues of other repositories (Forgejo's default: yes). */
    ALLOW_CROSS_REPOSITORY_DEPENDENCIES: bool(true),
    DEFAULT_KEEP_EMAIL_PRIVATE: bool(false),
  },
  mirror: {
    ENABLED: bool(true),
    /** Refuse new pull mirrors (existing ones keep syncing). */
    DISABLE_NEW_PULL: bool(false),
    /** Refuse new push mirrors (existing ones keep pushing). */
    DISABLE_NEW_PUSH: bool(false),
    /** Interval a new mirror gets when none is given (Go duration). */
    DEFAULT_INTERVAL: str('8h'),
    /** Shortest interval a mirror may have (Go duration); `0` (off) is always allowed. */
    MIN_INTERVAL: str('10m'),
  },
  migrations: {
    /** Retries of a failed remote request during a migration. */
    MAX_ATTEMPTS: int(3),
    /** Seconds before the first retry (doubling each time). */
    RETRY_BACKOFF: int(3),
    /** Host globs, comma-separated: when set, only these remotes may be migrated or mirrored. */
    ALLOWED_DOMAINS: str(''),
    /** Host globs, comma-separated, that may never be migrated or mirrored from or pushed to. */
    BLOCKED_DOMAINS: str(''),
    /** Allow remotes on loopback, private and link-local addresses. */
    ALLOW_LOCALNETWORKS: bool(false),
    SKIP_TLS_VERIFY: bool(false),
  },
  'git.timeout': {
    /** Seconds a migration's clone may take. */
    MIGRATE: int(600),
    /** Seconds a mirror's fetch or push may take. */
    MIRROR: int(300),
  },
  // Recurring tasks (Forgejo's `[cron.<name>]`): ENABLED, RUN_AT_START, SCHEDULE (`@every 10m`, `@midnight`, or a
  // cron expression with optional seconds), NOTICE_ON_SUCCESS, and each task's own keys, with Forgejo's defaults.
  'cron.update_mirrors': { ...cronTask(true, false, '@every 10m'), PULL_LIMIT: int(50), PUSH_LIMIT: int(50) },
  'cron.repo_health_check': { ...cronTask(true, false, '@midnight'), TIMEOUT: str('60s'), ARGS: str('') },
  'cron.check_repo_stats': cronTask(true, true, '@midnight'),
  'cron.sync_external_users': { ...cronTask(true, false, '@midnight'), UPDATE_EXISTING: bool(true) },
  'cron.cleanup_hook_task_table': { ...cronTask(true, false, '@midnight'), CLEANUP_TYPE: str('OlderThan'), OLDER_THAN: str('168h'), NUMBER_TO_KEEP: int(10) },
  'cron.delete_inactive_accounts': { ...cronTask(false, false, '@annually'), OLDER_THAN: str('3h') },
  'cron.git_gc_repos': { ...cronTask(false, false, '@every 72h'), TIMEOUT: str('60s'), ARGS: str('') },
  'cron.resync_all_hooks': cronTask(false, false, '@every 72h'),
  'cron.reinit_missing_repos': cronTask(false, false, '@every 72h'),
  'cron.delete_missing_repos': cronTask(false, false, '@every 72h'),
  'cron.delete_old_actions': { ...cronTask(false, false, '@every 168h'), OLDER_THAN: str('8760h') },
  'cron.cleanup_actions': cronTask(true, false, '@midnight'),
  // Forgejo's package cleanup; here what uploads left: container upload sessions untouched for OLDER_THAN, and
  // spooled uploads a crash cut off. Not at start (Forgejo's is): the start-up repair already empties the spool,
  // and a forge's first requests should not wait behind a listing of the blob storage.
  'cron.cleanup_packages': { ...cronTask(true, false, '@midnight'), OLDER_THAN: str('24h') },
  // RepoHost's own housekeeping (Forgejo has no such tasks): what is otherwise only tidied at start-up or in passing.
  'cron.cleanup_orphaned_attachments': cronTask(true, false, '@midnight'),
  'cron.cleanup_expired_sessions': cronTask(true, false, '@every 24h'),
  'cron.cleanup_sign_in_failures': cronTask(true, false, '@every 1h'),
  // Deletes API rate limit counters (`[api.ratelimit]`) whose window has ended; listed only while limits are enabled.
  'cron.cleanup_rate_limits': cronTask(true, false, '@every 1h'),
  'cron.check_pull_requests': cronTask(true, true, '@every 1h'),
  'cron.update_repo_languages': cronTask(false, false, '@every 72h'),
  // Repairs git intents whose process stopped renewing them (died): any process may, none touches a change in progress.
  'cron.repair_git_intents': cronTask(true, false, '@every 1m'),
  actions: {
    /** Actions: workflow runs, runners and their protocol (`/api/actions`); off, no workflow runs and the unit is hidden. */
    ENABLED: bool(true),
    /** Where `uses: actions/checkout@v4` is fetched from by runners (Forgejo's default). */
    DEFAULT_ACTIONS_URL: str('https://data.forgejo.org'),
    /** Days an artifact is kept before `cleanup_actions` removes it; a workflow may ask for fewer (Forgejo's default). */
    ARTIFACT_RETENTION_DAYS: int(90),
    /** RepoHost's own: bytes one artifact may take at most; -1: no limit. */
    ARTIFACT_MAX_SIZE: size(10 * 1024 * 1024 * 1024),
    /** A running task the runner has not reported on for this long is failed (its runner is gone). */
    ZOMBIE_TASK_TIMEOUT: str('10m'),
    /** A task running this long is failed whatever its runner says. */
    ENDLESS_TASK_TIMEOUT: str('3h'),
    /** A job no runner took for this long is cancelled. */
    ABANDONED_JOB_TIMEOUT: str('24h'),
  },
  // Forgejo's Actions tasks (registered only when `[actions] ENABLED`).
  'cron.stop_zombie_tasks': cronTask(true, true, '@every 5m'),
  'cron.stop_endless_tasks': cronTask(true, true, '@every 30m'),
  'cron.cancel_abandoned_jobs': cronTask(true, true, '@every 6h'),
  'cron.start_schedule_tasks': cronTask(true, false, '@every 1m'),
  admin: {
    /** Only site administrators may create organizations. */
    DISABLE_REGULAR_ORG_CREATION: bool(false),
  },
  packages: {
    /** The package registries (`/api/packages/…`) and the package API; off: both answer 404. */
    ENABLED: bool(true),
    /** Versions an owner may have at most; -1: no limit. */
    LIMIT_TOTAL_OWNER_COUNT: int(-1),
    /** Bytes an owner's package files may take at most; -1: no limit. */
    LIMIT_TOTAL_OWNER_SIZE: size(-1),
    /** Bytes one generic package file may take at most; -1: no limit. */
    LIMIT_SIZE_GENERIC: size(-1),
    /** Bytes one npm tarball may take at most; -1: no limit (a publish body stays bounded by the server's body limit). */
    LIMIT_SIZE_NPM: size(-1),
    /** Bytes one PyPI file (sdist or wheel) may take at most; -1: no limit. */
    LIMIT_SIZE_PYPI: size(-1),
    /** Bytes one Cargo crate file may take at most; -1: no limit. */
    LIMIT_SIZE_CARGO: size(-1),
    /** Bytes one Maven file may take at most; -1: no limit. */
    LIMIT_SIZE_MAVEN: size(-1),
    /** Bytes one container blob or manifest may take at most; -1: no limit. */
    LIMIT_SIZE_CONTAINER: size(-1),
    /** Bytes one Go module zip may take at most; -1: no limit. */
    LIMIT_SIZE_GO: size(-1),
    /** Bytes one Composer package zip may take at most; -1: no limit. */
    LIMIT_SIZE_COMPOSER: size(-1),
    /** Bytes one Helm chart archive may take at most; -1: no limit. */
    LIMIT_SIZE_HELM: size(-1),
    /** Bytes one Debian package (.deb) may take at most; -1: no limit. */
    LIMIT_SIZE_DEBIAN: size(-1),
  },
  quota: {
    /** Quota rules and groups are managed (`/admin/quota…`), shown (`/user/quota…`) and enforced only when set. */
    ENABLED: bool(false),
    /** Groups that apply to an account that belongs to none. */
    DEFAULT_GROUPS: list([]),
  },
  webhook: {
    /** Hook tasks one delivery round takes from the outbox at most. */
    QUEUE_LENGTH: int(1000),
    /** Seconds a delivery may take before it counts as failed. */
    DELIVER_TIMEOUT: int(5),
    SKIP_TLS_VERIFY: bool(false),
    /** `external`, `loopback`, `private`, `*`, host globs and CIDRs, comma-separated (checked after DNS). */
    ALLOWED_HOST_LIST: str('external'),
    PAGING_NUM: int(10),
    /** RepoHost's own (Forgejo tries once): attempts a hook task gets before it stays failed; retries back off from 5 s. */
    MAX_ATTEMPTS: int(5),
  },
  'quota.default': {
    /** The limit of `size:all` for accounts in no group (and no default group); -1 is unlimited. */
    TOTAL: size(-1),
  },
  picture: {
    /** Uploaded avatars; empty means `APP_DATA_PATH/avatars`, relative paths are taken from the work path. */
    AVATAR_UPLOAD_PATH: str(''),
    AVATAR_MAX_WIDTH: int(4096),
    AVATAR_MAX_HEIGHT: int(4096),
    /** Bytes. */
    AVATAR_MAX_FILE_SIZE: int(1048576),
    /** Forgejo's: the storage of user avatars (`local`, `minio` or a `[storage.NAME]`); empty: `[avatar]`'s or `[storage]`'s. */
    AVATAR_STORAGE_TYPE: str(''),
    /** Forgejo's: as AVATAR_STORAGE_TYPE, for repository avatars (`[repo-avatar]`). */
    REPOSITORY_AVATAR_STORAGE_TYPE: str(''),
    /** Forgejo's: uploaded repository avatars when `[repo-avatar] PATH` is not set; relative paths are taken from APP_DATA_PATH. */
    REPOSITORY_AVATAR_UPLOAD_PATH: str(''),
  },
  federation: {
    /** Forgejo mounts `/nodeinfo` (and its ActivityPub routes) only when true. */
    ENABLED: bool(false),
    /** `/nodeinfo` shows the counts of users, issues and comments. */
    SHARE_USER_STATISTICS: bool(true),
    /** Largest ActivityPub document accepted in an inbox or fetched from another instance, in MiB (Forgejo's). */
    MAX_SIZE: int(4),
    /** Requests to the ActivityPub routes (but the instance actor's document) must carry a valid HTTP signature. */
    SIGNATURE_ENFORCED: bool(true),
  },
  'repo-avatar': {
    /** Uploaded repository avatars; empty means `APP_DATA_PATH/repo-avatars`, relative paths are taken from the work path. */
    PATH: str(''),
  },
  // Where uploaded files live: Forgejo's `[storage]`, the defaults of every kind of file. A kind's own section
  // (`[attachment]`, `[avatar]`, `[repo-avatar]`, `[packages]`, `[lfs]`, `[actions.artifacts]`) may set the same keys, or
  // name a `[storage.NAME]` section with `STORAGE_TYPE = NAME`; `blobs/config.ts` resolves them as Forgejo does.
  storage: {
    /** `local` (a folder per kind) or `minio` (an S3-compatible object storage). */
    STORAGE_TYPE: str('local'),
    /** Local storage: the folder holding each kind's folder (`attachments`, `avatars`, …); empty means APP_DATA_PATH. */
    PATH: str(''),
    /** Object storage: `host:port` of its S3 API, without a scheme (MINIO_USE_SSL chooses https). */
    MINIO_ENDPOINT: str('localhost:9000'),
    /** Empty: the AWS credential chain (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, shared files, instance roles). */
    MINIO_ACCESS_KEY_ID: str(''),
    MINIO_SECRET_ACCESS_KEY: str(''),
    /** Created at start when missing. */
    MINIO_BUCKET: str('gitea'),
    /** `auto` (path-style requests, virtual-host style on amazonaws.com), `path` or `dns`. */
    MINIO_BUCKET_LOOKUP: str('auto'),
    /** The region. */
    MINIO_LOCATION: str('us-east-1'),
    /** Prefix of every object; each kind's folder (`attachments/`, `avatars/`, …) goes under it. */
    MINIO_BASE_PATH: str(''),
    MINIO_USE_SSL: bool(false),
    MINIO_INSECURE_SKIP_VERIFY: bool(false),
    /** Attachment and package downloads redirect to a presigned URL of the object (valid 5 minutes). */
    SERVE_DIRECT: bool(false),
    /** RepoHost's own: seconds to connect to the object storage before a request fails (503). */
    MINIO_CONNECT_TIMEOUT: int(5),
    /**
     * RepoHost's own: seconds the object storage may take to answer a request, and may stay silent in the middle of
     * a transfer, before the request fails (a 503; a download already under way is cut off).
     */
    MINIO_REQUEST_TIMEOUT: int(30),
  },
  log: {
    /** Folder of the log files; empty means `log` in the work path (Forgejo's default). */
    ROOT_PATH: str(''),
    /** One line per HTTP request (API, git over HTTP, packages, pages). */
    ENABLE_ACCESS_LOG: bool(false),
    /** Where the access log goes: `file` (`access.log` in ROOT_PATH) or `console` (standard output). */
    ACCESS: str('file'),
    /** Forgejo's default line; RepoHost writes that line only (another template is refused at start). */
    ACCESS_LOG_TEMPLATE: str(DEFAULT_ACCESS_LOG_TEMPLATE),
    /** RepoHost's own: `text` (the template's line) or `json` (one JSON object per line). */
    ACCESS_LOG_FORMAT: str('text'),
  },
  metrics: {
    /** Prometheus metrics at `/metrics` (404 when off). */
    ENABLED: bool(false),
    /** When set, `/metrics` requires `Authorization: Bearer TOKEN`. */
    TOKEN: str(''),
    /** `gitea_issues_by_label` and `gitea_issues_by_repository`: a series per label or repository, off by default. */
    ENABLED_ISSUE_BY_LABEL: bool(false),
    ENABLED_ISSUE_BY_REPOSITORY: bool(false),
  },
  /** RepoHost's own settings (Forgejo has no equivalent). */
  repohost: {
    REPORTED_VERSION: str(DEFAULT_REPORTED_VERSION),
    /** Path of the `git` binary. */
    GIT_PATH: str('git'),
    /** Seconds a client has to send a request's headers; 0 disables. */
    HTTP_HEADERS_TIMEOUT: int(30),
    /** Seconds a connection may pass with nothing received or sent before it is closed; 0 disables. */
    HTTP_IDLE_TIMEOUT: int(60),
    /** git service processes (info/refs, fetch, push) run at once by this process; 0 means four per CPU. */
    GIT_MAX_SERVICES: int(0),
    /** Seconds a git request waits for a free slot before it is answered 503 with Retry-After. */
    GIT_SERVICE_QUEUE_TIMEOUT: int(5),
    /** Bytes a fetch negotiation request may inflate to (real ones are far smaller); 0 disables. */
    GIT_MAX_FETCH_REQUEST_SIZE: int(104857600),
    /** git's `receive.maxInputSize` for pushes, in bytes; 0 is unlimited (as in Forgejo). */
    GIT_RECEIVE_MAX_INPUT_SIZE: int(0),
    /** Seconds each check of `GET /api/healthz` may take before it counts as failed (at least 1). */
    HEALTHCHECK_TIMEOUT: int(3),
    /**
     * Seconds a process's claim lasts unless renewed (every third of it while the work runs): named locks, git
     * intents, jobs, cron runs and webhook deliveries. Another process takes over a claim whose process died once it
     * runs out (at once for a process of this machine known to be gone). Every process of an installation must use
     * the same value.
     */
    LEASE_SECONDS: int(60),
  },
} as const;

type SpecTable = typeof SPEC;
type ValueOf<S> = S extends Spec<Kind, infer V> ? V : never;
type SectionName = Exclude<keyof SpecTable, ''>;

/** Resolved settings: `settings.server.HTTP_PORT`, `settings.database.DB_TYPE`, … */
export type Settings = {
  [S in SectionName]: { -readonly [K in keyof SpecTable[S]]: ValueOf<SpecTable[S][K]> };
} & {
  /** Absolute folder relative paths are resolved against. */
  workPath: string;
  /**
   * Every section as read (app.ini, then the environment, then overrides), its values as written: for what is
   * read by pattern rather than from the table (`[storage.NAME]`), or where a key left unset differs from its default.
   */
  sections: IniSections;
};

/** Sections by lower-case name, keys upper-case, as `parseIni` reads them. */
export type IniSections = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Values to layer over the file and environment, e.g. `{ database: { PATH: ':memory:' } }`. */
export type SettingsOverrides = {
  [S in SectionName]?: { [K in keyof SpecTable[S]]?: ValueOf<SpecTable[S][K]> | string };
};

export interface LoadSettingsOptions {
  /** Path of an app.ini; a missing file is an error only when `requireConfigFile` is set. */
  configFile?: string;
  requireConfigFile?: boolean;
  /** app.ini content, used instead of configFile. */
  configText?: string;
  /** Environment to read `FORGEJO__SECTION__KEY` overrides from; defaults to none. */
  env?: Record<string, string | undefined>;
  /** Base for relative paths; defaults to WORK_PATH from the file, else the current directory. */
  workPath?: string;
  overrides?: SettingsOverrides;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const TRUE = new Set(['1', 't', 'true', 'y', 'yes', 'on']);
const FALSE = new Set(['0', 'f', 'false', 'n', 'no', 'off', '']);

function parseValue(kind: Kind, raw: string, where: string): string | number | boolean | string[] {
  switch (kind) {
    case 'string':
      return raw;
    case 'int': {
      if (!/^[+-]?\d+$/.test(raw.trim())) throw new ConfigError(`${where}: "${raw}" is not an integer`);
      return Number.parseInt(raw, 10);
    }
    case 'bool': {
      const v = raw.trim().toLowerCase();
      if (TRUE.has(v)) return true;
      if (FALSE.has(v)) return false;
      throw new ConfigError(`${where}: "${raw}" is not a boolean`);
    }
    case 'size': {
      const bytes = parseByteSize(raw);
      if (bytes === undefined) throw new ConfigError(`${where}: "${raw}" is not a size`);
      return bytes;
    }
    case 'list':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
  }
}

/** Multipliers of the size units go-humanize's ParseBytes knows (what Forgejo reads sizes with), lower-case. */
const SIZE_UNITS = new Map<string, number>([
  ['', 1], ['b', 1],
  ['k', 1e3], ['kb', 1e3], ['ki', 2 ** 10], ['kib', 2 ** 10],
  ['m', 1e6], ['mb', 1e6], ['mi', 2 ** 20], ['mib', 2 ** 20],
  ['g', 1e9], ['gb', 1e9], ['gi', 2 ** 30], ['gib', 2 ** 30],
  ['t', 1e12], ['tb', 1e12], ['ti', 2 ** 40], ['tib', 2 ** 40],
  ['p', 1e15], ['pb', 1e15], ['pi', 2 ** 50], ['pib', 2 ** 50],
  ['e', 1e18], ['eb', 1e18], ['ei', 2 ** 60], ['eib', 2 ** 60],
]);

/** Bytes of `-1`, a plain number, or a number and a unit (`1 GiB`, `1.5GB`); undefined when it is none of those. */
export function parseByteSize(raw: string): number | undefined {
  const text = raw.trim();
  if (text === '-1') return -1;
  const match = /^(\d+(?:\.\d+)?)\s*([a-zA-Z]*)$/.exec(text);
  if (!match) return undefined;
  const unit = SIZE_UNITS.get(match[2]!.toLowerCase());
  if (unit === undefined) return undefined;
  const bytes = Math.floor(Number(match[1]) * unit);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** Loads settings: Forgejo defaults, then app.ini, then environment overrides, then explicit overrides. */
export function loadSettings(options: LoadSettingsOptions = {}): Settings {
  let data: IniData = new Map();
  if (options.configText !== undefined) {
    data = parseIni(options.configText);
  } else if (options.configFile) {
    if (existsSync(options.configFile)) data = parseIni(readFileSync(options.configFile, 'utf8'));
    else if (options.requireConfigFile) throw new ConfigError(`config file ${options.configFile} does not exist`);
  }
  if (options.env) mergeIni(data, iniFromEnv(options.env));
  if (options.overrides) {
    const over: IniData = new Map();
    for (const [section, values] of Object.entries(options.overrides)) {
      const map = new Map<string, string>();
      for (const [key, value] of Object.entries(values ?? {})) {
        if (value !== undefined) map.set(key, Array.isArray(value) ? value.join(',') : String(value));
      }
      over.set(section, map);
    }
    mergeIni(data, over);
  }

  const resolved: Record<string, Record<string, unknown>> = {};
  for (const [section, keys] of Object.entries(SPEC)) {
    const values: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(keys) as [string, Spec<Kind, unknown>][]) {
      const raw = data.get(section)?.get(key);
      values[key] = raw === undefined ? spec.default : parseValue(spec.kind, raw, `[${section}] ${key}`);
    }
    resolved[section] = values;
  }
  const root = resolved[''] as { WORK_PATH: string };
  const workPath = path.resolve(options.workPath ?? (root.WORK_PATH || process.cwd()));
  const sections = Object.fromEntries([...data].map(([name, values]) => [name, Object.fromEntries(values)]));
  const settings = { ...resolved, workPath, sections } as unknown as Settings;
  deriveSettings(settings);
  return settings;
}

/** The ROOT_URL Forgejo derives when none is set: `PROTOCOL://DOMAIN:HTTP_PORT/`. */
export function derivedRootUrl(settings: Pick<Settings, 'server'>): string {
  const { PROTOCOL, DOMAIN, HTTP_PORT } = settings.server;
  return `${PROTOCOL}://${DOMAIN}:${HTTP_PORT}/`;
}

/** The key file RepoHost keeps in the data folder when no key is configured (`createSecretKeyFile` writes it). */
export const SECRET_KEY_FILE_NAME = 'secret_key';

/** Where the data folder's key file is. */
export function secretKeyFile(settings: Pick<Settings, 'server'>): string {
  return path.join(settings.server.APP_DATA_PATH, SECRET_KEY_FILE_NAME);
}

/** A key file's content, trimmed; an unreadable or empty file is a start-up error, never an empty key. */
function readKeyFile(file: string, where: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${where}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const key = text.trim();
  // As Forgejo: an empty file would be indistinguishable from no key at all.
  if (key === '') throw new ConfigError(`${where}: ${file} is empty`);
  return key;
}

/**
 * `[security] SECRET_KEY` as Forgejo's `loadSecret` resolves it: the value, or the file SECRET_KEY_URI names (only
 * `file:`), never both. With neither, the data folder's key file when it exists; else it stays empty and
 * `RepoHost.open` decides (refuse, generate, …).
 */
function resolveSecretKey(s: Settings): void {
  const security = s.security;
  const uri = security.SECRET_KEY_URI.trim();
  if (uri !== '' && security.SECRET_KEY !== '') throw new ConfigError('[security] SECRET_KEY and SECRET_KEY_URI: set one, not both');
  if (uri !== '') {
    if (!/^file:/i.test(uri)) throw new ConfigError(`[security] SECRET_KEY_URI: "${uri}" is not supported (only file:)`);
    let file: string;
    try {
      // `file:///abs` and `file:/abs` as URLs; `file:relative` (no slash) from the work path, as other paths are.
      file = uri.slice(5).startsWith('/') ? fileURLToPath(new URL(uri)) : path.resolve(s.workPath, uri.slice(5));
    } catch {
      throw new ConfigError(`[security] SECRET_KEY_URI: "${uri}" is not a file URI`);
    }
    security.SECRET_KEY = readKeyFile(file, '[security] SECRET_KEY_URI');
    return;
  }
  if (security.SECRET_KEY !== '') return;
  const file = secretKeyFile(s);
  if (existsSync(file)) security.SECRET_KEY = readKeyFile(file, '[security] SECRET_KEY (key file)');
}

/** Fills the settings Forgejo derives from others, and checks the ones that must hold. */
function deriveSettings(s: Settings): void {
  const server = s.server;
  server.APP_DATA_PATH = path.resolve(s.workPath, server.APP_DATA_PATH);
  if (!server.ROOT_URL) server.ROOT_URL = derivedRootUrl(s);
  if (!server.ROOT_URL.endsWith('/')) server.ROOT_URL += '/';
  try {
    new URL(server.ROOT_URL);
  } catch {
    throw new ConfigError(`[server] ROOT_URL: "${server.ROOT_URL}" is not a URL`);
  }
  if (!server.SSH_DOMAIN) server.SSH_DOMAIN = server.DOMAIN;
  if (server.HTTP_PORT < 0 || server.HTTP_PORT > 65535) throw new ConfigError('[server] HTTP_PORT: out of range');
  if (server.WORKERS < 0 || server.WORKERS > MAX_WORKERS) throw new ConfigError(`[server] WORKERS: must be 0 (one per CPU) to ${MAX_WORKERS}`);
  if (server.SSH_LISTEN_PORT === -1) server.SSH_LISTEN_PORT = server.SSH_PORT;
  if (server.SSH_LISTEN_PORT < 0 || server.SSH_LISTEN_PORT > 65535) throw new ConfigError('[server] SSH_LISTEN_PORT: out of range');
  server.SSH_SERVER_HOST_KEYS = server.SSH_SERVER_HOST_KEYS.map((file) => path.resolve(server.APP_DATA_PATH, file));
  resolveSecretKey(s);
  if (s.repohost.LEASE_SECONDS < 3 || s.repohost.LEASE_SECONDS > 3600) throw new ConfigError('[repohost] LEASE_SECONDS: must be 3 to 3600');

  const db = s.database;
  db.DB_TYPE = db.DB_TYPE.toLowerCase();
  if (db.DB_TYPE === 'sqlite') db.DB_TYPE = 'sqlite3';
  if (db.DB_TYPE === 'postgresql') db.DB_TYPE = 'postgres';
  if (db.DB_TYPE !== 'sqlite3' && db.DB_TYPE !== 'postgres') {
    throw new ConfigError(`[database] DB_TYPE: "${db.DB_TYPE}" is not supported (sqlite3, postgres)`);
  }
  if (!db.PATH) db.PATH = path.join(server.APP_DATA_PATH, 'forgejo.db');
  else if (db.PATH !== ':memory:') db.PATH = path.resolve(s.workPath, db.PATH);

  const repo = s.repository;
  repo.ROOT = repo.ROOT ? path.resolve(s.workPath, repo.ROOT) : path.join(server.APP_DATA_PATH, 'forgejo-repositories');
  repo.BACKEND = repo.BACKEND.toLowerCase();
  if (repo.BACKEND !== 'native' && repo.BACKEND !== 'memory') throw new ConfigError(`[repository] BACKEND: "${repo.BACKEND}" is not supported (native, memory)`);

  const log = s.log;
  log.ROOT_PATH = path.resolve(s.workPath, log.ROOT_PATH || 'log');
  log.ACCESS = log.ACCESS.trim().toLowerCase();
  if (log.ACCESS !== 'file' && log.ACCESS !== 'console') throw new ConfigError(`[log] ACCESS: "${log.ACCESS}" is not supported (file, console)`);
  log.ACCESS_LOG_FORMAT = log.ACCESS_LOG_FORMAT.trim().toLowerCase();
  if (log.ACCESS_LOG_FORMAT !== 'text' && log.ACCESS_LOG_FORMAT !== 'json') throw new ConfigError(`[log] ACCESS_LOG_FORMAT: "${log.ACCESS_LOG_FORMAT}" is not supported (text, json)`);
  if (log.ACCESS_LOG_TEMPLATE.trim() !== DEFAULT_ACCESS_LOG_TEMPLATE) throw new ConfigError('[log] ACCESS_LOG_TEMPLATE: only Forgejo\'s default line is supported; remove the key, or set [log] ACCESS_LOG_FORMAT = json');

  const api = s.api;
  if (api.MAX_RESPONSE_ITEMS < 1) throw new ConfigError('[api] MAX_RESPONSE_ITEMS: must be at least 1');
  if (api.DEFAULT_PAGING_NUM < 1) throw new ConfigError('[api] DEFAULT_PAGING_NUM: must be at least 1');
  const limits = s['api.ratelimit'];
  for (const key of ['CORE_WINDOW', 'SEARCH_WINDOW', 'GIT_WINDOW'] as const) {
    if (limits[key] < 1 || limits[key] > 31_536_000) throw new ConfigError(`[api.ratelimit] ${key}: must be 1 to 31536000 seconds`);
  }
  for (const key of ['CORE_LIMIT', 'CORE_ANONYMOUS_LIMIT', 'SEARCH_LIMIT', 'SEARCH_ANONYMOUS_LIMIT', 'GIT_LIMIT', 'GIT_ANONYMOUS_LIMIT'] as const) {
    if (limits[key] < 0 || limits[key] > 1_000_000_000) throw new ConfigError(`[api.ratelimit] ${key}: must be 0 (no limit) to 1000000000`);
  }
  if (limits.CLAIM_SIZE < 0 || limits.CLAIM_SIZE > 100_000) throw new ConfigError('[api.ratelimit] CLAIM_SIZE: must be 0 (automatic) to 100000');
}
