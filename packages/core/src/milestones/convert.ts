import { isoTime } from '../wire.js';
import type { ApiMilestone } from './schemas.js';
import type { Milestone } from './tables.js';

/** The API view of a milestone; the counts are those the issues domain stored on it. */
export function toApiMilestone(milestone: Milestone): ApiMilestone {
  return {
    id: milestone.id,
    title: milestone.name,
    description: milestone.content,
    state: milestone.is_closed ? 'closed' : 'open',
    open_issues: milestone.num_issues - milestone.num_closed_issues,
    closed_issues: milestone.num_closed_issues,
    created_at: isoTime(milestone.created_unix),
    updated_at: isoTime(milestone.updated_unix),
    closed_at: milestone.is_closed ? isoTime(milestone.closed_date_unix) : null,
    due_on: milestone.deadline_unix > 0 ? isoTime(milestone.deadline_unix) : null,
  };
}
