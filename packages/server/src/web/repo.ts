import { FastResponse } from 'srvx';
import { NotFoundError, NotSupportedError, toApiRepository, type ApiContentsResponse, type RepoAccess } from '@repohost/core';
import { pathEscape } from '../serve-file.js';
import { html, trustedHtml, type HtmlValue, type SafeHtml } from './html.js';
import { link, page, treeLink } from './layout.js';
import { highlighterOf } from './highlight.js';
import { mayRead, pageNumber, requireUnit, type Viewer } from './context.js';

/**
 * The repository's code pages: its home (description, README, the default branch's tree, branches and tags, clone
 * URLs), a file or folder at a branch, tag or commit, the raw bytes, the branch and tag lists, commits and one commit.
 */

type Repo = ReturnType<typeof toApiRepository>;
export type RefKind = 'branch' | 'tag' | 'commit';
const REF_KINDS = new Set<string>(['branch', 'tag', 'commit']);

/** Segments a branch or tag name may span in a path at most (git allows more; a page path that long is not one). */
const MAX_REF_SEGMENTS = 16;
/** Bytes of a file or diff shown on a page; past it the page says so and links the raw file. */
const MAX_SHOWN_BYTES = 1024 * 1024;
const MARKUP_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd', '.mkdn', '.mdwn', '.csv', '.tsv']);

export function repoApi(viewer: Viewer, access: RepoAccess): Repo {
  return toApiRepository(access, viewer.view);
}

/** `/{owner}/{repo}` as a link target, and paths under it. */
export function repoLink(viewer: Viewer, access: RepoAccess, ...rest: string[]): string {
  return link(viewer.host, access.owner.name, access.repo.name, ...rest);
}

type Tab = 'code' | 'issues' | 'pulls' | 'releases' | 'commits' | 'branches' | 'tags';

/** The repository's header: its name, badges, description and the tabs of its pages the viewer may open. */
export function repoHeader(viewer: Viewer, access: RepoAccess, repo: Repo, current: Tab): SafeHtml {
  const tab = (name: Tab, href: string, label: HtmlValue) =>
    html`<li><a href="${href}"${name === current ? html` aria-current="page"` : ''}>${label}</a></li>`;
  const tabs: SafeHtml[] = [];
  const code = repo.has_code && mayRead(access, 'repo.code');
  if (code) tabs.push(tab('code', repoLink(viewer, access), 'Code'));
  if (repo.internal_tracker && mayRead(access, 'repo.issues')) tabs.push(tab('issues', repoLink(viewer, access, 'issues'), html`Issues <span class="badge">${repo.open_issues_count}</span>`));
  if (repo.has_pull_requests && mayRead(access, 'repo.pulls')) tabs.push(tab('pulls', repoLink(viewer, access, 'pulls'), html`Pull requests <span class="badge">${repo.open_pr_counter}</span>`));
  if (repo.has_releases && mayRead(access, 'repo.releases')) tabs.push(tab('releases', repoLink(viewer, access, 'releases'), html`Releases <span class="badge">${repo.release_counter}</span>`));
  if (code && !repo.empty) tabs.push(tab('commits', repoLink(viewer, access, 'commits', 'branch', ...repo.default_branch.split('/')), 'Commits'));
  const badges: SafeHtml[] = [];
  if (repo.private) badges.push(html`<span class="badge">Private</span>`);
  if (repo.archived) badges.push(html`<span class="badge">Archived</span>`);
  if (repo.mirror) badges.push(html`<span class="badge">Mirror</span>`);
  if (repo.template) badges.push(html`<span class="badge">Template</span>`);
  const parent = (access as RepoAccess & { parent?: RepoAccess }).parent;
  const fork = parent ? html`<p class="meta">Forked from <a href="${link(viewer.host, parent.owner.name, parent.repo.name)}">${parent.owner.name}/${parent.repo.name}</a></p>` : '';
  return html`<div class="repo-header">
<h1><a href="${link(viewer.host, access.owner.name)}">${access.owner.name}</a><span class="sep">/</span><a href="${repoLink(viewer, access)}">${access.repo.name}</a> ${badges}</h1>
${fork}${repo.description ? html`<p>${repo.description}</p>` : ''}${repo.website ? html`<p>${website(repo.website)}</p>` : ''}
<nav aria-label="Repository"><ul class="tabs">${tabs}</ul></nav>
</div>`;
}

