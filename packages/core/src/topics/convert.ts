import { isoTime } from '../wire.js';
import type { ApiTopicResponse } from './schemas.js';
import type { Topic } from './tables.js';

export function toApiTopic(topic: Topic): ApiTopicResponse {
  return {
    id: topic.id,
    topic_name: topic.name,
    repo_count: topic.repo_count,
    created: isoTime(topic.created_unix),
    updated: isoTime(topic.updated_unix),
  };
}
