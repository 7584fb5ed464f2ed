import { readFileSync } from 'node:fs';

/** The version of this package (package.json is one folder up from both src/ and dist/). */
export function cliVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
