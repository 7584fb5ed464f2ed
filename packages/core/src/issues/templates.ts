import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import type { GitObjects, RepoKey } from '../git/index.js';
import { repoKey, type RepoAccess } from '../repos/index.js';
import type { ApiIssueConfig, ApiIssueConfigValidation, ApiIssueFormField, ApiIssueTemplate } from './templates-schemas.js';

/** Folders searched for issue templates, in Forgejo's order (each one's files in tree order). */
const TEMPLATE_DIRS = [
  'ISSUE_TEMPLATE',
  'issue_template',
  '.forgejo/ISSUE_TEMPLATE',
  '.forgejo/issue_template',
  '.gitea/ISSUE_TEMPLATE',
  '.gitea/issue_template',
  '.github/ISSUE_TEMPLATE',
  '.github/issue_template',
  '.gitlab/ISSUE_TEMPLATE',
  '.gitlab/issue_template',
  'docs/ISSUE_TEMPLATE',
  'docs/issue_template',
] as const;

/** Where the issue config may be (`.yaml`, then `.yml`); the first that exists is the one read. */
const CONFIG_CANDIDATES = [
  '.forgejo/ISSUE_TEMPLATE/config',
  '.forgejo/issue_template/config',
  '.gitea/ISSUE_TEMPLATE/config',
  '.gitea/issue_template/config',
  '.github/ISSUE_TEMPLATE/config',
  '.github/issue_template/config',
  'docs/ISSUE_TEMPLATE/config',
  'docs/issue_template/config',
] as const;

/** Forgejo's `[ui] MAX_DISPLAY_FILE_SIZE` default: a larger template file is skipped as invalid. */
const MAX_TEMPLATE_BYTES = 8 * 1024 * 1024;

const FIELD_TYPES = new Set(['markdown', 'textarea', 'input', 'dropdown', 'checkboxes']);

/** A template file that cannot be used; the message says why (Forgejo's words where it has them). */
class TemplateError extends Error {}

type YamlModule = typeof import('yaml');
let yamlModule: Promise<YamlModule> | undefined;
/** The YAML parser is loaded on first use: few requests need it. */
function loadYaml(): Promise<YamlModule> {
  return (yamlModule ??= import('yaml'));
}

/**
 * Parses the first YAML document to plain values, as Go's yaml.Unmarshal does (merge keys included). Anything the
 * parser refuses (a syntax error, a duplicate key, an alias bomb, nesting too deep for the stack) is a TemplateError:
 * the file is the repository's data, so it makes the template unusable, never the request fail.
 */
function parseYaml(yaml: YamlModule, text: string): unknown {
  try {
    const doc = yaml.parseAllDocuments(text, { prettyErrors: false, uniqueKeys: true, merge: true })[0];
    if (!doc || !('errors' in doc)) return null;
    const error = doc.errors[0];
    if (error) {
      const line = text.slice(0, error.pos[0]).split('\n').length;
      throw new TemplateError(`yaml: line ${line}: ${error.message}`);
    }
    return doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    if (error instanceof TemplateError) throw error;
    throw new TemplateError(`yaml: ${error instanceof Error ? error.message : String(error)}`);
  }
}

type YamlMap = Record<string, unknown>;

function isMap(value: unknown): value is YamlMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return '!!seq';
  if (isMap(value)) return '!!map';
  if (typeof value === 'boolean') return '!!bool';
  if (typeof value === 'number') return Number.isInteger(value) ? '!!int' : '!!float';
  return '!!str';
}

/** A scalar read into a string field, as Go's YAML decoder does (numbers and booleans as written); null is empty. */
function asString(value: unknown, field: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new TemplateError(`yaml: unmarshal errors: cannot unmarshal ${kindOf(value)} into ${field} (string)`);
}

