import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

/**
 * Server tests that also run against the in-memory git backend. The others read repository folders, use sha256
 * repositories, diffs, archives or git over SSH, which that backend does not have (git/unsupported.ts).
 */
const MEMORY_BACKEND_TESTS = [
  'collaborators', 'comments', 'issue-dependencies', 'issue-pins', 'issues', 'labels', 'milestones',
  'notifications', 'orgs', 'pulls', 'reactions', 'renames', 'repo-search', 'teams', 'timeline', 'topics', 'webhooks-api', 'wiki',
];

/**
 * Test files at once. Vitest's default leaves a core idle (cores - 1: one worker on a 2-core machine), but a test file
 * here mostly waits on git processes, sockets and the database, so one more worker than cores keeps both busy.
 * `REPOHOST_TEST_WORKERS` overrides it.
 */
const workers = Number(process.env.REPOHOST_TEST_WORKERS) || availableParallelism() + 1;

// Every test file runs against SQLite; against PostgreSQL too when REPOHOST_TEST_PG_HOST names a server.
const databases = ['sqlite', ...(process.env.REPOHOST_TEST_PG_HOST ? ['postgres'] : [])];

export default defineConfig({
  resolve: {
    alias: {
      // Before the package itself: an alias matches a prefix. Stores for white-box tests (not published).
      '@repohost/core/internal': fileURLToPath(new URL('./packages/core/src/internal.ts', import.meta.url)),
      '@repohost/core': src('core'),
      // Before the package itself: an alias matches a prefix.
      '@repohost/server/testing': fileURLToPath(new URL('./packages/server/src/testing.ts', import.meta.url)),
      '@repohost/server': src('server'),
      '@repohost/cli': src('cli'),
      '@repohost/client': src('client'),
      // The shared test harness, imported by name from every package's tests.
      '@repohost/test-support': fileURLToPath(new URL('./test/support/harness.ts', import.meta.url)),
    },
  },
  test: {
    maxWorkers: workers,
    // Test files share their worker's loaded modules instead of loading the sources anew for each file: every file
    // opens its own hosts, servers and folders, so nothing of one reaches the next, and the suite takes about a
    // third less time. A file that mocks a module loads what it tests afresh (`vi.resetModules`, then import).
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      ...databases.map((db) => ({
        extends: true as const,
        test: {
          name: db,
          include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
          env: { REPOHOST_TEST_DB: db },
        },
      })),
      // API end-to-end tests that need nothing native-only, once more on the in-memory git backend (SQLite).
      {
        extends: true as const,
        test: {
          name: 'memory',
          include: MEMORY_BACKEND_TESTS.map((name) => `packages/server/test/${name}.test.ts`),
          env: { REPOHOST_TEST_DB: 'sqlite', REPOHOST_TEST_GIT: 'memory' },
        },
      },
    ],
  },
});
