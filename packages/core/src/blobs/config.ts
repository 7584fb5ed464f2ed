import path from 'node:path';
import { ConfigError, type Settings } from '../config/index.js';
import { trimEnd } from '../text.js';

/**
 * The kinds of stored files Forgejo configures storage for, by the name Forgejo gives each: the folder under the
 * data folder (local storage) and the default prefix of its objects (object storage).
 */
export type StorageKind = 'attachments' | 'avatars' | 'repo-avatars' | 'packages' | 'lfs' | 'actions_artifacts';

export const STORAGE_KINDS: readonly StorageKind[] = ['attachments', 'avatars', 'repo-avatars', 'packages', 'lfs', 'actions_artifacts'];

/** A kind's files in a folder, one file per key. */
export interface LocalStorageConfig {
  type: 'local';
  /** Absolute. */
  path: string;
}

/** A kind's files as objects of an S3-compatible storage, under `basePath` in `bucket`. */
export interface ObjectStorageConfig {
  type: 'minio';
  /** Where the settings came from (`[storage]`, `[storage.NAME]`, `[attachment]`), for messages. */
  section: string;
  /** `host` or `host:port`, no scheme. */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  bucketLookup: 'auto' | 'dns' | 'path';
  location: string;
  /** Prefix of the kind's objects: plain segments, each followed by `/` (`attachments/`), or empty. */
  basePath: string;
  useSSL: boolean;
  insecureSkipVerify: boolean;
  /** Downloads redirect to a presigned URL instead of passing through RepoHost. */
  serveDirect: boolean;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
}

export type StorageConfig = LocalStorageConfig | ObjectStorageConfig;

type Section = Readonly<Record<string, string>>;
type StorageType = 'local' | 'minio';

/** How the target section was found, which decides how its paths combine with the kind's name (Forgejo's `targetSecType`). */
type Found = 'type' | 'default' | 'named' | 'own';

interface Target {
  found: Found;
  /** Its name, for messages: `storage`, `storage.NAME` or the kind's own section. */
  name: string;
  type: StorageType;
  /** Its own keys as written (the `[storage]` defaults come from the table, below). */
  values: Section;
}

const TRUE = new Set(['1', 't', 'true', 'y', 'yes', 'on']);
const FALSE = new Set(['0', 'f', 'false', 'n', 'no', 'off']);

/**
 * Where each kind of file lives, as Forgejo's `modules/setting/storage.go` reads its settings:
 *
 * - A kind reads its own section (`[attachment]`, `[avatar]` with `[picture] AVATAR_STORAGE_TYPE`, `[repo-avatar]`
 *   with `[picture] REPOSITORY_AVATAR_STORAGE_TYPE`, `[packages]`, `[lfs]`, `[actions.artifacts]`). When that section
 *   says `STORAGE_TYPE = local | minio` and no `[storage.local]`/`[storage.minio]` exists, it is the whole
 *   configuration; `STORAGE_TYPE = NAME` takes `[storage.NAME]`, which must say its own type (or inherit `[storage]`'s).
 * - Otherwise `[storage.<kind name>]` (`[storage.attachments]`) when it sets a type or a path, else `[storage]`.
 * - Local paths: from `[storage] PATH` (or the data folder) each kind gets its folder named after it; a kind's
 *   `PATH` replaces that, relative to `[storage] PATH` or the data folder. RepoHost's older keys keep their meaning:
 *   `[picture] AVATAR_UPLOAD_PATH` and `[repo-avatar] PATH` are relative to the work path, as before.
 * - Object storage: `MINIO_BASE_PATH` of `[storage]` gets the kind's name appended (`prefix/attachments/`); a kind
 *   (or its `[storage.<kind name>]`) may set its own `MINIO_BASE_PATH`, `MINIO_BUCKET` and `SERVE_DIRECT`.
 *
 * `[storage.NAME]` sections inherit the keys they do not set from `[storage]` (Forgejo reads them as child
 * sections). So does a kind's own section that is the whole configuration, where Forgejo would leave them empty
 * (and fail); a configuration Forgejo accepts means the same here. Errors are ConfigErrors naming the key.
 */
