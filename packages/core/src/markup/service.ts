import { createHash } from 'node:crypto';
import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { canSeeUser } from '../access/index.js';
import { PayloadTooLargeError, UnavailableError, ValidationError } from '../errors.js';
import { RenderCache } from './cache.js';
import { fileRenderer, renderDelimited, renderPlainText, type FileRenderer } from './files.js';
import { joinUrl, type LinkBase } from './links.js';
import { mentionCandidates } from './mentions.js';
import { trimEnd } from '../text.js';
import { RenderPool } from './pool.js';
import { MARKUP_MODES, type MarkdownOption, type MarkupMode, type MarkupOption } from './schemas.js';
import { UsersPort } from '../users/index.js';
import type { ForgeSyntaxOptions } from './forge-syntax.js';

/** What to render, and where it lives. */
export interface RenderOptions {
  text: string;
  mode: MarkupMode;
  /**
   * What relative links resolve against: a URL, or a path under ROOT_URL (`owner/repo`, `/owner/repo/src/…`).
   * When it names a repository (`owner/repo/…`), `#123` and commit SHAs link into it.
   */
  context?: string | undefined;
  /** `branch/main`, `commit/<sha>`: relative links go to `src/<branchPath>/…`, images to `media/<branchPath>/…`. */
  branchPath?: string | undefined;
  /** A wiki page: relative links go to the wiki, `[[Page]]` to wiki pages. */
  wiki?: boolean | undefined;
  /** `file` mode: the file's path, whose extension picks the renderer and whose folder relative links start from. */
  filePath?: string | undefined;
}

/** Documents kept rendered, and the bytes they may hold. */
const CACHE_ENTRIES = 2000;
const CACHE_BYTES = 64 * 1024 * 1024;
/** Distinct `@names` one render looks up at most; further ones stay text. */
const MAX_MENTION_LOOKUPS = 256;

/** How each kind of render reads markdown. */
interface Flavor {
  forgeExtensions: boolean;
  hardBreaks: boolean;
  /** `<br/>` (rendered markup) or `<br>` (Forgejo's raw markdown mode). */
  xhtml: boolean;
  /** `#123` links without a repository in the context (into the context itself). */
  issuesWithoutRepo: boolean;
}

const FLAVORS: Record<'comment' | 'gfm' | 'markdown', Flavor> = {
  comment: { forgeExtensions: true, hardBreaks: true, xhtml: true, issuesWithoutRepo: true },
  gfm: { forgeExtensions: true, hardBreaks: false, xhtml: true, issuesWithoutRepo: false },
  markdown: { forgeExtensions: false, hardBreaks: true, xhtml: false, issuesWithoutRepo: false },
};

/**
 * Markdown and markup rendering: `/markdown`, `/markup`, and every README, issue body and comment. Output is
 * sanitized HTML. Renders are cached by content and options; `@mentions` are looked up in one query per render.
 */
export class MarkupService {
  private readonly cache = new RenderCache(CACHE_ENTRIES, CACHE_BYTES);
  private pool: RenderPool | undefined;

  constructor(private readonly ctx: CoreContext) {}

  /** `POST /markdown`: modes `comment` and `gfm`; anything else renders as raw markdown, as Forgejo does. */
  renderMarkdownOption(actor: Actor, option: MarkdownOption): Promise<string> {
    const mode = option.Mode === 'comment' || option.Mode === 'gfm' ? option.Mode : 'markdown';
    return this.render(actor, { text: option.Text ?? '', mode, context: option.Context, wiki: option.Wiki });
  }

  /** `POST /markup`: one of `comment`, `gfm`, `markdown`, `file`; another mode is a 422. */
  renderMarkupOption(actor: Actor, option: MarkupOption): Promise<string> {
    const text = option.Text ?? '';
    if (text === '') return Promise.resolve('');
    const mode = MARKUP_MODES.find((m) => m === option.Mode);
    if (!mode) return Promise.reject(new ValidationError('', `Unknown mode: ${option.Mode ?? ''}`));
    return this.render(actor, { text, mode, context: option.Context, branchPath: option.BranchPath, wiki: option.Wiki, filePath: option.FilePath });
  }

  /**
   * Renders a text to sanitized HTML. Markdown renders in the worker pool within `[markdown] RENDER_TIMEOUT`;
   * a text past `MAX_RENDER_SIZE`, too slow or too deep to render is a ValidationError, a full pool an
   * UnavailableError.
   */
  async render(actor: Actor, options: RenderOptions): Promise<string> {
    if (!MARKUP_MODES.includes(options.mode)) throw new ValidationError('Mode', `Unknown mode: ${String(options.mode)}`);
    const text = options.text;
    if (text === '') return '';
    const limit = this.ctx.settings.markdown.MAX_RENDER_SIZE;
    if (limit >= 0 && Buffer.byteLength(text) > limit) throw new PayloadTooLargeError(`the text is larger than the ${limit} bytes a render takes ([markdown] MAX_RENDER_SIZE)`);
    let renderer: FileRenderer = 'markdown';
    if (options.mode === 'file') renderer = fileRenderer(options.filePath ?? '');
    if (renderer !== 'markdown') return this.renderFile(renderer, text);
    const flavor = FLAVORS[options.mode === 'file' ? 'gfm' : options.mode];
    const key = cacheKey(options, text);
    const cached = this.cache.get(key);
    if (cached) {
      const variant = await this.mentionable(actor, cached.mentions);
      const html = cached.variants.get(variantKey(variant));
      if (html !== undefined) return html;
    }
    // Mentions are looked up before the render (the worker has no database): every name the text could mention,
    // a superset of what the parser finds; the worker reports the real ones, which key the cached variant.
    const candidates = flavor.forgeExtensions ? mentionCandidates(text, MAX_MENTION_LOOKUPS) : [];
    const mentionable = await this.mentionable(actor, candidates);
    const { html, mentions } = await this.renderPool.render({
      text,
      withMentions: flavor.forgeExtensions,
      xhtml: flavor.xhtml,
      options: { ...this.syntaxOptions(options, flavor), mentionable },
    });
    const linked = new Set(mentions.filter((name) => mentionable.has(name)));
    this.cache.put(key, mentions, variantKey(linked), html);
    return html;
  }

