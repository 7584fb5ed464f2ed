/**
 * examples/test-server.ts used the way a test uses it: start a forge, call its API as the admin, stop it.
 *
 * Run it with `npm run example -- test-server-demo` (builds the packages first if they are stale).
 */
import { startForgeForTests } from './test-server.js';

const forge = await startForgeForTests();
try {
  console.log('forge for tests at', forge.url);
  const response = await fetch(`${forge.url}api/v1/user`, { headers: { Authorization: `token ${forge.adminToken}` } });
  const me = (await response.json()) as { login: string; is_admin: boolean };
  console.log('GET /api/v1/user →', response.status, me.login, me.is_admin ? '(site admin)' : '');
} finally {
  // Always stopped, so a failing test leaves no server or temporary folder behind.
  await forge.stop();
}
