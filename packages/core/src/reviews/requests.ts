/**
 * Review requests (`POST|DELETE …/pulls/{index}/requested_reviewers`): users and teams asked for a review, each
 * request a review row of type `request` with a `review_request` timeline entry.
 */
import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { AccessPort } from '../access/index.js';
import { CommentsPort } from '../timeline/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { OrgsPort } from '../orgs/index.js';
import type { Team } from '../orgs/index.js';
import type { Pull } from '../pulls/index.js';
import type { RepoAccess } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import { isOrganization, type User } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import { signedIn, unprocessable } from './guards.js';
import { isOfficialReviewer, isOfficialTeam, permissionsOf, reviewRuleOf } from './officials.js';
import { PullReviewRequestOptionsSchema, type PullReviewRequestOptions } from './schemas.js';
import { ReviewsStore } from './store.js';
import { REVIEW_TYPES, type Review } from './tables.js';

/** Most reviewers and teams one request may name. */
const MAX_REVIEWERS_PER_REQUEST = 100;

export class ReviewRequestsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): ReviewsStore {
    return this.ctx.store(ReviewsStore);
  }

  /**
   * Asks users and teams for a review, or withdraws the requests (`POST|DELETE …/requested_reviewers`). Every name
   * is checked before anything changes (404 for an unknown account or team, 422 for one that may not be asked);
   * each change leaves a `review_request` timeline entry. Returns the requests made.
   */
  async request(actor: Actor, access: RepoAccess, pull: Pull, input: PullReviewRequestOptions, add: boolean): Promise<Review[]> {
    const doer = signedIn(actor, access);
    const opts = acceptInput(PullReviewRequestOptionsSchema, input);
    const names = [...new Set(opts.reviewers ?? [])];
    const teamNames = isOrganization(access.owner) ? [...new Set(opts.team_reviewers ?? [])] : [];
    if (names.length + teamNames.length > MAX_REVIEWERS_PER_REQUEST) throw new ValidationError('reviewers', `at most ${MAX_REVIEWERS_PER_REQUEST} reviewers`);
    const usersPort = this.ctx.port(UsersPort);
    const [byEmail, byName] = await Promise.all([
      usersPort.byEmails(names.filter((n) => n.includes('@'))),
      usersPort.byLowerNames(names.filter((n) => !n.includes('@')).map((n) => n.toLowerCase())),
    ]);
    const namedUsers = new Map(byName.map((u) => [u.lower_name, u]));
    const reviewers: User[] = [];
    for (const name of names) {
      const user = name.includes('@') ? byEmail.get(name.toLowerCase()) : namedUsers.get(name.toLowerCase());
      if (!user) throw new NotFoundError(`User '${name}' not exist`);
      if (!reviewers.some((r) => r.id === user.id)) reviewers.push(user);
    }
    const teams: Team[] = [];
    for (const name of teamNames) {
      const team = await this.ctx.port(OrgsPort).teamByName(access.owner.id, name);
      if (!team) throw new NotFoundError(`Team '${name}' not exist`);
      if (!teams.some((t) => t.id === team.id)) teams.push(team);
    }
    const mayChange = await this.mayChangeRequests(doer, access, pull);
    const permissions = await permissionsOf(this.ctx, access, reviewers);
    const standings = new Map<number, Review | undefined>();
    for (const reviewer of reviewers) standings.set(reviewer.id, await this.store.standingOf(pull.issue.id, reviewer.id));
    const invalid = (reason: string) => unprocessable(`${reason} [user_id: ${doer.id}, repo_id: ${access.repo.id}]`);
    for (const reviewer of reviewers) {
      if (isOrganization(reviewer)) throw invalid("Organization can't be added as reviewer");
      const last = standings.get(reviewer.id);
      if (add) {
        const permission = permissions.get(reviewer.id);
        if (!permission || unitMode(permission, 'repo.pulls') < AccessMode.Read || reviewer.is_active !== 1) throw invalid("Reviewer can't read");
        if (reviewer.id === pull.issue.poster_id && pull.issue.original_author_id === 0) throw invalid("poster of pr can't be reviewer");
        if (mayChange) continue;
        if (doer.id === pull.issue.poster_id && pull.issue.original_author_id === 0 && last !== undefined && last.type !== REVIEW_TYPES.request) continue;
        throw invalid("Doer can't choose reviewer");
      }
      if (mayChange) continue;
      if (last?.type === REVIEW_TYPES.request && last.reviewer_id === doer.id) continue;
      throw invalid("Doer can't remove reviewer");
    }
    for (const team of teams) {
      if (add && access.repo.is_private === 1 && !(await this.ctx.port(OrgsPort).teamHasRepo(team, access.repo))) throw invalid("Reviewing team can't read repo");
      if (!mayChange) throw invalid(add ? "Doer can't choose reviewer" : "Doer can't remove reviewer");
    }
    if (add && (pull.issue.is_closed === 1 || pull.pull.has_merged === 1) && reviewers.length + teams.length > 0) {
      throw new ForbiddenError("can't request review for a closed or merged PR");
    }
    const officials = new Map<number, boolean>();
    for (const reviewer of reviewers) officials.set(reviewer.id, await isOfficialReviewer(this.ctx, access, pull.pull, reviewer));
    const doerOfficial = teams.length > 0 ? await isOfficialReviewer(this.ctx, access, pull.pull, doer) : false;
    const rule = teams.length > 0 ? await reviewRuleOf(this.ctx, pull.pull) : undefined;

    return this.ctx.transaction(async (tx) => {
      const reviews = tx.store(ReviewsStore);
      const comments = tx.port(CommentsPort);
      const made: Review[] = [];
      const base = { actor, repo: access.repo, owner: access.owner, issue: pull.issue, pull: pull.pull };
      for (const reviewer of reviewers) {
        const last = await reviews.standingOf(pull.issue.id, reviewer.id);
        const official = officials.get(reviewer.id) === true;
        if (add) {
          // Asked already: nothing changes.
          if (last?.type === REVIEW_TYPES.request) continue;
          if (official) await reviews.clearOfficial(pull.issue.id, { reviewerId: reviewer.id });
          const review = await reviews.insert({ type: REVIEW_TYPES.request, reviewer_id: reviewer.id, issue_id: pull.issue.id, official: official ? 1 : 0 });
          const comment = await comments.record({ type: COMMENT_TYPES.review_request, poster_id: doer.id, issue_id: pull.issue.id, assignee_id: reviewer.id, review_id: review.id });
          made.push(review);
          tx.emit('pull.review_requested', { ...base, requestedReviewer: reviewer, requestedTeam: null, removed: false, comment });
        } else {
          if (last?.type !== REVIEW_TYPES.request) continue;
          await reviews.delete(last.id);
          if (official) await reviews.restoreOfficial(pull.issue.id, reviewer.id);
          const comment = await comments.record({ type: COMMENT_TYPES.review_request, poster_id: doer.id, issue_id: pull.issue.id, assignee_id: reviewer.id, removed_assignee: 1 });
          tx.emit('pull.review_requested', { ...base, requestedReviewer: reviewer, requestedTeam: null, removed: true, comment });
        }
      }
      for (const team of teams) {
        const existing = await reviews.teamRequestOf(pull.issue.id, team.id);
        if (add) {
          if (existing) continue;
          const official = isOfficialTeam(rule, team) || doerOfficial;
          if (official) await reviews.clearOfficial(pull.issue.id, { teamId: team.id });
          const review = await reviews.insert({ type: REVIEW_TYPES.request, reviewer_team_id: team.id, issue_id: pull.issue.id, official: official ? 1 : 0 });
          const comment = await comments.record({ type: COMMENT_TYPES.review_request, poster_id: doer.id, issue_id: pull.issue.id, assignee_team_id: team.id, review_id: review.id });
          made.push(review);
          tx.emit('pull.review_requested', { ...base, requestedReviewer: null, requestedTeam: team, removed: false, comment });
        } else {
          if (!existing) continue;
          await reviews.delete(existing.id);
          const comment = await comments.record({ type: COMMENT_TYPES.review_request, poster_id: doer.id, issue_id: pull.issue.id, assignee_team_id: team.id, removed_assignee: 1 });
          tx.emit('pull.review_requested', { ...base, requestedReviewer: null, requestedTeam: team, removed: true, comment });
        }
      }
      return made;
    });
  }

  /**
   * Forgejo's CanDoerChangeReviewRequests: the pull request's poster, the repository's owner, its collaborators,
   * and members of its organization's teams that read pull requests.
   */
  private async mayChangeRequests(doer: User, access: RepoAccess, pull: Pull): Promise<boolean> {
    if (doer.id === pull.issue.poster_id || doer.id === access.owner.id) return true;
    const grants = (await this.ctx.port(AccessPort).grantsOfUsers([doer.id], access.repo.id, access.owner.id)).get(doer.id);
    if (!grants || grants.mode === AccessMode.None) return false;
    return grants.units ? (grants.units['repo.pulls'] ?? AccessMode.None) >= AccessMode.Read : true;
  }
}
