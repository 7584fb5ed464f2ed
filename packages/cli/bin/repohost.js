#!/usr/bin/env node
// The `repohost` bin. npm links a bin into node_modules/.bin only if its file exists at install time, and dist/
// is built after `npm ci`; this committed file is that target, so `npx repohost` in a checkout finds our command
// instead of fetching an unrelated package from the registry. It runs the built binary.
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('repohost: not built yet; run "npm run build" in the RepoHost checkout first\n');
  process.exit(1);
}
await import(main.href);
