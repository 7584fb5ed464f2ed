/**
 * The timeline folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { CommentsPort } from './port.js';
export { findIssueReferences, type IssueReference } from './references.js';
export { type CommentFilter } from './store.js';
export { type Comment, type CommentsTables, type NewComment } from './tables.js';
export { COMMENT_TYPES, REF_ACTIONS, RefAction, commentTypeName } from './types.js';
