/**
 * A repository with something on every page, made through the API as a client would: used by the web pages' tests
 * and by `npm run screenshots`. Every name and text a user controls carries markup that must show as text.
 */
import { createToken, createUser, type TestServer } from '@repohost/test-support';

export const HOSTILE = '<script>alert("x")</script>';

export interface Seeded {
  owner: string;
  repo: string;
  privateRepo: string;
  org: string;
  token: string;
  issue: number;
  pull: number;
}

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A file past what the raw route answers from memory (64 KiB), so it streams. */
export const BIG = Array.from({ length: 4000 }, (_, i) => `line ${i} <tag> & more\n`).join('');

function b64(text: string): string {
  return Buffer.from(text).toString('base64');
}

export async function seedRepository(s: TestServer, owner = 'alice'): Promise<Seeded> {
  await createUser(s.host, owner);
  const token = await createToken(s.host, owner);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await s.fetch(`/api/v1${path}`, {
      method,
      headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : ((await res.json()) as Record<string, any>);
  };
  const repo = 'demo';
  await call('POST', '/user/repos', { name: repo, description: `A demo ${HOSTILE} repository`, website: 'https://example.com/', auto_init: false, default_branch: 'main' });
  const readme = `# Demo\n\nA *small* repository. ${HOSTILE}\n\n![logo](logo.png)\n\n<img src="/${owner}/demo/raw/branch/main/logo.png" alt="again" onerror="alert(1)">\n\n- [the guide](docs/guide.md)\n- [source](src/main.ts)\n\n\`\`\`js\nconsole.log("hi");\n\`\`\`\n`;
  await call('POST', `/repos/${owner}/${repo}/contents`, {
    message: 'Initial commit',
    branch: 'main',
    new_branch: 'main',
    files: [
      { operation: 'create', path: 'README.md', content: b64(readme) },
      { operation: 'create', path: 'docs/guide.md', content: b64(`# Guide\n\nSee the [readme](../README.md).\n`) },
      { operation: 'create', path: 'src/main.ts', content: b64(`const tag = "<script>alert('code')</script>";\nexport function hello(name: string): string {\n  return \`hello \${name}\`;\n}\n`) },
      { operation: 'create', path: 'src/a <b> & c.txt', content: b64('hostile name\n') },
      { operation: 'create', path: 'logo.png', content: PNG },
      { operation: 'create', path: 'data/big.txt', content: b64(BIG) },
      { operation: 'create', path: 'logo.bin', content: Buffer.from([0, 1, 2, 3, 0, 255]).toString('base64') },
    ],
  });
  await call('POST', `/repos/${owner}/${repo}/branches`, { new_branch_name: 'feature/x', old_branch_name: 'main' });
  await call('POST', `/repos/${owner}/${repo}/contents`, {
    message: `Add a feature ${HOSTILE}`,
    branch: 'feature/x',
    files: [
      { operation: 'update', path: 'src/main.ts', content: b64(`export function hello(name: string): string {\n  return \`hello, \${name}!\`;\n}\n`), sha: (await call('GET', `/repos/${owner}/${repo}/contents/src/main.ts?ref=main`))!.sha },
      { operation: 'create', path: 'src/feature.ts', content: b64('export const feature = true;\n') },
    ],
  });
  await call('POST', `/repos/${owner}/${repo}/tags`, { tag_name: 'v1.0', target: 'main', message: 'First' });
  await call('POST', `/repos/${owner}/${repo}/releases`, { tag_name: 'v1.0', name: `First ${HOSTILE}`, body: `Notes with **bold** and ${HOSTILE}` });
  const issue = await call('POST', `/repos/${owner}/${repo}/issues`, { title: `Broken ${HOSTILE} title`, body: `The body ${HOSTILE} with *markdown* and <a href="javascript:alert(1)">a link</a>.` });
  await call('POST', `/repos/${owner}/${repo}/issues/${issue!.number}/comments`, { body: `A comment ${HOSTILE} **bold**` });
  // Events on its timeline: a label, closed and reopened.
  const label = await call('POST', `/repos/${owner}/${repo}/labels`, { name: `bug ${HOSTILE}`, color: '#ee0701' });
  await call('POST', `/repos/${owner}/${repo}/issues/${issue!.number}/labels`, { labels: [label!.id] });
  await call('PATCH', `/repos/${owner}/${repo}/issues/${issue!.number}`, { state: 'closed' });
  await call('PATCH', `/repos/${owner}/${repo}/issues/${issue!.number}`, { state: 'open' });
  await call('POST', `/repos/${owner}/${repo}/issues`, { title: 'A closed one', body: '', state: 'closed' }).then((closed) =>
    call('PATCH', `/repos/${owner}/${repo}/issues/${closed!.number}`, { state: 'closed' }),
  );
  const pull = await call('POST', `/repos/${owner}/${repo}/pulls`, { title: `Feature ${HOSTILE}`, body: `Adds a feature. ${HOSTILE}`, head: 'feature/x', base: 'main' });
  await call('POST', `/repos/${owner}/${repo}/issues/${pull!.number}/comments`, { body: 'Looks good to me.' });
  const privateRepo = 'secret';
  await call('POST', '/user/repos', { name: privateRepo, private: true, auto_init: true });
  const org = `${owner}-org`;
  await call('POST', '/orgs', { username: org, full_name: `Org ${HOSTILE}`, description: `About ${HOSTILE}` });
  await call('POST', `/orgs/${org}/repos`, { name: 'tools', auto_init: true });
  return { owner, repo, privateRepo, org, token, issue: issue!.number as number, pull: pull!.number as number };
}
