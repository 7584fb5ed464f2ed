import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

// Every test file runs against SQLite; against PostgreSQL too when REPOHOST_TEST_PG_HOST names a server.
const databases = ['sqlite', ...(process.env.REPOHOST_TEST_PG_HOST ? ['postgres'] : [])];

export default defineConfig({
  resolve: {
    alias: {
      '@repohost/core': src('core'),
      // Before the package itself: an alias matches a prefix.
      '@repohost/server/testing': fileURLToPath(new URL('./packages/server/src/testing.ts', import.meta.url)),
      '@repohost/server': src('server'),
      '@repohost/cli': src('cli'),
      // The shared test harness, imported by name from every package's tests.
      '@repohost/test-support': fileURLToPath(new URL('./test/support/harness.ts', import.meta.url)),
    },
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: databases.map((db) => ({
      extends: true,
      test: {
        name: db,
        include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
        env: { REPOHOST_TEST_DB: db },
      },
    })),
  },
});