/** A website as a link only when it is http(s); anything else (`javascript:`) shows as text. */
export function website(url: string): SafeHtml {
  return /^https?:\/\//i.test(url) ? html`<a href="${url}" rel="nofollow noopener">${url}</a>` : html`${url}`;
}

function cloneUrls(viewer: Viewer, repo: Repo): SafeHtml {
  const ssh = viewer.host.settings.server.DISABLE_SSH ? '' : html`<label>SSH <input readonly value="${repo.ssh_url}"></label>`;
  return html`<div class="clone" role="group" aria-label="Clone">
<label>HTTPS <input readonly value="${repo.clone_url}"></label>
${ssh}
</div>`;
}

/** `/{owner}/{repo}`. */
export async function repoHome(viewer: Viewer, access: RepoAccess): Promise<Response> {
  const { host } = viewer;
  const repo = repoApi(viewer, access);
  const header = repoHeader(viewer, access, repo, 'code');
  const title = `${access.owner.name}/${access.repo.name}`;
  if (!repo.has_code || !mayRead(access, 'repo.code')) return page(host, 200, { title, viewer: viewer.user, header, body: '' });
  if (repo.empty) {
    return page(host, 200, { title, viewer: viewer.user, header, body: html`<p>This repository is empty.</p>${cloneUrls(viewer, repo)}` });
  }
  const branch = repo.default_branch;
  const [entries, branches, tags] = await Promise.all([
    host.contents.get(viewer.actor, access, '', branch),
    host.branches.list(viewer.actor, access, viewer.view, { page: 1, limit: 1 }),
    host.tags.list(viewer.actor, access, viewer.view, { page: 1, limit: 1 }),
  ]);
  const list = Array.isArray(entries) ? entries : [entries];
  const readme = list.find((e) => e.type === 'file' && /^readme(\.[a-z]{1,10})?$/i.test(e.name));
  const refs = html`<p class="meta">Branch <strong>${branch}</strong> · <a href="${repoLink(viewer, access, 'branches')}">${branches.total} ${branches.total === 1 ? 'branch' : 'branches'}</a> · <a href="${repoLink(viewer, access, 'tags')}">${tags.total} ${tags.total === 1 ? 'tag' : 'tags'}</a></p>`;
  const body = html`${refs}${cloneUrls(viewer, repo)}
${treeTable(viewer, access, 'branch', branch, '', list)}
${readme ? await readmeBox(viewer, access, 'branch', branch, readme) : ''}`;
  return page(host, 200, { title, viewer: viewer.user, header, body });
}

async function readmeBox(viewer: Viewer, access: RepoAccess, kind: RefKind, ref: string, entry: ApiContentsResponse): Promise<SafeHtml> {
  const file = await viewer.host.contents.get(viewer.actor, access, entry.path, ref);
  if (Array.isArray(file)) return html``;
  return html`<section class="box" aria-labelledby="readme"><div class="box-head"><h2 id="readme" class="sr-only">README</h2><span>${entry.name}</span></div>
<div class="box-body">${await fileBody(viewer, access, kind, ref, file)}</div></section>`;
}

