/**
 * Holds core to the shape CONTRIBUTING.md describes: its folders are layers, each importing only folders below it
 * (so no circle can form), each reached from outside only through its `index.ts`, which makes no store public, and
 * every domain record is listed in domains.ts.
 * Reads the sources only: fast, and it fails on the commit that breaks a rule, naming the import.
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../src/', import.meta.url));

/**
 * Bottom to top. A folder imports only folders before it in this list. A new folder takes its place here, where what
 * it imports is below it and what imports it is above.
 */
const LAYERS = [
  // The kernel: no domain.
  'config', 'settings', 'templates', 'storage', 'events', 'validation', 'security', 'ratelimit', 'net', 'git', 'blobs', 'jobs', 'workers',
  // Identity, then what hangs off accounts.
  'users', 'remote', 'access', 'twofactor', 'gpg', 'loginsources', 'orgs', 'quota',
  // Repositories and their git data.
  'repos', 'social', 'keys', 'tokens', 'topics', 'commits', 'protection', 'gitdata', 'refs', 'lfs',
  // The issue tracker and pull requests.
  'timeline', 'attachments', 'releases', 'labels', 'milestones', 'issues', 'reactions', 'times', 'comments', 'pulls', 'reviews',
  // What works over all of the above (packages below webhooks: its events become package deliveries).
  'packages', 'mirrors', 'pushmirrors', 'wiki', 'webhooks', 'migrate', 'accounts', 'actions',
  'activity', 'notifications', 'contents', 'redirects', 'oauth2', 'markup', 'secretsatrest', 'cron', 'nodeinfo', 'federation',
  // What operators watch: health checks and counts over every domain's tables (read only).
  'monitoring',
];

interface Import {
  /** The names an `import { … }` takes (empty for `export … from` and `import()`). */
  names: string[];
  from: string;
  to: string;
  fromFolder: string;
  toFolder: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const folderOf = (file: string) => {
  const parts = relative(root, file).split(sep);
  return parts.length > 1 ? parts[0]! : undefined;
};

function imports(): Import[] {
  const found: Import[] = [];
  const pattern = /(?:import|export)\s([^'"]*?)from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const file of sourceFiles(root)) {
    const fromFolder = folderOf(file);
    if (!fromFolder) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) {
      const base = resolve(dirname(file), match[2] ?? match[3]!).replace(/\.js$/, '');
      const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
      const toFolder = target && folderOf(target);
      if (!target || !toFolder || toFolder === fromFolder) continue;
      const names = (match[1]?.match(/\{([^}]*)\}/)?.[1] ?? '').split(',').map((name) => name.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter(Boolean);
      found.push({ names, from: relative(root, file), to: relative(root, target), fromFolder, toFolder });
    }
  }
  return found;
}

describe('core domain layers', () => {
  const all = imports();

  it('every folder has its place in the layers', () => {
    const folders = readdirSync(root).filter((name) => statSync(join(root, name)).isDirectory());
    expect(folders.filter((folder) => !LAYERS.includes(folder))).toEqual([]);
    expect(LAYERS.filter((folder) => !folders.includes(folder))).toEqual([]);
  });

  it('a folder imports only folders below it, so domains form no circle', () => {
    const upward = all.filter((i) => LAYERS.indexOf(i.toFolder) > LAYERS.indexOf(i.fromFolder)).map((i) => `${i.from} -> ${i.to}`);
    expect(upward).toEqual([]);
  });

  it("no domain imports another domain's store: it asks that domain's port or service", () => {
    // By file (a `…store.ts`) and by class (a `…Store` kept in a file of another name, such as `repos/watches.ts`).
    const foreign = all
      .filter((i) => i.toFolder !== 'storage' && (/store\.ts$/.test(i.to) || i.names.some((name) => /^[A-Z]\w*Store$/.test(name))))
      .map((i) => `${i.from} -> ${i.to}`);
    expect(foreign).toEqual([]);
  });

  it("a folder reaches another only through that folder's index.ts", () => {
    const around = all.filter((i) => i.to !== join(i.toFolder, 'index.ts')).map((i) => `${i.from} -> ${i.to}`);
    expect(around).toEqual([]);
  });

  it('no index.ts makes a store public: stores stay private to their folder', () => {
    const exposed: string[] = [];
    // The storage kernel's `Store` is the base class every store extends, not a store of a domain.
    for (const folder of LAYERS.filter((name) => name !== 'storage')) {
      const index = join(root, folder, 'index.ts');
      if (!existsSync(index)) continue;
      for (const match of readFileSync(index, 'utf8').matchAll(/export\s*\{([^}]*)\}\s*from\s*'([^']+)'|export\s*\*[^']*'([^']+)'/g)) {
        // A store file's types (a filter, a row shape) may be public; its values (the store class) may not.
        const values = (match[1] ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '' && !name.startsWith('type '));
        if (match[3] !== undefined) exposed.push(`${folder}/index.ts: export * from ${match[3]}`);
        else if ((/store\.js$/.test(match[2]!) && values.length > 0) || values.some((name) => /^[A-Z]\w*Store$/.test(name.split(/\s+as\s+/).at(-1)!))) exposed.push(`${folder}/index.ts: ${match[0]}`);
      }
    }
    expect(exposed).toEqual([]);
  });

  it('what core loads when first needed (`import()`) stays out of what it loads at start', () => {
    // A folder's index re-exporting a file that reaches a lazily loaded one (openpgp, isomorphic-git) would load it
    // with the package: start-up time and idle memory grow with no request asking for it.
    const lazy = new Set<string>();
    const staticImports = new Map<string, string[]>();
    const pattern = /(?:^|[^\w.])import\(\s*['"](\.[^'"]+)['"]\s*\)|^(import|export)\s+(type\s)?([^'"]*?)from\s*['"](\.[^'"]+)['"]/gm;
    for (const file of sourceFiles(root)) {
      const targets: string[] = [];
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(pattern)) {
        const spec = match[1] ?? match[5]!;
        const base = resolve(dirname(file), spec).replace(/\.js$/, '');
        const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
        if (!target) continue;
        if (match[1] !== undefined) {
          if (!/typeof\s+$/.test(source.slice(Math.max(0, match.index - 8), match.index + 1))) lazy.add(target);
          continue;
        }
        const names = match[4]!.match(/\{([^}]*)\}/)?.[1];
        const typeOnly = match[3] !== undefined || (names !== undefined && names.split(',').every((name) => name.trim() === '' || /^type\s/.test(name.trim())));
        if (!typeOnly) targets.push(target);
      }
      staticImports.set(file, targets);
    }
    const reached = new Set<string>();
    const walk = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const next of staticImports.get(file) ?? []) walk(next);
    };
    walk(join(root, 'index.ts'));
    expect([...lazy].filter((file) => reached.has(file)).map((file) => relative(root, file))).toEqual([]);
  });

  it('every domain record is listed in domains.ts', () => {
    const listed = new Set(readFileSync(join(root, 'domains.ts'), 'utf8').match(/\w+/g));
    const unlisted: string[] = [];
    for (const folder of LAYERS) {
      const record = join(root, folder, 'domain.ts');
      if (!existsSync(record)) continue;
      for (const match of readFileSync(record, 'utf8').matchAll(/export const (\w+) = defineDomain\(/g)) {
        if (!listed.has(match[1]!)) unlisted.push(`${folder}/domain.ts ${match[1]}`);
      }
    }
    expect(unlisted).toEqual([]);
  });
});
