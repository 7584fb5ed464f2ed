import type { H3, H3Event } from 'h3';
import { NotFoundError, type RepoHost } from '@repohost/core';
import { registerOwnAssets } from './assets.js';
import { pathSegments, servePage, loadRepo, type Viewer } from './context.js';
import { html } from './html.js';
import { notFoundPage, page, rootPath } from './layout.js';
import { issueList, issuePage } from './issues.js';
import { profilePage, releasesPage } from './profile.js';
import { commitPage, commitsPage, rawFile, refsPage, repoHome, sourcePage } from './repo.js';

export { registerSwaggerUi } from './swagger.js';
export { html, escapeHtml, trustedHtml, SafeHtml } from './html.js';

/**
 * The read-only pages behind the API's `html_url`s: `/`, `/{username}`, `/{owner}/{repo}` and the pages under it.
 * Mounted after every other route, whose static paths (`/api/…`, `/assets/…`, `/{owner}/{repo}/info/refs`, …) the
 * router matches before these parameters.
 */
export function registerWebPages(app: H3, host: RepoHost): void {
  registerOwnAssets(app, () => notFoundPage(host, undefined));
  app.get('/', (event) => servePage(host, event, (viewer) => homePage(viewer)));
  app.get('/:owner', (event) => servePage(host, event, (viewer) => profilePage(viewer, segment(event, 0))));
  app.get('/:owner/:repo', (event) =>
    servePage(host, event, async (viewer) => repoHome(viewer, await loadRepo(viewer, segment(event, 0), segment(event, 1)))),
  );
  app.get('/:owner/:repo/**', (event) => servePage(host, event, (viewer) => repoSubpage(viewer, event)));
}

function segment(event: H3Event, index: number): string {
  const value = pathSegments(event)[index];
  if (value === undefined || value === '') throw new NotFoundError();
  return value;
}

/** The pages under a repository, by their first segment; anything else is the 404 page. */
async function repoSubpage(viewer: Viewer, event: H3Event): Promise<Response> {
  const segments = pathSegments(event);
  // A trailing slash names the same page.
  if (segments.length > 3 && segments[segments.length - 1] === '') segments.pop();
  const [owner, name, what, ...rest] = segments as [string, string, string, ...string[]];
  if (!owner || !name) throw new NotFoundError();
  const access = await loadRepo(viewer, owner, name);
  switch (what) {
    case '':
      if (rest.length === 0) return repoHome(viewer, access);
      break;
    case 'src':
      return sourcePage(viewer, access, rest);
    case 'raw':
    case 'media':
      return rawFile(viewer, access, rest);
    case 'branches':
    case 'tags':
      if (rest.length === 0) return refsPage(viewer, access, what);
      break;
    case 'commits':
      return commitsPage(viewer, access, rest);
    case 'commit':
      return commitPage(viewer, access, rest);
    case 'issues':
    case 'pulls':
      if (rest.length === 0) return issueList(viewer, access, what);
      if (rest.length === 1) return issuePage(viewer, access, what, rest[0]!);
      break;
    case 'releases':
      if (rest.length === 0) return releasesPage(viewer, access);
      if (rest[0] === 'tag' && rest.length > 1) return releasesPage(viewer, access, rest.slice(1).join('/'));
      break;
  }
  throw new NotFoundError();
}

async function homePage(viewer: Viewer): Promise<Response> {
  const { host } = viewer;
  const root = rootPath(host);
  const body = html`<h1>Welcome</h1>
${viewer.user ? html`<p>Your profile: <a href="${root}${encodeURIComponent(viewer.user.name)}">${viewer.user.name}</a>.</p>` : ''}
${host.settings.api.ENABLE_SWAGGER ? html`<p>The API is documented at <a href="${root}api/swagger">API documentation</a>.</p>` : ''}`;
  return page(host, 200, { title: 'Home', viewer: viewer.user, body });
}
