import type { Settings } from '../config/index.js';
import type { CoreContext } from '../context.js';
import { BadRequestError, NotFoundError, ValidationError } from '../errors.js';
import { apiUrl } from '../urls.js';
import { GITIGNORE_NAMES, LICENSE_LOADERS, loadGitignoreTexts } from './data/index.js';
import { LABEL_SETS } from './label-sets.js';
import type { ApiGitignoreTemplateInfo, ApiLabelTemplate, ApiLicenseTemplateInfo, ApiLicensesTemplateListEntry } from './schemas.js';

/** What a LICENSE's copyright placeholders are filled with. */
export interface LicenseVars {
  year: string;
  owner: string;
  repo: string;
  /** The committer's address, for the few licenses that ask for one; left as written when absent. */
  email?: string;
}

/** What a README template's variables are filled with (Forgejo's `{Name}`, `{Description}`, …). */
export interface ReadmeVars {
  name: string;
  description: string;
  ownerName?: string;
  cloneUrlHttps?: string;
  cloneUrlSsh?: string;
}

/** Licenses listed first, before the others in byte order: Forgejo's default `[repository] PREFERRED_LICENSES`. */
const PREFERRED_LICENSES = ['Apache-2.0', 'MIT'];

/** GitHub's API sends this with every license, so Forgejo does too. */
const LICENSE_IMPLEMENTATION =
  'Create a text file (typically named LICENSE or LICENSE.txt) in the root of your source code and copy the text of the license into the file';

/** README templates by name: Forgejo ships one. */
const README_TEMPLATES: ReadonlyMap<string, string> = new Map([['Default', '# {Name}\n\n{Description}']]);

interface LicensePlaceholders {
  owner: readonly string[];
  email: readonly string[];
  repo: readonly string[];
  year: readonly string[];
  /** When set, only lines matching it are filled (the words are not placeholders elsewhere in the text). */
  onlyLines?: RegExp;
}

/** The placeholders the shipped license texts use for the copyright line; each is one in every text it occurs in. */
const COMMON_PLACEHOLDERS: LicensePlaceholders = {
  owner: [
    '<name of author>',
    '<owner>',
    '[NAME]',
    '[name of copyright owner]',
    '[name of copyright holder]',
    '<COPYRIGHT HOLDERS>',
    '<copyright holders>',
    '<AUTHOR>',
    "<author's name or designee>",
    '[one or more legally recognised persons or entities offering the Work under the terms and conditions of this Licence]',
  ],
  email: ['[EMAIL]'],
  repo: ['<program>', "<one line to give the program's name and a brief idea of what it does.>"],
  year: ['<year>', '[YEAR]', '{YEAR}', '[yyyy]', '[Year]', '[year]'],
};

/** Licenses whose placeholders are bare words that also occur as text: filled on the copyright line only. */
const SPECIAL_PLACEHOLDERS: ReadonlyMap<string, LicensePlaceholders> = new Map([
  ['0BSD', { owner: ['AUTHOR'], email: ['EMAIL'], repo: [], year: ['YEAR'], onlyLines: /Copyright \(C\) YEAR by AUTHOR EMAIL/ }],
]);

/** Go's url.PathEscape: everything but unreserved characters and `$&+:=@` is percent-encoded. */
function pathEscape(segment: string): string {
  return encodeURIComponent(segment)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%(24|26|2B|3A|3D|40)/g, (escaped) => decodeURIComponent(escaped));
}

/**
 * The templates a repository can be created from: .gitignore files, licenses, issue label sets and the README,
 * the built-in set Forgejo ships. Names are looked up exactly (Forgejo reads them as file names). Texts are
 * loaded on first use, so none of them costs start-up time or memory until asked for.
 */
export class RepoTemplatesService {
  private readonly settings: Settings;

  constructor(ctx: CoreContext) {
    this.settings = ctx.settings;
  }

  /** Names of the .gitignore templates, in byte order. */
  gitignoreNames(): string[] {
    return [...GITIGNORE_NAMES];
  }

  async gitignore(name: string): Promise<ApiGitignoreTemplateInfo> {
    const source = (await loadGitignoreTexts()).get(name);
    if (source === undefined) throw new NotFoundError();
    return { name, source };
  }

