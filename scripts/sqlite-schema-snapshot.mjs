/**
 * Writes packages/core/src/storage/sqlite-snapshot.ts: the schema (and any rows) every migration leaves in a new
 * SQLite database, which a new SQLite database then gets in one transaction instead of running the migrations one
 * by one (migrator.ts: `applySqliteSnapshot`). Run it by hand after adding or changing a migration:
 *
 *   node scripts/sqlite-schema-snapshot.mjs
 *
 * `packages/core/test/sqlite-snapshot.test.ts` fails until it has been run. It migrates from the sources (through tsx)
 * with the migrator itself, never from a snapshot, so an earlier snapshot cannot leak into the next one.
 * `--check` writes nothing and exits 1 when the file is not what it would write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const SCRIPT = 'node scripts/sqlite-schema-snapshot.mjs';
const storageFolder = new URL('../packages/core/src/storage/', import.meta.url);
const target = fileURLToPath(new URL('sqlite-snapshot.ts', storageFolder));

const load = (file) => tsImport(fileURLToPath(new URL(file, storageFolder)), import.meta.url);
const { openStorage } = await load('database.ts');
const { migrateToLatest } = await load('migrator.ts');
const { captureSqliteSchema, snapshotModule } = await load('sqlite-snapshot-capture.ts');

const storage = await openStorage({ DB_TYPE: 'sqlite3', PATH: ':memory:', SQLITE_TIMEOUT: 5000 });
let text;
try {
  await migrateToLatest(storage.db, 'sqlite');
  text = snapshotModule(await captureSqliteSchema(storage.db), SCRIPT);
} finally {
  await storage.close();
}

const current = readFileSync(target, 'utf8');
if (process.argv.includes('--check')) {
  if (current !== text) {
    console.error(`${target} is out of date: run ${SCRIPT}`);
    process.exit(1);
  }
  console.log(`${target} is up to date`);
} else if (current === text) {
  console.log(`${target} is up to date`);
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
