import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { MERGE_STYLES, UPDATE_STYLES } from '../repos/index.js';

/** `POST /repos/{owner}/{repo}/pulls/{index}/merge` (Forgejo's MergePullRequestForm). */
export const MergePullRequestOptionSchema = Type.Object(
  {
    Do: StringEnum(MERGE_STYLES),
    MergeCommitID: Type.Optional(Type.String()),
    MergeMessageField: Type.Optional(Type.String()),
    MergeTitleField: Type.Optional(Type.String()),
    delete_branch_after_merge: Type.Optional(Type.Boolean({ 'x-go-name': 'DeleteBranchAfterMerge' })),
    force_merge: Type.Optional(Type.Boolean({ 'x-go-name': 'ForceMerge' })),
    head_commit_id: Type.Optional(Type.String({ 'x-go-name': 'HeadCommitID' })),
    merge_when_checks_succeed: Type.Optional(Type.Boolean({ 'x-go-name': 'MergeWhenChecksSucceed' })),
  },
  { $id: 'MergePullRequestOption', description: 'MergePullRequestForm form for merging Pull Request', 'x-go-name': 'MergePullRequestForm' },
);
export type MergePullRequestOption = Static<typeof MergePullRequestOptionSchema>;

/** `POST …/pulls/{index}/update`. */
export const PullUpdateQuerySchema = Type.Object({
  style: Type.Optional(StringEnum(UPDATE_STYLES, { description: 'how to update pull request' })),
});
export type PullUpdateQuery = Static<typeof PullUpdateQuerySchema>;
