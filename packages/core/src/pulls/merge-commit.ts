import type { CoreContext } from '../context.js';
import { ConflictError } from '../errors.js';
import type { RepoKey } from '../git/index.js';
import type { MergeSignature } from '../git/index.js';
import { hasLineTerminator, identTail } from '../git/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import type { MergeStyle } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import type { User } from '../users/index.js';
import { pullHeadRef, type Pull, type PullRequest } from './tables.js';
import { addTrailer, composeMergeMessage } from './merge-message.js';
import { MergeNotAllowedError } from './merge-checks.js';
import { gitSignatureOf, PullMergeMessages } from './merge-messages.js';

/**
 * The commits a merge works with: where the pull request's head is now, and the commit the base branch moves to for
 * each style. Computed beside the stored repository (`git merge-tree --write-tree` and `git commit-tree` for merge
 * and squash; a scratch repository borrowing the objects for rebases): nothing here moves a ref.
 */
export class PullMergeCommits {
  constructor(private readonly ctx: CoreContext) {}

  private get messages(): PullMergeMessages {
    return this.ctx.service(PullMergeMessages);
  }

  /** The head repository (with its owner), or undefined when it is gone. */
  async headOf(access: RepoAccess, pull: PullRequest): Promise<{ repo: Repository; owner: User } | undefined> {
    if (pull.head_repo_id === access.repo.id) return { repo: access.repo, owner: access.owner };
    const repo = await this.ctx.port(ReposPort).byId(pull.head_repo_id);
    const owner = repo && (await this.ctx.port(UsersPort).byId(repo.owner_id));
    return repo && owner ? { repo, owner } : undefined;
  }

  /** The commit the head branch names now (refs/pull/{index}/head when the head repository is gone). */
  async headCommit(access: RepoAccess, pull: PullRequest): Promise<{ sha: string; key: RepoKey }> {
    const baseKey = repoKey(access.owner, access.repo);
    const head = await this.headOf(access, pull);
    if (head) {
      const key = repoKey(head.owner, head.repo);
      const ref = `refs/heads/${pull.head_branch}`;
      const sha = (await this.ctx.git.readRefs(key, [ref])).get(ref);
      if (!sha) throw new ConflictError(`head branch ${pull.head_branch} does not exist`);
      return { sha, key };
    }
    const ref = pullHeadRef(pull.index);
    const sha = (await this.ctx.git.readRefs(baseKey, [ref])).get(ref);
    if (!sha) throw new ConflictError('the head of the pull request is gone');
    return { sha, key: baseKey };
  }

  /** Computes the commit the base branch moves to for `style`; 409 for conflicts and diverged fast-forwards. */
  async mergedCommit(
    key: RepoKey,
    access: RepoAccess,
    pull: Pull,
    style: MergeStyle,
    baseSha: string,
    headSha: string,
    message: string,
    committer: MergeSignature,
  ): Promise<string> {
    const git = this.ctx.git;
    switch (style) {
      case 'merge':
      case 'squash': {
        const merged = await git.mergeTree(key, baseSha, headSha);
        if (!merged.tree) {
          if (/unrelated histories/i.test(merged.error ?? '')) throw new ConflictError('Merge UnrelatedHistories: refusing to merge unrelated histories');
          throw new Error(merged.error ?? 'git merge-tree failed');
        }
        if (merged.conflicts.length > 0) throw new ConflictError(`Merge Conflict Error: ${merged.conflicts.join(', ')}`);
        if (style === 'merge') return git.commitTree(key, { tree: merged.tree, parents: [baseSha, headSha], message, author: committer, committer });
        const poster = await this.ctx.port(UsersPort).byId(pull.issue.poster_id);
        const author: MergeSignature = poster ? { ...gitSignatureOf(poster, this.ctx.settings), when: committer.when } : committer;
        let squashMessage = message;
        if (author.name !== committer.name || author.email !== committer.email) {
          // Forgejo's ADD_CO_COMMITTER_TRAILERS (default on): the merger credits the author it commits for.
          const who = `${author.name} <${author.email}>`;
          squashMessage = addTrailer(addTrailer(squashMessage, 'Co-authored-by', who), 'Co-committed-by', who);
        }
        return git.commitTree(key, { tree: merged.tree, parents: [baseSha], message: squashMessage, author, committer });
      }
      case 'fast-forward-only': {
        if (baseSha === headSha || (await git.isAncestor(key, baseSha, headSha))) return headSha;
        throw new ConflictError('Merge DivergingFastForwardOnly: Not possible to fast-forward, aborting');
      }
      case 'rebase':
      case 'rebase-merge': {
        // Nothing to replay when the head already contains the base: its commits go in as they are.
        const rebased = (await git.isAncestor(key, baseSha, headSha)) ? { head: headSha } : await git.rebaseCommits(key, { onto: baseSha, head: headSha, committer });
        if ('conflict' in rebased) throw new ConflictError(`Rebase Error: conflict when rebasing commit ${rebased.conflict}`);
        if (style === 'rebase') return rebased.head === baseSha ? baseSha : this.amendWithTemplate(key, access, pull, rebased.head, committer);
        const tree = (await git.resolveRevision(key, `${rebased.head}^{tree}`))?.id;
        if (!tree) throw new Error('the rebased head has no tree');
        return git.commitTree(key, { tree, parents: [baseSha, rebased.head], message, author: committer, committer });
      }
      case 'manually-merged':
        throw new MergeNotAllowedError(`${style} is not an allowed merge style for this repository`);
    }
  }

