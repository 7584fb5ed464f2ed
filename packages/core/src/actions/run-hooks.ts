/**
 * Forgejo's webhooks of finished runs (`services/webhook/notifier.go` `ActionRunNowDone`): every run that becomes
 * done queues `action_run_success` or `action_run_failure` (cancelled and skipped runs are failures too, as there),
 * and a success after a run that was not one also `action_run_recover`. The `ActionPayload` is built and queued in
 * the transaction that finished the run, so the deliveries exist exactly when the finished run does.
 */
import type { CoreContext, CoreTransaction } from '../context.js';
import { AccessMode } from '../access/index.js';
import { ReposPort, type RepoAccess } from '../repos/index.js';
import { UsersPort, userActor } from '../users/index.js';
import { WebhooksService, type HookPayload } from '../webhooks/index.js';
import type { ApiView } from '../wire.js';
import { toApiActionRun } from './convert.js';
import { RunsStore } from './runs-store.js';
import { ActionStatus, isDone, statusName } from './status.js';
import './events.js';

export class RunHooks {
  constructor(private readonly ctx: CoreContext) {}

  /** Once per host. */
  subscribe(): void {
    this.ctx.events.withinTransaction('actions.run_done', ({ payload }, tx) => this.queue(tx, payload.runId, payload.priorStatus));
    // The tasks were written before commit; the delivery worker is told after it.
    this.ctx.events.on('actions.run_done', () => this.ctx.service(WebhooksService).wakeDelivery());
  }

  private async queue(tx: CoreTransaction, runId: number, priorStatus: number): Promise<void> {
    const store = tx.store(RunsStore);
    const run = await store.runById(runId);
    if (!run || !isDone(run.status)) return;
    const repo = await tx.port(ReposPort).byId(run.repo_id);
    if (!repo) return;
    const lastRun = await store.runFinishedBefore(run);
    const users = await tx.port(UsersPort).byIds([repo.owner_id, run.trigger_user_id, lastRun?.trigger_user_id ?? 0].filter((id) => id > 0));
    const owner = users.get(repo.owner_id);
    if (!owner) return;
    // Forgejo shows the run as the repository's owner sees it ("the one able to create webhooks"): owner access.
    const access: RepoAccess = { repo, owner, mode: AccessMode.Owner };
    const view: ApiView = { viewer: userActor(owner), settings: this.ctx.settings };
    const shown = toApiActionRun(run, access, users.get(run.trigger_user_id), view);
    const lastShown = lastRun ? toApiActionRun(lastRun, access, users.get(lastRun.trigger_user_id), view) : null;
    // Forgejo's `ActionPayload`, its fields in its order.
    const payload = (action: 'success' | 'recover' | 'failure'): HookPayload => ({
      action,
      run: shown,
      prior_status: statusName(priorStatus),
      last_run: lastShown,
    });
    const webhooks = this.ctx.service(WebhooksService);
    if (run.status === ActionStatus.Success) {
      await webhooks.enqueueRepoEvent(tx, repo, owner, 'action_run_success', () => payload('success'));
      if (lastRun && lastRun.status !== ActionStatus.Success) await webhooks.enqueueRepoEvent(tx, repo, owner, 'action_run_recover', () => payload('recover'));
    } else {
      await webhooks.enqueueRepoEvent(tx, repo, owner, 'action_run_failure', () => payload('failure'));
    }
  }
}