function asMap(value: unknown, field: string): YamlMap | null {
  if (value === null || value === undefined) return null;
  if (!isMap(value)) throw new TemplateError(`yaml: unmarshal errors: cannot unmarshal ${kindOf(value)} into ${field} (map)`);
  return value;
}

/** `labels`: a list, or one string of comma-separated names. */
function readLabels(value: unknown): string[] | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    const names = String(value).split(',').map((name) => name.trim()).filter((name) => name !== '');
    return names.length > 0 ? names : null;
  }
  if (Array.isArray(value)) return value.map((name) => asString(name, 'labels'));
  throw new TemplateError(`cannot unmarshal ${kindOf(value)} into IssueTemplateLabels`);
}

function readFields(value: unknown): ApiIssueFormField[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) throw new TemplateError(`yaml: unmarshal errors: cannot unmarshal ${kindOf(value)} into body (sequence)`);
  return value.map((item, index) => {
    const field = asMap(item, `body[${index}]`) ?? {};
    const visible = field.visible;
    if (visible !== undefined && visible !== null && !Array.isArray(visible)) {
      throw new TemplateError(`yaml: unmarshal errors: cannot unmarshal ${kindOf(visible)} into body[${index}].visible (sequence)`);
    }
    return {
      type: asString(field.type, `body[${index}].type`),
      id: asString(field.id, `body[${index}].id`),
      attributes: asMap(field.attributes, `body[${index}].attributes`),
      validations: asMap(field.validations, `body[${index}].validations`),
      visible: Array.isArray(visible) ? visible.map((v) => asString(v, `body[${index}].visible`)) : null,
    };
  });
}

/** The template's metadata from a YAML mapping (a front matter or a whole issue form). */
function readTemplate(data: unknown, fileName: string): ApiIssueTemplate {
  const map = data === null || data === undefined ? {} : isMap(data) ? data : null;
  if (!map) throw new TemplateError(`yaml: unmarshal errors: cannot unmarshal ${kindOf(data)} into IssueTemplate`);
  const template: ApiIssueTemplate = {
    name: asString(map.name, 'name'),
    title: asString(map.title, 'title'),
    about: asString(map.about, 'about'),
    labels: readLabels(map.labels),
    ref: asString(map.ref, 'ref'),
    content: '',
    body: readFields(map.body),
    file_name: fileName,
  };
  // `description` is read as `about` when `about` is empty.
  if (template.about === '' && typeof map.description === 'string') template.about = map.description;
  return template;
}

/** A whitespace character a front matter separator line may carry around its dashes (ASCII: the space only). */
const SEPARATOR = /^(?: |[\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000])*-{3,}(?: |[\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000])*$/;

/** The YAML between a first `---` line and the next one, and the text after it; undefined without both. */
function splitFrontMatter(text: string): { front: string; body: string } | undefined {
  const lines = text.split('\n');
  if (!SEPARATOR.test(lines[0]!)) return undefined;
  let offset = lines[0]!.length + 1;
  const frontStart = offset;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (SEPARATOR.test(line)) {
      const front = text.slice(frontStart, offset);
      if (front === '') return undefined;
      return { front, body: text.slice(offset + line.length + 1) };
    }
    offset += line.length + 1;
  }
  return undefined;
}

/** The first `n` bytes of a text, cut at a character and marked `…` when cut (Forgejo's SplitStringAtByteN). */
function cutAtBytes(text: string, n: number): string {
  if (Buffer.byteLength(text) <= n) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > n - 3) break;
    bytes += size;
    end += char.length;
  }
  return `${text.slice(0, end)}…`;
}

