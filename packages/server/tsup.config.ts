import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/testing.ts'],
  format: ['esm'],
  target: 'node20',
  // Declarations are for publishing and take most of the build time: the start path skips them (build-if-stale).
  dts: process.env.REPOHOST_BUILD_DTS !== '0',
  sourcemap: true,
  clean: true,
});
