import { defineConfig } from 'tsup';

export default defineConfig({
  // The highlight worker is a file of its own: worker threads load it by path (web/highlight.ts).
  entry: { index: 'src/index.ts', testing: 'src/testing.ts', 'highlight-worker': 'src/web/highlight-worker.ts' },
  format: ['esm'],
  target: 'node20',
  // Declarations are for publishing and take most of the build time: the start path skips them (build-if-stale).
  dts: process.env.REPOHOST_BUILD_DTS !== '0',
  sourcemap: true,
  clean: true,
  // As core's (its tsup.config.ts): h3, srvx (with rou3) and TypeBox bundled rather than loaded as dozens of
  // modules. The server uses TypeBox's builders only (plain objects, kinds under global symbols), so its copy and
  // core's, which validates, agree.
  noExternal: [/^h3(?:\/|$)/, /^srvx(?:\/|$)/, /^@sinclair\/typebox(?:\/|$)/],
  minifyWhitespace: true,
  minifySyntax: true,
});
