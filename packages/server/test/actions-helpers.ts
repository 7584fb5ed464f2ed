/**
 * What the Actions tests share: the Go runner client of `fixtures/actions-runner` (built by `.ci/run`; the tests that
 * need it skip without it), and a kit bound to a test server that makes repositories, commits workflow files,
 * registers runners and waits for the runs a push starts (detection is a background job).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { TEST_BIN, findExecutable, jsonInit, type TestServer } from '@repohost/test-support';
import { json, uniq, type Account } from './helpers';

const execFileAsync = promisify(execFile);

/** The runner client, where `.ci/run` builds it (or on PATH). */
export const RUNNER = findExecutable('actions-runner', [TEST_BIN, 'PATH']);

/** What the runner client printed (one JSON object per line) and its exit code. */
export interface RunnerOutput {
  code: number;
  lines: any[];
  stderr: string;
}

/** Runs the runner client with `args`. */
export async function runner(args: string[]): Promise<RunnerOutput> {
  try {
    const { stdout, stderr } = await execFileAsync(RUNNER!, args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, lines: parseLines(stdout), stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, lines: parseLines(failed.stdout ?? ''), stderr: failed.stderr ?? '' };
  }
}

function parseLines(stdout: string): any[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/** A registered runner's credentials, as `register` prints them. */
export interface RegisteredTestRunner {
  uuid: string;
  token: string;
  id: number;
}

export function actionsKit(server: () => TestServer) {
  const s = () => server();
  const kit = {
    /** A new repository of `who` with a first commit on `main`. */
    async createRepo(who: Account, isPrivate = false): Promise<string> {
      const name = uniq('wf');
      const res = await s().fetch('/api/v1/user/repos', jsonInit('POST', { name, private: isPrivate, auto_init: true, default_branch: 'main' }, who.h));
      expect(res.status, await res.clone().text()).toBe(201);
      return `${who.name}/${name}`;
    },

    /** Commits a new file on `branch` (default: the default branch); the commit's id. */
    async putFile(repo: string, who: Account, file: string, content: string, branch?: string): Promise<string> {
      const body = { content: Buffer.from(content).toString('base64'), message: `add ${file}`, ...(branch && { new_branch: branch }) };
      const res = await s().fetch(`/api/v1/repos/${repo}/contents/${file}`, jsonInit('POST', body, who.h));
      expect(res.status, await res.clone().text()).toBe(201);
      return (await json<{ commit: { sha: string } }>(res)).commit.sha;
    },

    async registrationToken(repo: string, who: Account): Promise<string> {
      const res = await s().fetch(`/api/v1/repos/${repo}/actions/runners/registration-token`, { headers: who.h });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await json<{ token: string }>(res)).token;
    },

    /** A runner of the repository, registered and declared with `labels` by the runner client. */
    async registerRunner(repo: string, who: Account, labels = 'ubuntu-latest,self-hosted'): Promise<RegisteredTestRunner> {
      const out = await runner(['register', '-instance', s().url, '-token', await kit.registrationToken(repo, who), '-name', uniq('runner'), '-labels', labels]);
      expect(out.code, out.stderr).toBe(0);
      return out.lines[0];
    },

    /** Polls the run list until it holds `count` runs; the newest first. */
    async waitForRuns(repo: string, who: Account | undefined, count: number): Promise<any[]> {
      for (let i = 0; i < 200; i++) {
        const res = await s().fetch(`/api/v1/repos/${repo}/actions/runs`, { headers: who?.h ?? {} });
        expect(res.status).toBe(200);
        const body = await json<{ total_count: number; workflow_runs: any[] }>(res);
        // The count and the page are two queries; on PostgreSQL a run committed between them is counted but not yet
        // listed, so wait for the page itself.
        if (body.total_count >= count && body.workflow_runs.length >= count) return body.workflow_runs;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no ${count} runs in ${repo}`);
    },

    /** The jobs of a run, in order. */
    async jobs(repo: string, who: Account, runId: number): Promise<any[]> {
      const res = await s().fetch(`/api/v1/repos/${repo}/actions/runs/${runId}/jobs`, { headers: who.h });
      expect(res.status, await res.clone().text()).toBe(200);
      return json<any[]>(res);
    },
  };
  return kit;
}
