import { withHost, type GlobalOptions } from '../config.js';
import type { CliIo } from '../io.js';
import type { LeafCommand, Parsed } from '../command.js';

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
    const report = await host.releases.syncAllWithTags((name, outcome) => {
      if (outcome instanceof Error) io.stderr(`${name}: ${outcome.message}\n`);
      else if (outcome.drafted || outcome.moved) io.stdout(`${name}: ${outcome.drafted} release(s) made drafts (tag gone), ${outcome.moved} moved with their tag\n`);
    });
    io.stdout(`Synchronized the releases of ${report.repositories} repositories: ${report.drafted} made drafts, ${report.moved} moved${report.failed ? `; ${report.failed} failed` : ''}.\n`);
    return report.failed ? 1 : 0;
  });
}
