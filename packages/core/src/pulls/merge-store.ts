import type { Generated, Selectable } from 'kysely';
import { Store } from '../storage/index.js';
import { nowUnix } from '../storage/index.js';
import type { MergeStyle } from '../repos/index.js';
import type { PullRequest, PullsTables } from './tables.js';

/** Forgejo's `pull_auto_merge`: a merge waiting for the head commit's checks to succeed (one per pull request). */
export interface PullAutoMergeTable {
  id: Generated<number>;
  pull_id: number;
  doer_id: number;
  merge_style: string;
  /** The whole commit message: title, a blank line, the body. */
  message: Generated<string>;
  delete_branch_after_merge: Generated<number>;
  created_unix: number;
}

export type PullAutoMerge = Selectable<PullAutoMergeTable>;

export interface PullMergeTables extends PullsTables {
  pull_auto_merge: PullAutoMergeTable;
}

/** What marking a pull request merged records (Forgejo's SetMerged columns). */
export interface MergedFields {
  merged_commit_id: string;
  merger_id: number;
  merged_unix: number;
  merge_base: string;
  status: number;
}

/** The merge side of pull requests: recording merges, retargeting, and scheduled (auto) merges. */
export class PullMergeStore extends Store<PullMergeTables> {
  pullById(id: number): Promise<PullRequest | undefined> {
    return this.db.selectFrom('pull_request').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Marks the pull request merged if it is not yet: the row comes back only for the one caller that changed it,
   * so two merges racing for one pull request cannot both record theirs.
   */
  markMerged(id: number, fields: MergedFields): Promise<PullRequest | undefined> {
    return this.db
      .updateTable('pull_request')
      .set({ ...fields, has_merged: 1, conflicted_files: '[]' })
      .where('id', '=', id)
      .where('has_merged', '=', 0)
      .returningAll()
      .executeTakeFirst();
  }

  /** Moves unmerged pull requests into `from` of a repository to `to`; returns them as they are now. */
  retarget(repoId: number, from: string, to: string): Promise<PullRequest[]> {
    return this.db
      .updateTable('pull_request')
      .set({ base_branch: to })
      .where('base_repo_id', '=', repoId)
      .where('base_branch', '=', from)
      .where('has_merged', '=', 0)
      .returningAll()
      .execute();
  }

  async scheduled(pullId: number): Promise<PullAutoMerge | undefined> {
    return this.db.selectFrom('pull_auto_merge').selectAll().where('pull_id', '=', pullId).executeTakeFirst();
  }

  /** Scheduled merges of unmerged pull requests whose head is at `sha`, into or out of repository `repoId`. */
  scheduledForHead(repoId: number, sha: string): Promise<(PullAutoMerge & { issue_id: number })[]> {
    return this.db
      .selectFrom('pull_auto_merge')
      .innerJoin('pull_request', 'pull_request.id', 'pull_auto_merge.pull_id')
      .selectAll('pull_auto_merge')
      .select('pull_request.issue_id')
      .where((eb) => eb.or([eb('pull_request.base_repo_id', '=', repoId), eb('pull_request.head_repo_id', '=', repoId)]))
      .where('pull_request.head_commit_id', '=', sha)
      .where('pull_request.has_merged', '=', 0)
      .execute();
  }

  /** Inserts the schedule; a unique violation means the pull request already has one. */
  schedule(row: { pull_id: number; doer_id: number; merge_style: MergeStyle; message: string; delete_branch_after_merge: boolean }): Promise<PullAutoMerge> {
    return this.db
      .insertInto('pull_auto_merge')
      .values({ ...row, delete_branch_after_merge: row.delete_branch_after_merge ? 1 : 0, created_unix: nowUnix() })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Removes the schedule; true when there was one. */
  async unschedule(pullId: number): Promise<boolean> {
    const removed = await this.db.deleteFrom('pull_auto_merge').where('pull_id', '=', pullId).executeTakeFirst();
    return Number(removed.numDeletedRows) > 0;
  }
}