  /**
   * The .gitignore a repository is created with from a comma-separated list of template names: each template
   * under a `# ---> Name` line, as Forgejo writes it. Empty when the list names none.
   */
  async composeGitignore(list: string): Promise<string> {
    const names = list
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    if (names.length === 0) return '';
    const texts = await loadGitignoreTexts();
    let out = '';
    for (const name of names) {
      const text = texts.get(name);
      if (text === undefined) throw new ValidationError('gitignores', `GetRepoInitFile[${name}]: gitignore template does not exist`);
      out += `# ---> ${name}\n${text}\n`;
    }
    return out;
  }

  /** The license templates, Forgejo's preferred ones first. */
  licenseNames(): ApiLicensesTemplateListEntry[] {
    const preferred = PREFERRED_LICENSES.filter((id) => LICENSE_LOADERS.has(id));
    const others = [...LICENSE_LOADERS.keys()].filter((id) => !PREFERRED_LICENSES.includes(id));
    return [...preferred, ...others].map((id) => ({ key: id, name: id, url: this.licenseUrl(id) }));
  }

  async license(name: string): Promise<ApiLicenseTemplateInfo> {
    const load = LICENSE_LOADERS.get(name);
    if (!load) throw new NotFoundError();
    const body = (await load()).default;
    return { key: name, name, url: this.licenseUrl(name), body, implementation: LICENSE_IMPLEMENTATION };
  }

  /** The LICENSE file a repository is created with: the license's text with its copyright placeholders filled. */
  async licenseText(name: string, vars: LicenseVars): Promise<string> {
    const load = LICENSE_LOADERS.get(name);
    if (!load) throw new ValidationError('license', `getLicense[${name}]: license template does not exist`);
    const text = (await load()).default;
    const placeholders = SPECIAL_PLACEHOLDERS.get(name) ?? COMMON_PLACEHOLDERS;
    const fills: [readonly string[], string | undefined][] = [
      [placeholders.owner, vars.owner],
      [placeholders.email, vars.email],
      [placeholders.repo, vars.repo],
      [placeholders.year, vars.year],
    ];
    // Line by line, each line ending in "\n": the file always ends with a newline, whatever the text did.
    let out = '';
    for (let line of text.split(/\r?\n/)) {
      if (!placeholders.onlyLines || placeholders.onlyLines.test(line)) {
        for (const [words, value] of fills) {
          if (value === undefined) continue;
          for (const word of words) line = line.replaceAll(word, value);
        }
      }
      out += `${line}\n`;
    }
    return out;
  }

  /** Names of the issue label sets. */
  labelSetNames(): string[] {
    return [...LABEL_SETS.keys()];
  }

  /** The labels of a label set. */
  labelSet(name: string): ApiLabelTemplate[] {
    const labels = LABEL_SETS.get(name);
    if (!labels) throw new NotFoundError();
    return labels.map((label) => ({ ...label }));
  }

  /** A label set named by a repository's creation options: unknown is a 422, worded as Forgejo words it. */
  issueLabels(name: string): ApiLabelTemplate[] {
    if (!LABEL_SETS.has(name)) {
      throw new ValidationError('issue_labels', `failed to load label template file ${JSON.stringify(name)}: label template ${JSON.stringify(name)} not found`);
    }
    return this.labelSet(name);
  }

  /** Names of the README templates. */
  readmeNames(): string[] {
    return [...README_TEMPLATES.keys()];
  }

  /**
   * A README from its template. Variables are `{Name}`; one the caller did not supply stays as written, and
   * substituted values are not expanded again (a description may contain braces).
   */
  readme(name: string, vars: ReadmeVars): string {
    const template = README_TEMPLATES.get(name);
    if (template === undefined) {
      throw new BadRequestError(`readme template does not exist, available templates: [${this.readmeNames().join(' ')}]`);
    }
    const values = new Map<string, string | undefined>([
      ['Name', vars.name],
      ['Description', vars.description],
      ['OwnerName', vars.ownerName],
      ['CloneURL.HTTPS', vars.cloneUrlHttps],
      ['CloneURL.SSH', vars.cloneUrlSsh],
    ]);
    return template.replace(/\{([^{}]*)\}/g, (whole, key: string) => values.get(key) ?? whole);
  }

  private licenseUrl(id: string): string {
    return apiUrl(this.settings, `/licenses/${pathEscape(id)}`);
  }
}