function sortEntries(entries: ApiContentsResponse[]): ApiContentsResponse[] {
  return [...entries].sort((a, b) => (a.type === 'dir') !== (b.type === 'dir') ? (a.type === 'dir' ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

function treeTable(viewer: Viewer, access: RepoAccess, kind: RefKind, ref: string, path: string, entries: ApiContentsResponse[]): SafeHtml {
  const refPath = `${kind}/${treeLink(ref)}`;
  const base = repoLink(viewer, access);
  const rows = sortEntries(entries).map((entry) => {
    const name =
      entry.type === 'submodule'
        ? html`${entry.name} <span class="muted">(submodule${entry.submodule_git_url ? html` ${entry.submodule_git_url}` : ''})</span>`
        : html`<a href="${base}/src/${refPath}/${treeLink(entry.path)}">${entry.name}${entry.type === 'dir' ? '/' : ''}</a>`;
    const commit = entry.last_commit_sha ? html`<a href="${base}/commit/${entry.last_commit_sha}"><code>${entry.last_commit_sha.slice(0, 10)}</code></a>` : '';
    return html`<tr><td>${name}</td><td class="meta">${entry.type === 'dir' ? '' : entry.type === 'file' ? formatSize(entry.size) : entry.type}</td><td>${commit}</td></tr>`;
  });
  const up = path !== '' ? html`<tr><td colspan="3"><a href="${base}/src/${refPath}${path.includes('/') ? `/${treeLink(path.slice(0, path.lastIndexOf('/')))}` : ''}">..</a></td></tr>` : '';
  return html`<table class="list"><caption class="sr-only">Files</caption><thead><tr><th scope="col">Name</th><th scope="col">Size</th><th scope="col">Last commit</th></tr></thead><tbody>${up}${rows}</tbody></table>`;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** A file's content on a page: markup rendered by the markup domain (its sanitizer), other text escaped, binary not shown. */
async function fileBody(viewer: Viewer, access: RepoAccess, kind: RefKind, ref: string, file: ApiContentsResponse): Promise<SafeHtml> {
  const raw = repoLink(viewer, access, 'raw', kind, ...ref.split('/'), ...file.path.split('/'));
  if (file.type === 'symlink') return html`<p>Symbolic link to <code>${file.target ?? ''}</code>.</p>`;
  if (file.content === null) return html`<p>The file is too large to show here; <a href="${raw}">view it raw</a>.</p>`;
  const bytes = Buffer.from(file.content, 'base64');
  if (isBinary(bytes)) return html`<p>Binary file (${formatSize(file.size)}); <a href="${raw}">download it</a>.</p>`;
  const text = bytes.subarray(0, MAX_SHOWN_BYTES).toString('utf8');
  const cut = bytes.length > MAX_SHOWN_BYTES ? html`<p class="meta">Only the first ${formatSize(MAX_SHOWN_BYTES)} are shown; <a href="${raw}">view it raw</a>.</p>` : '';
  if (MARKUP_EXTENSIONS.has(extensionOf(file.path))) {
    const rendered = await viewer.host.markup.renderOrEscape(viewer.actor, {
      text,
      mode: 'file',
      context: `${access.owner.name}/${access.repo.name}`,
      branchPath: `${kind}/${ref}`,
      filePath: file.path,
    });
    return html`<div class="markup">${trustedHtml(rendered)}</div>${cut}`;
  }
  // Source in a language with a parser, within the bound: highlighted; anything else escaped as it is.
  const highlighted = await highlighterOf(viewer.host).highlight(text, extensionOf(file.path));
  return html`<pre class="code"><code>${highlighted ?? text}</code></pre>${cut}`;
}

/**
 * Splits `{ref…}/{path…}` of a `/src/{kind}/…` or `/raw/{kind}/…` path: a commit is the first segment; a branch or
 * tag is the shortest run of leading segments that names one (as Forgejo's web routes read it).
 */
async function splitRef(viewer: Viewer, access: RepoAccess, kind: RefKind, rest: string[]): Promise<{ ref: string; path: string }> {
  if (rest.length === 0 || rest[0] === '') throw new NotFoundError();
  if (kind === 'commit') return { ref: rest[0]!, path: rest.slice(1).join('/') };
  for (let i = 1; i <= Math.min(rest.length, MAX_REF_SEGMENTS); i++) {
    const name = rest.slice(0, i).join('/');
    const exists = kind === 'branch'
      ? await viewer.host.branches.get(viewer.actor, access, viewer.view, name).then(() => true, notFoundAsFalse)
      : await viewer.host.tags.get(viewer.actor, access, viewer.view, name).then(() => true, notFoundAsFalse);
    if (exists) return { ref: name, path: rest.slice(i).join('/') };
  }
  throw new NotFoundError();
}

function notFoundAsFalse(error: unknown): false {
  if (error instanceof NotFoundError) return false;
  throw error;
}

function breadcrumbs(viewer: Viewer, access: RepoAccess, kind: RefKind, ref: string, path: string): SafeHtml {
  const base = `${repoLink(viewer, access)}/src/${kind}/${treeLink(ref)}`;
  const parts = path === '' ? [] : path.split('/');
  const crumbs = parts.map((part, i) =>
    i === parts.length - 1 ? html` / <span aria-current="page">${part}</span>` : html` / <a href="${base}/${treeLink(parts.slice(0, i + 1).join('/'))}">${part}</a>`,
  );
  const label = kind === 'commit' ? ref.slice(0, 10) : ref;
  return html`<p class="meta"><span class="badge">${kind}</span> <a href="${base}">${label}</a>${crumbs}</p>`;
}

/** `/{owner}/{repo}/src/{branch|tag|commit}/{ref}/{path}`: a folder's entries or a file. */
export async function sourcePage(viewer: Viewer, access: RepoAccess, rest: string[]): Promise<Response> {
  requireUnit(access, 'repo.code');
  const kind = rest[0] ?? '';
  if (!REF_KINDS.has(kind)) throw new NotFoundError();
  const repo = repoApi(viewer, access);
  if (!repo.has_code || repo.empty) throw new NotFoundError();
  const { ref, path } = await splitRef(viewer, access, kind as RefKind, rest.slice(1));
  const found = await viewer.host.contents.get(viewer.actor, access, path, ref);
  const header = repoHeader(viewer, access, repo, 'code');
  const crumbs = breadcrumbs(viewer, access, kind as RefKind, ref, path);
  const title = `${path || ref} - ${access.owner.name}/${access.repo.name}`;
  if (Array.isArray(found)) {
    return page(viewer.host, 200, { title, viewer: viewer.user, header, body: html`${crumbs}${treeTable(viewer, access, kind as RefKind, ref, path, found)}` });
  }
  const raw = repoLink(viewer, access, 'raw', kind, ...ref.split('/'), ...found.path.split('/'));
  const body = html`${crumbs}<section class="box" aria-label="${found.name}"><div class="box-head"><span>${found.name} <span class="meta">${formatSize(found.size)}</span></span><a href="${raw}">Raw</a></div>
<div class="box-body">${await fileBody(viewer, access, kind as RefKind, ref, found)}</div></section>`;
  return page(viewer.host, 200, { title, viewer: viewer.user, header, body });
}

/**
 * `/{owner}/{repo}/raw/{branch|tag|commit}/{ref}/{path}` (and `/media/…`, which rendered markdown uses for images):
 * the bytes with the type the API's raw route serves them as (active content under a sandboxing policy), never as a page.
 */
export async function rawFile(viewer: Viewer, access: RepoAccess, rest: string[]): Promise<Response> {
  requireUnit(access, 'repo.code');
  const kind = rest[0] ?? '';
  if (!REF_KINDS.has(kind)) throw new NotFoundError();
  const { ref, path } = await splitRef(viewer, access, kind as RefKind, rest.slice(1));
  if (path === '') throw new NotFoundError();
  const file = await viewer.host.gitData.raw(viewer.actor, access, path, ref);
  const etag = `"${file.id}"`;
  const headers: Record<string, string> = {
    etag,
    'cache-control': 'private, max-age=300',
    'content-type': file.served.contentType,
    'x-content-type-options': 'nosniff',
    'content-disposition': `inline; filename*=UTF-8''${pathEscape(file.fileName)}`,
    // Whatever the file is, it runs nothing here.
    'content-security-policy': file.served.csp || "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  };
  const match = viewer.event.req.headers.get('if-none-match');
  const unchanged = match !== null && match.split(',').some((tag) => tag.trim() === etag);
  if (!unchanged) headers['content-length'] = String(file.size);
  if (unchanged || viewer.event.req.method === 'HEAD') {
    // Headers only: a streamed blob's git process is stopped rather than read.
    if (!Buffer.isBuffer(file.body)) file.body.destroy();
    return new FastResponse(null, { status: unchanged ? 304 : 200, headers });
  }
  const body = Buffer.isBuffer(file.body) ? new Uint8Array(file.body.buffer, file.body.byteOffset, file.body.byteLength) : (file.body as unknown as ReadableStream);
  return new FastResponse(body, { status: 200, headers });
}

/** `/{owner}/{repo}/branches` and `/tags`: the refs, a page at a time, each linking to its tree. */
export async function refsPage(viewer: Viewer, access: RepoAccess, which: 'branches' | 'tags'): Promise<Response> {
  requireUnit(access, 'repo.code');
  const repo = repoApi(viewer, access);
  if (!repo.has_code) throw new NotFoundError();
  const current = pageNumber(viewer.query);
  const paging = { page: current, limit: 50 };
  const items: { name: string; sha: string }[] = [];
  let total: number;
  if (which === 'branches') {
    const listed = await viewer.host.branches.list(viewer.actor, access, viewer.view, paging);
    for (const b of listed.items) items.push({ name: b.name, sha: b.commit.id });
    total = listed.total;
  } else {
    const listed = await viewer.host.tags.list(viewer.actor, access, viewer.view, paging);
    for (const t of listed.items) items.push({ name: t.name, sha: t.commit.sha });
    total = listed.total;
  }
  const kind = which === 'branches' ? 'branch' : 'tag';
  const rows = items.map(
    (item) => html`<li><a href="${repoLink(viewer, access)}/src/${kind}/${treeLink(item.name)}">${item.name}</a> <a class="meta" href="${repoLink(viewer, access, 'commit', item.sha)}"><code>${item.sha.slice(0, 10)}</code></a></li>`,
  );
  const title = which === 'branches' ? 'Branches' : 'Tags';
  const body = html`<h2>${title} <span class="badge">${total}</span></h2>${rows.length ? html`<ul class="items">${rows}</ul>` : html`<p>None.</p>`}${pager(viewer, current, 50, total)}`;
  return page(viewer.host, 200, { title: `${title} - ${access.owner.name}/${access.repo.name}`, viewer: viewer.user, header: repoHeader(viewer, access, repo, which), body });
}

/** Previous and next links of a list, keeping the page's other query parameters. */
export function pager(viewer: Viewer, current: number, limit: number, total: number): SafeHtml {
  const last = Math.max(1, Math.ceil(total / limit));
  if (last <= 1) return html``;
  const at = (n: number) => {
    const query = new URLSearchParams(viewer.query);
    query.set('page', String(n));
    return `${viewer.event.url.pathname}?${query.toString()}`;
  };
  return html`<nav class="pager" aria-label="Pages">${current > 1 ? html`<a href="${at(current - 1)}" rel="prev">Previous</a>` : ''}<span>Page ${current} of ${last}</span>${current < last ? html`<a href="${at(current + 1)}" rel="next">Next</a>` : ''}</nav>`;
}

/** `/{owner}/{repo}/commits/{branch|tag|commit}/{ref}`: the history, a page at a time. */
export async function commitsPage(viewer: Viewer, access: RepoAccess, rest: string[]): Promise<Response> {
  requireUnit(access, 'repo.code');
  const repo = repoApi(viewer, access);
  if (!repo.has_code || repo.empty) throw new NotFoundError();
  let ref = repo.default_branch;
  let kind: RefKind = 'branch';
  if (rest.length > 0) {
    if (!REF_KINDS.has(rest[0]!)) throw new NotFoundError();
    kind = rest[0] as RefKind;
    ref = (await splitRef(viewer, access, kind, rest.slice(1))).ref;
  }
  const current = pageNumber(viewer.query);
  const revision = kind === 'branch' ? `refs/heads/${ref}` : kind === 'tag' ? `refs/tags/${ref}` : ref;
  const listed = await viewer.host.commits.list(viewer.actor, access, { sha: revision, stat: false, verification: false, files: false }, { page: current, limit: 30 });
  const rows = listed.items.map(({ commit }) => {
    const subject = commit.message.split('\n', 1)[0] ?? '';
    return html`<li><a href="${repoLink(viewer, access, 'commit', commit.id)}">${subject || '(no message)'}</a><br><span class="meta"><code>${commit.id.slice(0, 10)}</code> · ${commit.authorName} · <time datetime="${commit.authorTime}">${commit.authorTime.slice(0, 10)}</time></span></li>`;
  });
  const body = html`<h2>Commits on ${ref} <span class="badge">${listed.total}</span></h2><ul class="items">${rows}</ul>${pager(viewer, current, 30, listed.total)}`;
  return page(viewer.host, 200, { title: `Commits - ${access.owner.name}/${access.repo.name}`, viewer: viewer.user, header: repoHeader(viewer, access, repo, 'commits'), body });
}

/** `/{owner}/{repo}/commit/{sha}`: its message, people, parents and diff. */
export async function commitPage(viewer: Viewer, access: RepoAccess, rest: string[]): Promise<Response> {
  requireUnit(access, 'repo.code');
  const repo = repoApi(viewer, access);
  if (!repo.has_code || repo.empty || rest.length !== 1 || !/^[0-9a-f]{4,64}$/i.test(rest[0]!)) throw new NotFoundError();
  const view = await viewer.host.commits.get(viewer.actor, access, rest[0]!, { stat: false, verification: false, files: false });
  const { commit } = view;
  const diff = await diffOrNothing(() => viewer.host.commits.diff(viewer.actor, access, commit.id, 'diff'));
  const [subject, ...more] = commit.message.split('\n');
  const parents = commit.parents.map((p) => html` <a href="${repoLink(viewer, access, 'commit', p)}"><code>${p.slice(0, 10)}</code></a>`);
  const body = html`<h2>${subject ?? ''}</h2>${more.join('\n').trim() ? html`<pre class="code">${more.join('\n').trim()}</pre>` : ''}
<p class="meta">${commit.authorName} authored <time datetime="${commit.authorTime}">${commit.authorTime.slice(0, 10)}</time>${commit.committerName !== commit.authorName ? html`, ${commit.committerName} committed` : ''}</p>
<p class="meta">Commit <code>${commit.id}</code>${parents.length ? html` · Parents${parents}` : ''} · <a href="${repoLink(viewer, access)}/src/commit/${commit.id}">Browse files</a></p>
${diffBox(diff)}`;
  return page(viewer.host, 200, { title: `${subject ?? commit.id} - ${access.owner.name}/${access.repo.name}`, viewer: viewer.user, header: repoHeader(viewer, access, repo, 'commits'), body });
}

/** What `make` gives, or undefined where the git backend cannot do it (the in-memory backend: the page says so). */
export async function orNothing<T>(make: () => Promise<T>): Promise<T | undefined> {
  try {
    return await make();
  } catch (error) {
    if (error instanceof NotSupportedError) return undefined;
    throw error;
  }
}

/** A diff to show, or undefined where the git backend cannot make one. */
export const diffOrNothing: (make: () => Promise<Buffer>) => Promise<Buffer | undefined> = orNothing;

/** A unified diff, escaped line by line, its added and removed lines marked. */
export function diffBox(diff: Buffer | undefined): SafeHtml {
  if (diff === undefined) return html`<p class="meta">This server's git backend shows no diffs.</p>`;
  if (diff.length === 0) return html`<p>No changes.</p>`;
  const text = diff.subarray(0, MAX_SHOWN_BYTES).toString('utf8');
  const lines = text.split('\n').map((line) => {
    const cls = line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : line.startsWith('@@') ? 'hunk' : '';
    return cls ? html`<span class="${cls}">${line}</span>\n` : html`${line}\n`;
  });
  const cut = diff.length > MAX_SHOWN_BYTES ? html`<p class="meta">The diff is too large to show whole.</p>` : '';
  return html`<section class="box diff" aria-label="Changes"><div class="box-body"><pre>${lines}</pre></div></section>${cut}`;
}
