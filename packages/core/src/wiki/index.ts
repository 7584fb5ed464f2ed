/**
 * The wiki folder's public surface: what other folders may import from it. The wiki's storage (its git repository,
 * `has_wiki_contents`) is the repos domain's (`RepoWikiStorage`); this folder serves its pages.
 */
import './events.js';
export { toApiWikiCommit, toApiWikiPageMetaData } from './convert.js';
export { type WikiAction, type WikiChangedEvent } from './events.js';
export { gitPathToWebPath, titleToWebPath, webPathToGitPath, webPathToTitle, type WebPath } from './names.js';
export {
  CreateWikiPageOptionsSchema,
  WikiCommitListSchema,
  WikiCommitSchema,
  WikiPageMetaDataSchema,
  WikiPageSchema,
  WikiRevisionsQuerySchema,
  type ApiWikiCommit,
  type ApiWikiCommitList,
  type ApiWikiPage,
  type ApiWikiPageMetaData,
  type CreateWikiPageOptions,
} from './schemas.js';
export { WikiService } from './service.js';
