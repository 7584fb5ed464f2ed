import { defineConfig } from 'tsup';

export default defineConfig([
  // The library entry, for programs that drive the CLI in-process.
  {
    entry: ['src/index.ts'],
    format: ['esm'],
    target: 'node20',
    // Declarations are for publishing and take most of the build time: the start path skips them (build-if-stale).
    dts: process.env.REPOHOST_BUILD_DTS !== '0',
    sourcemap: true,
  },
  // The `repohost` binary: one file with its dependencies bundled, because resolving and loading hundreds of
  // modules dominated start-up time. Native (better-sqlite3), optional (pg) and lazily loaded, partly native (ssh2)
  // modules stay external.
  {
    // The markdown render worker beside main.js, where the bundled render pool looks for it.
    entry: { main: 'src/main.ts', 'render-worker': '../core/src/markup/render-worker.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    sourcemap: true,
    minifySyntax: true,
    // piscina starts its threads from its own worker file, found beside its own module.
    noExternal: [/^(?!better-sqlite3|pg(?:\/|$)|ssh2(?:\/|$)|piscina(?:\/|$))/],
    external: ['better-sqlite3', 'pg', 'ssh2', 'piscina'],
    banner: { js: "import { createRequire as __repohostCreateRequire } from 'node:module'; const require = __repohostCreateRequire(import.meta.url);" },
  },
]);