  /**
   * Renders stored text (a README, an issue body, a comment) for display: what cannot be rendered within the
   * budget or the size limit shows as escaped text instead of failing the page.
   */
  async renderOrEscape(actor: Actor, options: RenderOptions): Promise<string> {
    try {
      return await this.render(actor, options);
    } catch (error) {
      if (error instanceof ValidationError || error instanceof PayloadTooLargeError || error instanceof UnavailableError) return renderPlainText(options.text);
      throw error;
    }
  }

  /** Stops the render workers (the host is closing). */
  close(): Promise<void> {
    return this.pool?.close() ?? Promise.resolve();
  }

  private get renderPool(): RenderPool {
    const settings = this.ctx.settings.markdown;
    return (this.pool ??= new RenderPool({ workers: settings.RENDER_WORKERS, budgetMs: Math.max(1, settings.RENDER_TIMEOUT) * 1000 }));
  }

  private renderFile(renderer: Exclude<FileRenderer, 'markdown'>, text: string): string {
    if (renderer === 'csv') return renderDelimited(text, ',');
    if (renderer === 'tsv') return renderDelimited(text, '\t');
    return renderPlainText(text);
  }

  /** Which of the mentioned names are accounts the actor may see: one query, none when nobody is mentioned. */
  private async mentionable(actor: Actor, names: readonly string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const users = await this.ctx.port(UsersPort).byLowerNames(names.slice(0, MAX_MENTION_LOOKUPS));
    return new Set(users.filter((u) => canSeeUser(actor, u)).map((u) => u.lower_name));
  }

  private syntaxOptions(options: RenderOptions, flavor: Flavor): Omit<ForgeSyntaxOptions, 'mentionable' | 'source'> {
    const appUrl = this.ctx.settings.server.ROOT_URL;
    const raw = options.mode === 'markdown';
    const base = contextBase(appUrl, options.context ?? '', raw);
    const filePath = options.mode === 'file' ? (options.filePath ?? '') : '';
    const treePath = filePath.includes('/') ? filePath.slice(0, filePath.lastIndexOf('/')) : '';
    const links: LinkBase = (!raw && !options.branchPath && !options.wiki && sourceTreeLinks(appUrl, base, treePath)) || {
      base,
      branchPath: options.branchPath ?? '',
      treePath,
      wiki: options.wiki === true,
    };
    const repoUrl = repositoryUrl(appUrl, base);
    const issueBase = repoUrl ?? (flavor.issuesWithoutRepo && base !== '' ? base : undefined);
    return { links, appUrl, repoUrl, issueBase, forgeExtensions: flavor.forgeExtensions, hardBreaks: flavor.hardBreaks };
  }
}

function variantKey(names: ReadonlySet<string>): string {
  return names.size === 0 ? '' : [...names].sort().join(',');
}

function cacheKey(options: RenderOptions, text: string): string {
  const hash = createHash('sha256').update(text).digest('base64');
  return [options.mode, options.wiki ? 1 : 0, options.context ?? '', options.branchPath ?? '', options.mode === 'file' ? (options.filePath ?? '') : '', hash].join('\0');
}

/**
 * The base URL of relative links, as Forgejo derives it from `Context`: a URL as it is; a path joined to ROOT_URL
 * (except in raw markdown mode, which takes it as it is); nothing for an empty context (root-relative links).
 */
function contextBase(appUrl: string, context: string, raw: boolean): string {
  const trimmed = trimEnd(context, '/');
  if (trimmed === '' || /^https?:\/\//i.test(trimmed) || raw) return trimmed;
  return joinUrl(appUrl, trimmed);
}

/**
 * A context naming a place in a repository's tree (`owner/repo/src/branch/main/docs`, as Gitea's clients send it
 * when previewing a file) read as Gitea reads it: the repository as the base, `branch/main` as the ref, and the
 * file's folder taken off its end, so relative images go to `media/branch/main/…` and links to `src/…`.
 */
function sourceTreeLinks(appUrl: string, base: string, treePath: string): LinkBase | undefined {
  if (!base.startsWith(appUrl)) return undefined;
  const rest = base.slice(appUrl.length);
  const parts = rest.split('/');
  if (parts.length < 5 || parts[2] !== 'src' || !['branch', 'commit', 'tag'].includes(parts[3]!) || !parts[0] || !parts[1]) return undefined;
  let refPath = parts.slice(3).join('/');
  if (treePath !== '' && refPath.endsWith(`/${treePath}`)) refPath = refPath.slice(0, -treePath.length - 1);
  return { base: `${appUrl}${parts[0]}/${parts[1]}`, branchPath: refPath, treePath, wiki: false };
}

/** The repository a base URL under ROOT_URL names (`<root>/owner/repo/…`), as its web URL. */
function repositoryUrl(appUrl: string, base: string): string | undefined {
  if (!base.startsWith(appUrl)) return undefined;
  const segments = base.slice(appUrl.length).split('/');
  const [owner, repo] = segments;
  if (!owner || !repo || !/^[\w.-]+$/.test(owner) || !/^[\w.-]+$/.test(repo)) return undefined;
  return `${appUrl}${owner}/${repo}`;
}