/** Forgejo's checks of a template: name and about, and for a form every field's type, id, label and options. */
function validate(template: ApiIssueTemplate, isForm: boolean): void {
  if (template.name.trim() === '') throw new TemplateError("'name' is required");
  if (template.about.trim() === '') throw new TemplateError("'about' is required");
  if (!isForm) return;
  const fields = template.body ?? [];
  if (fields.length === 0) throw new TemplateError("'body' is required");
  const ids = new Set<string>();
  fields.forEach((field, index) => {
    const at = `body[${index}](${field.type})`;
    const fail = (message: string, option?: number): never => {
      throw new TemplateError(`${at}${option === undefined ? '' : `, option[${option}]`}: ${message}`);
    };
    const attributes = field.attributes ?? {};
    const validations = field.validations ?? {};
    const strings = (map: YamlMap, required: boolean, ...names: string[]): void => {
      for (const name of names) {
        if (!(name in map)) {
          if (required) fail(`'${name}' is required`);
          return;
        }
        const value = map[name];
        if (typeof value !== 'string') fail(`'${name}' should be a string`);
        if (required && (value as string).trim() === '') fail(`'${name}' is required`);
      }
    };
    const booleans = (map: YamlMap, ...names: string[]): void => {
      for (const name of names) {
        if (!(name in map)) return;
        if (typeof map[name] !== 'boolean') fail(`'${name}' should be a bool`);
      }
    };
    if (field.type !== 'markdown') {
      if (field.id === '') fail("'id' is required");
      if (/[^0-9A-Za-z_-]/.test(field.id)) fail("'id' should contain only alphanumeric, '-' and '_'");
      if (ids.has(field.id)) fail("'id' should be unique");
      ids.add(field.id);
      strings(attributes, true, 'label');
    }
    if (!FIELD_TYPES.has(field.type)) fail('unknown type');
    switch (field.type) {
      case 'markdown':
        strings(attributes, true, 'value');
        break;
      case 'textarea':
        strings(attributes, false, 'description', 'placeholder', 'value', 'render');
        break;
      case 'input':
        strings(attributes, false, 'description', 'placeholder', 'value');
        booleans(validations, 'is_number');
        strings(validations, false, 'regex');
        break;
      case 'dropdown':
        strings(attributes, false, 'description');
        booleans(attributes, 'multiple');
        booleans(attributes, 'list');
        validateOptions(field, attributes, fail);
        if ('default' in attributes) {
          const chosen = attributes.default;
          if (typeof chosen !== 'number' || !Number.isInteger(chosen)) fail("'default' should be an int");
          const count = (attributes.options as unknown[]).length;
          if ((chosen as number) < 0 || (chosen as number) >= count) fail("the value of 'default' is out of range");
        }
        break;
      case 'checkboxes':
        strings(attributes, false, 'description');
        validateOptions(field, attributes, fail);
        break;
    }
    if (field.type !== 'markdown' && field.type !== 'checkboxes') {
      booleans(validations, 'required');
      const onForm = !field.visible || field.visible.length === 0 || field.visible.includes('form');
      if (validations.required === true && !onForm) fail('can not require a hidden field');
    }
  });
}

function validateOptions(field: ApiIssueFormField, attributes: YamlMap, fail: (message: string, option?: number) => never): void {
  const options = attributes.options;
  if (!Array.isArray(options) || options.length === 0) fail("'options' is required and should be a array");
  (options as unknown[]).forEach((option, index) => {
    if (field.type === 'dropdown') {
      if (typeof option !== 'string') fail('should be a string', index);
      return;
    }
    if (!isMap(option)) return fail('should be a dictionary', index);
    if (typeof option.label !== 'string' || option.label === '') fail("'label' is required and should be a string", index);
    if ('visible' in option) {
      const visible = option.visible;
      if (!Array.isArray(visible)) fail("'visible' should be list", index);
      if ((visible as unknown[]).some((v) => v !== 'form' && v !== 'content')) fail("'visible' list can only contain strings of 'form' and 'content'", index);
    }
    if ('required' in option) {
      if (typeof option.required !== 'boolean') fail("'required' should be a bool", index);
      if ('visible' in option && !(option.visible as unknown[]).includes('form')) fail('can not require a hidden checkbox', index);
    }
  });
}

