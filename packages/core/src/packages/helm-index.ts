/**
 * A Helm chart repository's `index.yaml` (Forgejo's `helm.Index`), written from the stored versions' metadata: pure,
 * so it runs in a worker thread (`package-worker.ts`) where thousands of versions take their second of YAML writing
 * off the event loop.
 */
import { stringify } from 'yaml';
import { pathEscape } from '../urls.js';

/** A chart's maintainer (Forgejo's `helm_module.Maintainer`). */
export interface HelmMaintainer {
  name?: string;
  email?: string;
  url?: string;
}

/** A chart's dependency (Forgejo's `helm_module.Dependency`). */
export interface HelmDependency {
  name: string;
  version?: string;
  repository: string;
  condition?: string;
  tags?: string[];
  enabled?: boolean;
  import_values?: unknown[];
  alias?: string;
}

/** The metadata of a chart version as Forgejo stores it (`helm_module.Metadata`'s JSON, empty fields left out). */
export interface HelmMetadata {
  api_version: string;
  type?: string;
  name: string;
  version: string;
  app_version?: string;
  home?: string;
  sources?: string[];
  description?: string;
  keywords?: string[];
  maintainers?: HelmMaintainer[];
  icon?: string;
  condition?: string;
  tags?: string;
  deprecated?: boolean;
  annotations?: Record<string, string>;
  kube_version?: string;
  dependencies?: HelmDependency[];
}

/** What Go's `omitempty` leaves out: empty strings, false, empty lists and maps, absent values. */
export function isOmitted(v: unknown): boolean {
  return v === undefined || v === '' || v === false || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
}

/** Drops the fields `omitempty` leaves out. */
export function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (isOmitted(value[key])) delete value[key];
  return value;
}

/** Forgejo's `createFilename`: `{name}-{version}.tgz`, lower case. */
export function helmFilename(name: string, version: string): string {
  return `${name}-${version}.tgz`.toLowerCase();
}

function indexEntry(metadata: HelmMetadata, url: string, created: number): Record<string, unknown> {
  const entry: Record<string, unknown> = { apiVersion: metadata.api_version };
  const put = (key: string, value: unknown) => {
    if (!isOmitted(value)) entry[key] = value;
  };
  put('type', metadata.type);
  entry.name = metadata.name;
  entry.version = metadata.version;
  put('appVersion', metadata.app_version);
  put('home', metadata.home);
  put('sources', metadata.sources);
  put('description', metadata.description);
  put('keywords', metadata.keywords);
  put('maintainers', metadata.maintainers?.map((m) => compact({ name: m.name, email: m.email, url: m.url })));
  put('icon', metadata.icon);
  put('condition', metadata.condition);
  put('tags', metadata.tags);
  put('deprecated', metadata.deprecated);
  // yaml.v3 writes a map's keys sorted.
  put('annotations', metadata.annotations && Object.fromEntries(Object.entries(metadata.annotations).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  put('kubeVersion', metadata.kube_version);
  put(
    'dependencies',
    metadata.dependencies?.map((d) => {
      const out: Record<string, unknown> = { name: d.name };
      if (d.version) out.version = d.version;
      out.repository = d.repository;
      if (d.condition) out.condition = d.condition;
      if (d.tags && d.tags.length > 0) out.tags = d.tags;
      if (d.enabled) out.enabled = true;
      if (d.import_values && d.import_values.length > 0) out['import-values'] = d.import_values;
      if (d.alias) out.alias = d.alias;
      return out;
    }),
  );
  entry.urls = [url];
  entry.created = goTime(created * 1000);
  return entry;
}

/** How yaml.v3 writes a `time.Time` (RFC 3339 with the fraction Go keeps; UTC here). */
function goTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function metadataOf(version: Pick<HelmIndexVersion, 'metadata_json'>): HelmMetadata | undefined {
  try {
    const value = JSON.parse(version.metadata_json || 'null') as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as HelmMetadata) : undefined;
  } catch {
    return undefined;
  }
}


/** What the index is written from: each chart version's stored metadata and creation time. */
export interface HelmIndexVersion {
  metadata_json: string;
  created_unix: number;
}

export interface HelmIndexInput {
  versions: HelmIndexVersion[];
  /** The repository's URL (`…/api/packages/{owner}/helm`): each version's download is under it. */
  base: string;
  /** `serverInfo.contextPath`: the repository's path under the site. */
  contextPath: string;
  /** `generated`, in milliseconds. */
  now: number;
}

/**
 * Every chart version (in the order given: newest first) under its chart's name, charts by name, with its download
 * URL and creation time; `generated` now. A version whose metadata does not read is left out.
 */
export function buildHelmIndex(input: HelmIndexInput): string {
  const entries = new Map<string, Record<string, unknown>[]>();
  for (const version of input.versions) {
    const metadata = metadataOf(version);
    if (!metadata) continue;
    const list = entries.get(metadata.name) ?? [];
    list.push(indexEntry(metadata, `${input.base}/${pathEscape(helmFilename(metadata.name, metadata.version))}`, version.created_unix));
    entries.set(metadata.name, list);
  }
  const document = {
    apiVersion: 'v1',
    entries: Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    generated: goTime(input.now),
    serverInfo: { contextPath: input.contextPath },
  };
  // yaml.v3's encoder: four spaces, sequences indented, no line folding.
  return stringify(document, { indent: 4, indentSeq: true, lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false });
}