  /**
   * A rebase keeps its commits' messages, unless the repository has a REBASE template: then the last commit is
   * written again with the template's message (`$CommitTitle` and `$CommitBody` are its own), as Forgejo amends it.
   */
  private async amendWithTemplate(key: RepoKey, access: RepoAccess, pull: Pull, tipSha: string, committer: MergeSignature): Promise<string> {
    const template = await this.messages.mergeTemplate(access, 'rebase');
    if (template === undefined) return tipSha;
    const tip = await this.ctx.git.readObject(key, tipSha, { maxBytes: 1024 * 1024 });
    if (!tip || tip.type !== 'commit') return tipSha;
    const parsed = parseCommit(tip.content.toString('utf8'));
    if (!parsed) return tipSha;
    const [commitTitle = '', ...rest] = parsed.message.split('\n');
    const facts = await this.messages.defaultMessageFacts(access, pull, 'rebase');
    const { title, body } = composeMergeMessage({ ...facts, extra: { CommitTitle: commitTitle.trim(), CommitBody: rest.join('\n').trim() } }, template);
    if (title === '') return tipSha;
    const message = body !== '' ? `${title}\n\n${body}` : title;
    return this.ctx.git.commitTree(key, { tree: parsed.tree, parents: parsed.parents, message, author: parsed.author, committer });
  }

}

/** The parts of a raw commit object an amend keeps: tree, parents, author (with its time and zone), message. */
function parseCommit(raw: string): { tree: string; parents: string[]; author: MergeSignature; message: string } | undefined {
  const split = raw.indexOf('\n\n');
  const header = (split < 0 ? raw : raw.slice(0, split)).split('\n');
  const message = split < 0 ? '' : raw.slice(split + 2);
  let tree = '';
  const parents: string[] = [];
  let author: MergeSignature | undefined;
  for (const line of header) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
    else if (line.startsWith('author ')) {
      // Scanned from the end (users push these lines): the name runs to the last ` <` after any `>` before the tail's.
      const tail = identTail(line, false);
      const before = tail && tail.close > 0 ? line.lastIndexOf('>', tail.close - 1) : -1;
      const open = tail && tail.close >= 2 ? line.lastIndexOf(' <', tail.close - 2) : -1;
      if (tail && open >= 7 && open > before && !hasLineTerminator(line.slice(7, open))) {
        author = { name: line.slice(7, open), email: line.slice(open + 2, tail.close), when: new Date(Number(tail.seconds) * 1000), offset: tail.offset };
      }
    }
  }
  return tree && author ? { tree, parents, author, message } : undefined;
}
