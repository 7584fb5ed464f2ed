import { defineConfig } from 'tsup';

export default defineConfig([
  // The library entry, for programs that drive the CLI in-process.
  {
    entry: ['src/index.ts'],
    format: ['esm'],
    target: 'node20',
    dts: true,
    sourcemap: true,
  },
  // The `repohost` binary: one file with its dependencies bundled, because resolving and loading hundreds of
  // modules dominated start-up time. Native (better-sqlite3), optional (pg) and lazily loaded, partly native (ssh2)
  // modules stay external.
  {
    entry: { main: 'src/main.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    sourcemap: true,
    minifySyntax: true,
    noExternal: [/^(?!better-sqlite3|pg(?:\/|$)|ssh2(?:\/|$))/],
    external: ['better-sqlite3', 'pg', 'ssh2'],
    banner: { js: "import { createRequire as __repohostCreateRequire } from 'node:module'; const require = __repohostCreateRequire(import.meta.url);" },
  },
]);