export function resolveBlobStorages(settings: Settings): Record<StorageKind, StorageConfig> {
  const resolved = {} as Record<StorageKind, StorageConfig>;
  for (const kind of STORAGE_KINDS) resolved[kind] = resolveKind(settings, kind);
  return resolved;
}

/** A kind's own section (absent when not written, as Forgejo's `GetSection`) and the type its settings name. */
function kindSection(settings: Settings, kind: StorageKind): { name: string; section: Section | undefined; type: string; typeKey?: string } {
  const sections = sectionsOf(settings);
  const fromWorkPath = (value: string) => (value === '' ? '' : path.resolve(settings.workPath, value));
  switch (kind) {
    case 'attachments':
      return { name: 'attachment', section: sections['attachment'], type: '' };
    case 'avatars': {
      // Forgejo's `[avatar]` is always there, its PATH defaulting to `[picture] AVATAR_UPLOAD_PATH` (which RepoHost
      // has always taken from the work path).
      const own = sections['avatar'] ?? {};
      const legacy = fromWorkPath(settings.picture.AVATAR_UPLOAD_PATH);
      return { name: 'avatar', section: { ...own, PATH: nonEmpty(own['PATH']) ?? legacy }, type: settings.picture.AVATAR_STORAGE_TYPE, typeKey: '[picture] AVATAR_STORAGE_TYPE' };
    }
    case 'repo-avatars': {
      const own = sections['repo-avatar'] ?? {};
      const pathOf = nonEmpty(own['PATH']) !== undefined ? fromWorkPath(own['PATH']!) : settings.picture.REPOSITORY_AVATAR_UPLOAD_PATH;
      return { name: 'repo-avatar', section: { ...own, PATH: pathOf }, type: settings.picture.REPOSITORY_AVATAR_STORAGE_TYPE, typeKey: '[picture] REPOSITORY_AVATAR_STORAGE_TYPE' };
    }
    case 'packages':
      return { name: 'packages', section: sections['packages'], type: '' };
    case 'lfs': {
      // `[server] LFS_CONTENT_PATH`, deprecated, is the default of `[lfs] PATH`.
      const legacy = nonEmpty(sections['server']?.['LFS_CONTENT_PATH']);
      const own = sections['lfs'];
      if (legacy === undefined) return { name: 'lfs', section: own, type: '' };
      return { name: 'lfs', section: { ...own, PATH: nonEmpty(own?.['PATH']) ?? legacy }, type: '' };
    }
    case 'actions_artifacts':
      return { name: 'actions.artifacts', section: sections['actions.artifacts'], type: '' };
  }
}

function resolveKind(settings: Settings, kind: StorageKind): StorageConfig {
  const own = kindSection(settings, kind);
  const target = targetOf(settings, kind, own.type, own.section, own.name, own.typeKey);
  // The section whose PATH, MINIO_BASE_PATH, MINIO_BUCKET and SERVE_DIRECT override the target's.
  let override: Section | undefined;
  let overrideName = own.name;
  if (target.found !== 'own') {
    if (own.section) override = own.section;
    else if (target.found !== 'named') {
      override = sectionsOf(settings)[`storage.${kind}`];
      overrideName = `storage.${kind}`;
    }
  }
  return target.type === 'local' ? localConfig(settings, kind, target, override) : objectConfig(settings, kind, target, override, overrideName);
}

