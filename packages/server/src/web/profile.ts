import { NotFoundError, isOrganization, toApiRelease, type RepoAccess } from '@repohost/core';
import { html, trustedHtml, type SafeHtml } from './html.js';
import { link, page } from './layout.js';
import { pageNumber, requireUnit, type Viewer } from './context.js';
import { pager, repoApi, repoHeader, repoLink, website } from './repo.js';

const PAGE_SIZE = 30;

/** `/{username}`: a user's or an organization's profile and the repositories the viewer may see (the API's lists). */
export async function profilePage(viewer: Viewer, name: string): Promise<Response> {
  const { host } = viewer;
  // What the API resolves (private and limited accounts for those who may see them); organizations too.
  const account = await host.users.resolve(viewer.actor, name);
  const current = pageNumber(viewer.query);
  const repos = await host.repos.listOwnedBy(viewer.actor, account, { page: current, limit: PAGE_SIZE });
  const org = isOrganization(account);
  const rows = repos.items.map((access) => {
    const repo = repoApi(viewer, access);
    return html`<li><a href="${link(host, account.name, access.repo.name)}">${access.repo.name}</a>${repo.private ? html` <span class="badge">Private</span>` : ''}${repo.fork ? html` <span class="badge">Fork</span>` : ''}${repo.description ? html`<br><span class="meta">${repo.description}</span>` : ''}</li>`;
  });
  const details: SafeHtml[] = [];
  if (account.full_name) details.push(html`<p><strong>${account.full_name}</strong></p>`);
  if (account.description) details.push(html`<p>${account.description}</p>`);
  if (account.location) details.push(html`<p class="meta">${account.location}</p>`);
  if (account.website) details.push(html`<p>${website(account.website)}</p>`);
  const body = html`<h1>${account.name} ${org ? html`<span class="badge">Organization</span>` : ''}</h1>${details}
<h2>Repositories <span class="badge">${repos.total}</span></h2>
${rows.length ? html`<ul class="items">${rows}</ul>` : html`<p>No repositories to show.</p>`}${pager(viewer, current, PAGE_SIZE, repos.total)}`;
  return page(host, 200, { title: account.name, viewer: viewer.user, body });
}

/** `/{owner}/{repo}/releases` and `/releases/tag/{tag}`: releases with their notes (rendered) and assets. */
export async function releasesPage(viewer: Viewer, access: RepoAccess, tag?: string): Promise<Response> {
  requireUnit(access, 'repo.releases');
  const repo = repoApi(viewer, access);
  if (!repo.has_releases) throw new NotFoundError();
  const current = pageNumber(viewer.query);
  let shown;
  let total: number;
  if (tag === undefined) {
    const listed = await viewer.host.releases.list(viewer.actor, access, {}, { page: current, limit: 10 });
    shown = listed.items;
    total = listed.total;
  } else {
    const release = await viewer.host.releases.resolveByTag(viewer.actor, access, tag);
    const details = await viewer.host.releases.detailsOf(access, release);
    // A draft is its writers' only, as the API's list leaves it out for others.
    if (details.release.is_draft && !(await canSeeDrafts(viewer, access))) throw new NotFoundError();
    shown = [details];
    total = 1;
  }
  const items: SafeHtml[] = [];
  for (const details of shown) {
    const release = toApiRelease(details, viewer.view);
    const notes = release.body
      ? trustedHtml(await viewer.host.markup.renderOrEscape(viewer.actor, { text: release.body, mode: 'comment', context: `${access.owner.name}/${access.repo.name}` }))
      : html``;
    const assets = release.assets.map((a) => html`<li><a href="${a.browser_download_url}">${a.name}</a> <span class="meta">${a.size} bytes</span></li>`);
    const flags = html`${release.draft ? html` <span class="badge">Draft</span>` : ''}${release.prerelease ? html` <span class="badge">Pre-release</span>` : ''}`;
    items.push(html`<article class="comment" id="release-${release.id}"><header><a href="${repoLink(viewer, access, 'releases', 'tag', ...release.tag_name.split('/'))}"><strong>${release.name || release.tag_name}</strong></a>${flags}
<span class="meta"> · tag <code>${release.tag_name}</code>${release.published_at ? html` · <time datetime="${release.published_at}">${release.published_at.slice(0, 10)}</time>` : ''}</span></header>
<div class="markup">${notes}</div>${assets.length ? html`<div class="box-body"><h3>Assets</h3><ul>${assets}</ul></div>` : ''}</article>`);
  }
  const body = html`<h2>Releases <span class="badge">${tag === undefined ? total : repo.release_counter}</span></h2>${items.length ? items : html`<p>No releases yet.</p>`}${tag === undefined ? pager(viewer, current, 10, total) : ''}`;
  return page(viewer.host, 200, { title: `Releases - ${access.owner.name}/${access.repo.name}`, viewer: viewer.user, header: repoHeader(viewer, access, repo, 'releases'), body });
}

async function canSeeDrafts(viewer: Viewer, access: RepoAccess): Promise<boolean> {
  try {
    viewer.host.releases.assertWriter(viewer.actor, access);
    return true;
  } catch {
    return false;
  }
}
