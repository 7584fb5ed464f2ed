import { SYSTEM } from '@repohost/core';
import { withHost, type GlobalOptions } from '../config.js';
import type { CliIo } from '../io.js';
import type { LeafCommand, Parsed } from '../command.js';

/** Repositories read per search page (the API's largest). */
const PAGE = 50;

/** `repohost admin repo-sync-releases`, Gitea's: releases made to agree with the tags in git. */
export const REPO_SYNC_RELEASES: LeafCommand = {
  name: 'repo-sync-releases',
  summary: 'Synchronize releases with the tags in git, for every repository',
  description: `Makes every repository's releases agree with its tags in git, after tags changed behind RepoHost's back
(git run on the storage, repositories restored from a backup): a release whose tag is gone becomes a draft,
one whose tag moved follows it, as a push does. Tags without a release need nothing: RepoHost keeps no rows
for them (Forgejo's tag-only rows).
`,
  run: repoSyncReleases,
};

async function repoSyncReleases(_input: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
  return withHost(global, io, async (host) => {
    const report = { repositories: 0, drafted: 0, moved: 0, failed: 0 };
    // Every repository, a page at a time in id order, as a site administrator sees them.
    for (let page = 1; ; page++) {
      const { items } = await host.repoSearch.search(SYSTEM, { sort: 'id', order: 'asc', page, limit: PAGE });
      for (const { repo, owner } of items) {
        const name = `${owner.name}/${repo.name}`;
        try {
          const outcome = await host.releases.syncWithTags(repo.id, { owner: owner.lower_name, name: repo.lower_name });
          report.repositories++;
          report.drafted += outcome.drafted;
          report.moved += outcome.moved;
          if (outcome.drafted || outcome.moved) io.stdout(`${name}: ${outcome.drafted} release(s) made drafts (tag gone), ${outcome.moved} moved with their tag\n`);
        } catch (error) {
          // Its storage is missing, say: counted, and the walk goes on.
          report.failed++;
          io.stderr(`${name}: ${(error as Error).message}\n`);
        }
      }
      if (items.length < PAGE) break;
    }
    io.stdout(`Synchronized the releases of ${report.repositories} repositories: ${report.drafted} made drafts, ${report.moved} moved${report.failed ? `; ${report.failed} failed` : ''}.\n`);
    return report.failed ? 1 : 0;
  });
}