/** Forgejo's `getStorageTargetSection`: where the storage's type and settings come from. */
function targetOf(settings: Settings, kind: StorageKind, typeSetting: string, section: Section | undefined, sectionName: string, typeKey?: string): Target {
  const sections = sectionsOf(settings);
  let type = typeSetting.trim().toLowerCase();
  let where = typeKey ?? `[${sectionName}] STORAGE_TYPE`;
  if (type === '' && section) {
    type = (section['STORAGE_TYPE'] ?? '').trim().toLowerCase();
    where = `[${sectionName}] STORAGE_TYPE`;
    if (isStorageType(type) && !sections[`storage.${type}`]) return { found: 'own', name: sectionName, type, values: section };
  }
  if (type !== '') {
    const byType = sectionOfType(settings, type, where);
    if (byType) return byType;
  }
  const named = sections[`storage.${kind}`];
  if (named) {
    const declared = inheritedType(settings, named);
    if (declared === '') {
      // Neither a type nor a path: the defaults (which this section may still override).
      if (nonEmpty(named['PATH']) === undefined) return defaultTarget(settings);
      return { found: 'named', name: `storage.${kind}`, type: 'local', values: named };
    }
    const byType = sectionOfType(settings, declared, `[storage.${kind}] STORAGE_TYPE`);
    if (byType) return byType;
    return { found: 'named', name: `storage.${kind}`, type: declared as StorageType, values: named };
  }
  return defaultTarget(settings);
}

/**
 * Forgejo's `getStorageSectionByType`: `[storage.TYPE]` when it exists (its own type, or `TYPE` itself when that is
 * `local` or `minio`); nothing for a plain `local` or `minio` without such a section; an error for a name that
 * has no section or says no type.
 */
function sectionOfType(settings: Settings, type: string, where: string): Target | undefined {
  const name = `storage.${type}`;
  const section = sectionsOf(settings)[name];
  if (!section) {
    if (!isStorageType(type)) throw new ConfigError(`${where}: "${type}" is neither local, minio nor a [${name}] section`);
    return undefined;
  }
  const declared = inheritedType(settings, section) || type;
  if (!isStorageType(declared)) {
    throw new ConfigError(declared === type ? `[${name}] STORAGE_TYPE: missing (local or minio)` : `[${name}] STORAGE_TYPE: "${declared}" is not supported (local, minio)`);
  }
  return { found: 'type', name, type: declared, values: section };
}

/** A `[storage.NAME]` section's type: its own, else what `[storage]` says (as written, not its default). */
function inheritedType(settings: Settings, section: Section): string {
  return (nonEmpty(section['STORAGE_TYPE']) ?? nonEmpty(sectionsOf(settings)['storage']?.['STORAGE_TYPE']) ?? '').trim().toLowerCase();
}

function defaultTarget(settings: Settings): Target {
  const type = settings.storage.STORAGE_TYPE.trim().toLowerCase();
  if (!isStorageType(type)) throw new ConfigError(`[storage] STORAGE_TYPE: "${settings.storage.STORAGE_TYPE}" is not supported (local, minio)`);
  return { found: 'default', name: 'storage', type, values: sectionsOf(settings)['storage'] ?? {} };
}

/** Forgejo's `getStorageForLocal`. */
function localConfig(settings: Settings, kind: StorageKind, target: Target, override: Section | undefined): LocalStorageConfig {
  const dataPath = settings.server.APP_DATA_PATH;
  const targetPath = target.found === 'default' ? settings.storage.PATH : (nonEmpty(target.values['PATH']) ?? '');
  let fallback: string;
  if (targetPath === '') fallback = path.join(dataPath, kind);
  else fallback = path.resolve(dataPath, target.found === 'default' ? path.join(targetPath, kind) : targetPath);
  const own = nonEmpty(override?.['PATH']);
  if (own === undefined) return { type: 'local', path: fallback };
  if (path.isAbsolute(own)) return { type: 'local', path: path.normalize(own) };
  return { type: 'local', path: path.resolve(dataPath, targetPath, own) };
}

