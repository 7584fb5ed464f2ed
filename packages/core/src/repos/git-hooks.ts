/**
 * A repository's own server-side git hooks (`/repos/{owner}/{repo}/hooks/git`): Forgejo's pre-receive, update and
 * post-receive, kept in the repository's storage and run by pushes while `[security] DISABLE_GIT_HOOKS` is false.
 * A hook runs as the server's user, so editing one is for site administrators and accounts they allowed
 * (`allow_git_hook`), as Forgejo's `CanEditGitHook`; the route group has already required repository admin.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { CoreContext } from '../context.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { GIT_HOOK_NAMES, type GitHookFile, type GitHookName } from '../git/index.js';
import { UsersPort, isSiteAdmin, type Actor } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import type { RepoAccess } from './access.js';
import { repoKey } from './service.js';

export const GitHookSchema = Type.Object(
  {
    name: Type.String(),
    is_active: Type.Boolean(),
    content: Type.String(),
  },
  { $id: 'GitHook', description: 'GitHook represents a Git repository hook' },
);
export type ApiGitHook = Static<typeof GitHookSchema>;

/** A hook is a program the server runs: a megabyte is far more than any script needs. */
const MAX_HOOK_BYTES = 1024 * 1024;

export const EditGitHookOptionSchema = Type.Object(
  { content: Type.Optional(Type.String({ maxLength: MAX_HOOK_BYTES })) },
  { $id: 'EditGitHookOption', description: 'EditGitHookOption options when modifying one Git hook' },
);
export type EditGitHookOption = Static<typeof EditGitHookOptionSchema>;

const toApiGitHook = (hook: GitHookFile): ApiGitHook => ({ name: hook.name, is_active: hook.active, content: hook.content });

function hookName(name: string): GitHookName {
  const found = GIT_HOOK_NAMES.find((known) => known === name);
  // Forgejo answers an unknown name as a missing object.
  if (!found) throw new NotFoundError();
  return found;
}

export class GitHooksService {
  constructor(private readonly ctx: CoreContext) {}

  /** Whether pushes run repositories' own hooks. */
  get enabled(): boolean {
    return !this.ctx.settings.security.DISABLE_GIT_HOOKS;
  }

  async list(actor: Actor, access: RepoAccess): Promise<ApiGitHook[]> {
    await this.assertMayEdit(actor);
    return (await this.ctx.git.readHooks(repoKey(access.owner, access.repo))).map(toApiGitHook);
  }

  async get(actor: Actor, access: RepoAccess, name: string): Promise<ApiGitHook> {
    await this.assertMayEdit(actor);
    const wanted = hookName(name);
    const hooks = await this.ctx.git.readHooks(repoKey(access.owner, access.repo));
    return toApiGitHook(hooks.find((hook) => hook.name === wanted)!);
  }

  /** Sets the hook's content; empty content removes it (it is then inactive), as Forgejo's. */
  async edit(actor: Actor, access: RepoAccess, name: string, input: EditGitHookOption): Promise<ApiGitHook> {
    await this.assertMayEdit(actor);
    const wanted = hookName(name);
    const { content = '' } = acceptInput(EditGitHookOptionSchema, input);
    return toApiGitHook(await this.ctx.git.writeHook(repoKey(access.owner, access.repo), wanted, content));
  }

  async delete(actor: Actor, access: RepoAccess, name: string): Promise<void> {
    await this.assertMayEdit(actor);
    await this.ctx.git.writeHook(repoKey(access.owner, access.repo), hookName(name), '');
  }

  /** Forgejo's reqGitHook: hooks enabled, and a site administrator or an account allowed `allow_git_hook`. */
  private async assertMayEdit(actor: Actor): Promise<void> {
    const allowed =
      this.enabled && (isSiteAdmin(actor) || (actor.kind === 'user' && !actor.task && (await this.ctx.port(UsersPort).allowedGitHooks(actor.user.id))));
    if (!allowed) throw new ForbiddenError('must be allowed to edit Git hooks');
  }
}
