import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // Browsers, Deno and Bun as well as Node 20: nothing of Node's is used.
  target: 'es2022',
  platform: 'neutral',
  dts: process.env.REPOHOST_BUILD_DTS !== '0',
  sourcemap: true,
  clean: true,
  // Unbundled output keeps each module (the generated operations apart from the client class) for bundlers to shake.
  minifySyntax: true,
});