/** Forgejo's `getStorageForMinio`, with RepoHost's timeouts. */
function objectConfig(settings: Settings, kind: StorageKind, target: Target, override: Section | undefined, overrideName: string): ObjectStorageConfig {
  const defaults = settings.storage;
  // `[storage]` is read from the table (its defaults included); any other section falls back to it key by key.
  const fromTable = target.found === 'default';
  const text = (key: keyof typeof defaults & string): string => {
    const value = fromTable ? undefined : nonEmpty(target.values[key]);
    return value ?? String(defaults[key]);
  };
  const flag = (key: 'MINIO_USE_SSL' | 'MINIO_INSECURE_SKIP_VERIFY' | 'SERVE_DIRECT'): boolean => {
    const value = fromTable ? undefined : nonEmpty(target.values[key]);
    return value === undefined ? defaults[key] : parseFlag(value, `[${target.name}] ${key}`);
  };
  const seconds = (key: 'MINIO_CONNECT_TIMEOUT' | 'MINIO_REQUEST_TIMEOUT'): number => {
    const value = fromTable ? undefined : nonEmpty(target.values[key]);
    const where = `[${fromTable ? 'storage' : target.name}] ${key}`;
    const n = value === undefined ? defaults[key] : /^\s*\d{1,6}\s*$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < 1) throw new ConfigError(`${where}: must be a whole number of seconds, at least 1`);
    return n * 1000;
  };

  const basePath = text('MINIO_BASE_PATH');
  let prefix = basePath === '' ? `${kind}/` : target.found === 'default' ? `${trimEnd(basePath, '/')}/${kind}/` : basePath;
  let bucket = text('MINIO_BUCKET');
  let serveDirect = flag('SERVE_DIRECT');
  if (override) {
    prefix = nonEmpty(override['MINIO_BASE_PATH']) ?? prefix;
    bucket = nonEmpty(override['MINIO_BUCKET']) ?? bucket;
    const direct = nonEmpty(override['SERVE_DIRECT']);
    if (direct !== undefined) serveDirect = parseFlag(direct, `[${overrideName}] SERVE_DIRECT`);
  }

  const endpoint = text('MINIO_ENDPOINT').trim();
  if (!isHostAndPort(endpoint)) throw new ConfigError(`[${target.name}] MINIO_ENDPOINT: "${endpoint}" is not host:port (no scheme: MINIO_USE_SSL chooses https)`);
  const lookup = text('MINIO_BUCKET_LOOKUP').trim().toLowerCase();
  if (lookup !== 'auto' && lookup !== 'dns' && lookup !== 'path') throw new ConfigError(`[${target.name}] MINIO_BUCKET_LOOKUP: "${lookup}" is not auto, dns or path`);
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError(`MINIO_BUCKET of ${kind}: "${bucket}" is not a bucket name (3 to 63 lower-case letters, digits, dots and dashes)`);
  return {
    type: 'minio',
    section: target.name,
    endpoint,
    accessKeyId: text('MINIO_ACCESS_KEY_ID'),
    secretAccessKey: text('MINIO_SECRET_ACCESS_KEY'),
    bucket,
    bucketLookup: lookup,
    location: text('MINIO_LOCATION'),
    basePath: normalizePrefix(prefix, `MINIO_BASE_PATH of ${kind}`),
    useSSL: flag('MINIO_USE_SSL'),
    insecureSkipVerify: flag('MINIO_INSECURE_SKIP_VERIFY'),
    serveDirect,
    connectTimeoutMs: seconds('MINIO_CONNECT_TIMEOUT'),
    requestTimeoutMs: seconds('MINIO_REQUEST_TIMEOUT'),
  };
}

/**
 * An object prefix as Forgejo joins it (`path.Join`, the leading slash dropped): `/a//b/` is `a/b/`. Segments that
 * would climb out (`..`) are refused rather than resolved.
 */
function normalizePrefix(prefix: string, where: string): string {
  const segments = prefix.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new ConfigError(`${where}: "${prefix}" may not contain ".."`);
  return segments.length === 0 ? '' : `${segments.join('/')}/`;
}

/** `host`, `host:port` or `[v6]:port`, and nothing else: no scheme, credentials, path or query. */
function isHostAndPort(endpoint: string): boolean {
  if (endpoint === '' || /[\s/?#@\\]/.test(endpoint)) return false;
  try {
    return new URL(`http://${endpoint}`).host === endpoint.toLowerCase().replace(/:80$/, '');
  } catch {
    return false;
  }
}

function sectionsOf(settings: Settings): Settings['sections'] {
  return settings.sections ?? {};
}

function isStorageType(type: string): type is StorageType {
  return type === 'local' || type === 'minio';
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function parseFlag(value: string, where: string): boolean {
  const v = value.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw new ConfigError(`${where}: "${value}" is not a boolean`);
}
