import { defineConfig } from 'tsup';

export default defineConfig({
  // The markdown render worker is its own file: worker threads load it by path (markup/pool.ts).
  entry: { index: 'src/index.ts', 'render-worker': 'src/markup/render-worker.ts' },
  format: ['esm'],
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
});