/** Markdown (`.md`) or an issue form (`.yaml`, `.yml`); undefined for any other file and for `config.y(a)ml`. */
function templateKind(fileName: string): 'md' | 'yaml' | undefined {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  if (base === 'config.yaml' || base === 'config.yml') return undefined;
  const dot = base.lastIndexOf('.');
  const ext = dot >= 0 ? base.slice(dot) : '';
  if (ext === '.md') return 'md';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  return undefined;
}

/** One template file read into what the API shows, as Forgejo reads it; a TemplateError when it is not usable. */
export async function parseIssueTemplate(fileName: string, text: string): Promise<ApiIssueTemplate> {
  const kind = templateKind(fileName);
  if (!kind) throw new TemplateError('not a template file');
  const yaml = await loadYaml();
  let template: ApiIssueTemplate;
  if (kind === 'md') {
    const split = splitFrontMatter(text);
    let parsed: ApiIssueTemplate | undefined;
    if (split) {
      try {
        parsed = { ...readTemplate(parseYaml(yaml, split.front), fileName), content: split.body };
      } catch (error) {
        if (!(error instanceof TemplateError)) throw error;
      }
    }
    // Without usable front matter the whole file is the template, named after the file.
    template = parsed ?? {
      ...readTemplate(null, fileName),
      content: text,
      name: fileName.slice(fileName.lastIndexOf('/') + 1),
      about: cutAtBytes(text, 80),
    };
  } else {
    template = readTemplate(parseYaml(yaml, text), fileName);
    // Fields get their position as id, and are shown on the form (and, but for markdown, in the issue) by default.
    template.body =
      template.body?.map((field, index) => ({
        ...field,
        id: field.id === '' ? String(index) : field.id,
        visible: field.visible ?? (field.type === 'markdown' ? ['form'] : ['form', 'content']),
      })) ?? null;
  }
  validate(template, kind === 'yaml');
  // A ref names a branch unless it says otherwise.
  if (!template.ref.startsWith('refs/')) template.ref = `refs/heads/${template.ref}`;
  return template;
}

/** What a config file says, or why it cannot be used (then the defaults apply). */
export async function parseIssueConfig(text: string): Promise<{ config: ApiIssueConfig; error?: string }> {
  const defaults = (): ApiIssueConfig => ({ blank_issues_enabled: true, contact_links: [] });
  try {
    const data = parseYaml(await loadYaml(), text);
    const map = data === null || data === undefined ? {} : isMap(data) ? data : null;
    if (!map) throw new TemplateError(`yaml: unmarshal errors: cannot unmarshal ${kindOf(data)} into IssueConfig`);
    const config = defaults();
    if (map.blank_issues_enabled !== undefined && map.blank_issues_enabled !== null) {
      if (typeof map.blank_issues_enabled !== 'boolean') {
        throw new TemplateError(`yaml: unmarshal errors: cannot unmarshal ${kindOf(map.blank_issues_enabled)} \`${String(map.blank_issues_enabled)}\` into bool`);
      }
      config.blank_issues_enabled = map.blank_issues_enabled;
    }
    const links = map.contact_links;
    if (links !== undefined && links !== null) {
      if (!Array.isArray(links)) throw new TemplateError(`yaml: unmarshal errors: cannot unmarshal ${kindOf(links)} into contact_links (sequence)`);
      config.contact_links = links.map((link, index) => {
        const entry = asMap(link, `contact_links[${index}]`) ?? {};
        return { name: asString(entry.name, 'name'), url: asString(entry.url, 'url'), about: asString(entry.about, 'about') };
      });
    }
    config.contact_links.forEach((link, index) => {
      if (link.name === '') throw new TemplateError(`contact_link at position ${index + 1} is missing name key`);
      if (link.url === '') throw new TemplateError(`contact_link at position ${index + 1} is missing url key`);
      if (link.about === '') throw new TemplateError(`contact_link at position ${index + 1} is missing about key`);
      if (!isRequestUri(link.url)) throw new TemplateError(`${link.url} is not a valid URL`);
    });
    return { config };
  } catch (error) {
    if (error instanceof TemplateError) return { config: defaults(), error: error.message };
    throw error;
  }
}

