/**
 * Migrations are frozen in time and run in one order: the list is append-only, names are unique and sorted, and
 * each migration file depends on Kysely and the migration kit only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationNames } from '@repohost/core';
import { openTestHost } from '@repohost/test-support';

const folder = fileURLToPath(new URL('../src/storage/migrations/', import.meta.url));
const migrationFiles = readdirSync(folder).filter((f) => /^\d{4}_.+\.ts$/.test(f)).sort();

describe('the migration list', () => {
  it('has unique names, in sorted order, each NNNN_domain_what', () => {
    const names = migrationNames();
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(names);
    for (const name of names) expect(name).toMatch(/^\d{4}_[a-z][a-z0-9]*_[a-z0-9_]+$/);
    // Numbers are not reused either.
    const numbers = names.map((n) => n.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('lists every migration file, each once, under the file\'s own name', () => {
    expect(migrationFiles.map((f) => f.replace(/\.ts$/, ''))).toEqual(migrationNames());
    for (const file of migrationFiles) {
      const source = readFileSync(path.join(folder, file), 'utf8');
      expect(source, file).toContain(`name: '${file.replace(/\.ts$/, '')}'`);
    }
  });

  it('lets a migration file import Kysely and the kit only, never a domain file', () => {
    for (const file of [...migrationFiles, 'kit.ts']) {
      const source = readFileSync(path.join(folder, file), 'utf8');
      const imports = [...source.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
      for (const target of imports) expect(['kysely', './kit.js'], `${file} imports ${target}`).toContain(target);
    }
  });

  it('brings an empty database to the latest schema once, then finds nothing to do', async () => {
    const t = await openTestHost();
    try {
      // Opening migrated it; a second run applies nothing.
      expect(await t.host.migrate()).toEqual([]);
    } finally {
      await t.cleanup();
    }
  });
});
