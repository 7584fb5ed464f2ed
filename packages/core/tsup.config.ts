import { defineConfig } from 'tsup';

export default defineConfig({
  // The markdown render worker is its own file: worker threads load it by path (markup/pool.ts).
  entry: { index: 'src/index.ts', 'render-worker': 'src/markup/render-worker.ts' },
  format: ['esm'],
  target: 'node20',
  // Declarations are for publishing and take most of the build time: the start path skips them (build-if-stale).
  dts: process.env.REPOHOST_BUILD_DTS !== '0',
  sourcemap: true,
  clean: true,
});