/** Go's `url.ParseRequestURI`: an absolute URL or an absolute path, without spaces or control characters. */
function isRequestUri(text: string): boolean {
  if (/[\u0000-\u0020\u007f]/.test(text)) return false;
  if (text.startsWith('/')) return true;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Issue templates and the issue config, read from the default branch's `.forgejo/`, `.gitea/`, `.github/`, … folders
 * on the long-lived object reader (no process per file).
 */
export class IssueTemplatesService {
  constructor(private readonly ctx: CoreContext) {}

  private get git(): GitObjects {
    return this.ctx.git;
  }

  /** The default branch's commit; undefined for an empty repository or a missing branch. */
  private async defaultCommit(access: RepoAccess): Promise<string | undefined> {
    if (access.repo.is_empty) return undefined;
    const found = await this.git.resolveRevision(repoKey(access.owner, access.repo), `refs/heads/${access.repo.default_branch}^{commit}`);
    return found?.type === 'commit' ? found.id : undefined;
  }

  /** The usable templates, folder by folder; files that cannot be read as templates are left out. */
  async list(_actor: Actor, access: RepoAccess): Promise<ApiIssueTemplate[]> {
    const commit = await this.defaultCommit(access);
    if (!commit) return [];
    const key = repoKey(access.owner, access.repo);
    const trees = await Promise.all(TEMPLATE_DIRS.map((dir) => this.git.readTree(key, `${commit}:${dir}`, { sizes: false })));
    const files: { path: string; id: string }[] = [];
    trees.forEach((tree, index) => {
      for (const entry of tree?.entries ?? []) {
        if (entry.type !== 'blob' || entry.path.includes('\n') || !templateKind(entry.path)) continue;
        files.push({ path: `${TEMPLATE_DIRS[index]}/${entry.path}`, id: entry.id });
      }
    });
    const blobs = await this.git.readObjects(key, files.map((file) => file.id), { maxBytes: MAX_TEMPLATE_BYTES });
    const templates: ApiIssueTemplate[] = [];
    for (const [index, file] of files.entries()) {
      const blob = blobs[index];
      if (!blob || blob.truncated) continue;
      try {
        templates.push(await parseIssueTemplate(file.path, blob.content.toString('utf8')));
      } catch (error) {
        if (!(error instanceof TemplateError)) throw error;
      }
    }
    return templates;
  }

  /** The config of the first config file found, or the defaults; `error` says why a file found was not used. */
  async config(_actor: Actor, access: RepoAccess): Promise<{ config: ApiIssueConfig; error?: string }> {
    const commit = await this.defaultCommit(access);
    const defaults: ApiIssueConfig = { blank_issues_enabled: true, contact_links: [] };
    if (!commit) {
      return access.repo.is_empty ? { config: defaults } : { config: defaults, error: `branch does not exist [name: ${access.repo.default_branch}]` };
    }
    const key: RepoKey = repoKey(access.owner, access.repo);
    const paths = CONFIG_CANDIDATES.flatMap((name) => [`${name}.yaml`, `${name}.yml`]);
    const blobs = await this.git.readObjects(key, paths.map((path) => `${commit}:${path}`), { maxBytes: MAX_TEMPLATE_BYTES });
    const found = blobs.find((blob) => blob?.type === 'blob');
    if (!found) return { config: defaults };
    return parseIssueConfig(found.content.toString('utf8'));
  }

  /** Whether the issue config can be used, and if not, why. */
  async validateConfig(actor: Actor, access: RepoAccess): Promise<ApiIssueConfigValidation> {
    const { error } = await this.config(actor, access);
    return { valid: error === undefined, message: error ?? '' };
  }
}
