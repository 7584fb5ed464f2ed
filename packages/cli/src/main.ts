#!/usr/bin/env node
import { runCli } from './index.js';

// A reader that stops early (`repohost admin user list | head -1`) closes the pipe: its choice, not our failure, so
// leave quietly with the exit code decided so far rather than die on an unhandled EPIPE with a stack trace.
// Any other stream error is rethrown, which crashes as an unhandled 'error' event did before.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
});
process.exitCode = code;
