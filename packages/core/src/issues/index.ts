/**
 * The issues folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { IssueAttachmentsService } from './attachments.js';
export { toApiIssue, toApiIssues } from './convert.js';
export { CrossReferencesService } from './cross-references.js';
export { IssueDeadlineService } from './deadline.js';
export { IssueDependenciesService, accessOfRepos } from './dependencies.js';
export { issueAttachmentsDomain, issueCommitRefsDomain, issueLabelsDomain, issuePinsDomain, issuesDomain } from './domain.js';
export { type IssueEventBase } from './events.js';
export { IssueLabelsService } from './issue-labels.js';
export { IssueLockService } from './lock.js';
export { IssuePinsService } from './pins.js';
export { IssuesPort } from './port.js';
export { IssueSchema, StateTypeSchema, type ApiIssue } from './schemas.js';
export { IssuesService, type IssueDetails } from './service.js';
export { type Issue, type IssuesTables, type NewIssue } from './tables.js';
export { IssueTemplatesService } from './templates.js';
export { chosenUpdateTime, rfc3339Unix } from './update-time.js';
