import { Type, type Static } from '@sinclair/typebox';

/** A repository's topic names (`GET /repos/{owner}/{repo}/topics`). */
export const TopicNameSchema = Type.Object(
  { topics: Type.Array(Type.String()) },
  { $id: 'TopicName', description: 'TopicName a list of repo topic names' },
);
export type ApiTopicName = Static<typeof TopicNameSchema>;

/** The list that replaces a repository's topics (`PUT /repos/{owner}/{repo}/topics`). */
export const RepoTopicOptionsSchema = Type.Object(
  { topics: Type.Optional(Type.Array(Type.String(), { description: 'list of topic names' })) },
  { $id: 'RepoTopicOptions', description: 'RepoTopicOptions a collection of repo topic names' },
);
export type RepoTopicOptions = Static<typeof RepoTopicOptionsSchema>;

/** One topic with the number of repositories that carry it. */
export const TopicResponseSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    topic_name: Type.String(),
    repo_count: Type.Integer({ format: 'int64' }),
    created: Type.String({ format: 'date-time' }),
    updated: Type.String({ format: 'date-time' }),
  },
  { $id: 'TopicResponse', description: 'TopicResponse for returning topics' },
);
export type ApiTopicResponse = Static<typeof TopicResponseSchema>;

/** `GET /topics/search`: Forgejo declares it inline (title TopicSearchResults), so it has no `$id`. */
export const TopicSearchResultsSchema = Type.Object(
  { topics: Type.Array(TopicResponseSchema) },
  { title: 'TopicSearchResults', description: 'SearchResults of a successful search' },
);
export type ApiTopicSearchResults = Static<typeof TopicSearchResultsSchema>;

/** The 422 answer to topic names that cannot be stored (Forgejo's APIInvalidTopicsError). */
export const InvalidTopicsErrorSchema = Type.Object(
  {
    invalidTopics: Type.Union([Type.Array(Type.String()), Type.Null()]),
    message: Type.String(),
  },
  { $id: 'APIInvalidTopicsError' },
);
export type ApiInvalidTopicsError = Static<typeof InvalidTopicsErrorSchema>;
