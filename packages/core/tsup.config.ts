import { defineConfig } from 'tsup';

export default defineConfig({
  // The markdown render, workflow and package workers are files of their own: worker threads load them by path
  // (markup/pool.ts, actions/workflow-pool.ts, packages/workers.ts).
  entry: {
    index: 'src/index.ts',
    'render-worker': 'src/markup/render-worker.ts',
    'workflow-worker': 'src/actions/workflow-worker.ts',
    'package-worker': 'src/packages/package-worker.ts',
  },
  format: ['esm'],
  target: 'node20',
  // Declarations are for publishing and take most of the build time: the start path skips them (build-if-stale).
  dts: process.env.REPOHOST_BUILD_DTS !== '0',
  sourcemap: true,
  clean: true,
  // Start-up cost (what importing the package costs a test suite's first test): kysely and TypeBox as published are
  // hundreds of small ES modules each, and resolving and linking them took most of the import; bundled, they are
  // part of one chunk. Whitespace and syntax minified (names kept, the source map maps back): a third less to
  // parse, and no non-ASCII comment that makes the whole file a two-byte string.
  noExternal: [/^kysely(?:\/|$)/, /^@sinclair\/typebox(?:\/|$)/],
  minifyWhitespace: true,
  minifySyntax: true,
});
