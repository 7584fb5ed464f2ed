/**
 * The workflow model of Actions (src/actions/workflows): reading workflow files as Forgejo does, the trigger rules
 * of Forgejo's `detectMatched`, GitHub's filter patterns (act's workflowpattern cases and GitHub's cheat sheet), the
 * matrix expansion and the single-job payloads of act's jobparser, schedules, and the bounds that keep a hostile
 * file cheap. Pure functions: no host.
 */
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  compileFilterPatterns,
  dispatchInputs,
  FilterPattern,
  FilterPatternError,
  ignoresAll,
  interpolateMatrix,
  matchesDispatch,
  matchesEvent,
  matchesPullRequest,
  matchesPush,
  nextScheduleTime,
  parseWorkflow,
  planJobs,
  resolveDispatchInputs,
  scheduleSpecs,
  skipsAll,
  type Workflow,
} from '../src/actions/workflows/index.js';

const JOB = 'jobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n';

function workflow(text: string): Workflow {
  const parsed = parseWorkflow(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.workflow;
}

/** A workflow whose `on:` is `on` (YAML text, indented under the key). */
const withOn = (on: string) => workflow(`on:\n${on}\n${JOB}`);

function refusal(text: string): string {
  const parsed = parseWorkflow(text);
  return parsed.ok ? 'accepted' : parsed.error;
}

describe('the forms of on', () => {
  it('a string, a list and a map', () => {
    const one = workflow(`on: push\n${JOB}`);
    expect(one.on.form).toBe('string');
    expect(one.on.events.map((e) => e.name)).toEqual(['push']);
    const list = workflow(`on: [push, pull_request]\n${JOB}`);
    expect(list.on.form).toBe('list');
    expect(list.on.events.map((e) => e.name)).toEqual(['push', 'pull_request']);
    const map = withOn('  push:\n    branches: [main, "releases/**"]\n    paths: docs/**\n  pull_request:\n  workflow_dispatch:');
    expect(map.on.form).toBe('map');
    expect(map.on.events.map((e) => e.name)).toEqual(['push', 'pull_request', 'workflow_dispatch']);
    expect([...map.on.events[0]!.filters]).toEqual([
      ['branches', ['main', 'releases/**']],
      ['paths', ['docs/**']],
    ]);
    expect(map.on.events[1]!.filters.size).toBe(0);
  });

  it('YAML 1.1 reads the key on as true: it is still the triggers', () => {
    const old = workflow(`%YAML 1.1\n---\non: push\n${JOB}`);
    expect(old.on.events.map((e) => e.name)).toEqual(['push']);
    expect(matchesPush(old, { ref: 'refs/heads/main' })).toBe(true);
    // The payload names it `on` again.
    const plan = planJobs(old);
    expect(plan.ok && parseYaml(plan.jobs[0]!.payload).on).toBe('push');
  });

  it('refuses what act refuses', () => {
    expect(refusal(JOB)).toMatch(/no "on" key/);
    expect(refusal(`on: [push, {a: b}]\n${JOB}`)).toMatch(/invalid type/);
    expect(refusal(`on:\n  push: [main]\n${JOB}`)).toMatch(/unknown on type/);
    expect(refusal(`on:\n  push:\n    branches: {a: b}\n${JOB}`)).toMatch(/unknown on type/);
    expect(refusal('on: push\n')).toMatch(/no jobs/);
    expect(refusal('on: push\njobs:\n  a: [1]\n')).toMatch(/jobs\.a: a job must be a mapping/);
  });

  it('a file that is not YAML answers with the line, as Go yaml errors do', () => {
    const error = refusal('on: push\njobs:\n  build:\n    runs-on: [a\n  x: y\n');
    expect(error).toMatch(/^yaml: line \d+: /);
    expect(refusal('on: push\non: pull_request\n' + JOB)).toMatch(/^yaml: line 2: Map keys must be unique/);
  });

  it('reads name, env, jobs in file order with their needs, labels, condition and outputs', () => {
    const w = workflow(`name: CI
on: push
env:
  A: 1
jobs:
  zeta:
    runs-on: [self-hosted, linux]
    outputs:
      out: \${{ steps.s.outputs.x }}
  2:
    needs: zeta
    runs-on:
      group: big
      labels: docker
    if: github.ref == 'refs/heads/main'
  alpha:
    needs: [zeta, "2"]
    uses: ./.forgejo/workflows/reusable.yml
`);
    expect(w.name).toBe('CI');
    expect(w.env).toEqual({ A: '1' });
    expect(w.jobs.map((j) => j.id)).toEqual(['zeta', '2', 'alpha']);
    expect(w.jobs[0]!.runsOn).toEqual(['self-hosted', 'linux']);
    expect(w.jobs[0]!.outputs).toEqual({ out: '${{ steps.s.outputs.x }}' });
    expect(w.jobs[1]!).toMatchObject({ needs: ['zeta'], runsOn: ['docker', 'big'], if: "github.ref == 'refs/heads/main'" });
    expect(w.jobs[2]!).toMatchObject({ needs: ['zeta', '2'], runsOn: [] });
    expect(w.jobs[2]!.raw.uses).toBe('./.forgejo/workflows/reusable.yml');
  });
});

/** act's workflowpattern table: patterns, inputs, Skip's answer, Filter's answer. */
const ACT_CASES: [string[], string[], boolean, boolean][] = [
  [['*'], ['path/with/slash'], true, false],
  [['path/a', 'path/b', 'path/c'], ['meta', 'path/b', 'otherfile'], false, false],
  [['path/a', 'path/b', 'path/c'], ['path/b'], false, true],
  [['path/a', 'path/b', 'path/c'], ['path/c', 'path/b'], false, true],
  [['path/a', 'path/b', 'path/c'], ['path/c', 'path/b', 'path/d', 'path/a'], false, false],
  [[], [], false, false],
  [['\\!file'], ['!file'], false, true],
  [['escape\\\\backslash'], ['escape\\backslash'], false, true],
  [['.yml'], ['fyml'], true, false],
  // GitHub's cheat sheet: branches and tags.
  [['feature/*'], ['feature/my-branch'], false, true],
  [['feature/**'], ['feature/beta-a/my-branch'], false, true],
  [['feature/**'], ['feature/mona/the/octocat'], false, true],
  [['main', 'releases/mona-the-octocat'], ['releases/mona-the-octocat'], false, true],
  [['*'], ['main'], false, true],
  [['**'], ['all/the/branches'], false, true],
  [['*feature'], ['mona-feature'], false, true],
  [['*feature'], ['feature'], false, true],
  [['v2*'], ['v2'], false, true],
  [['v2*'], ['v2.9'], false, true],
  [['v[12].[0-9]+.[0-9]+'], ['v1.10.1'], false, true],
  [['v[12].[0-9]+.[0-9]+'], ['v2.0.0'], false, true],
  // GitHub's cheat sheet: paths.
  [['*'], ['README.md'], false, true],
  [['*.jsx?'], ['page.js'], false, true],
  [['*.jsx?'], ['page.jsx'], false, true],
  [['**'], ['all/the/files.md'], false, true],
  [['*.js'], ['app.js'], false, true],
  [['**.js'], ['src/js/app.js'], false, true],
  [['docs/*'], ['docs/README.md'], false, true],
  [['docs/**'], ['docs/mona/octocat.txt'], false, true],
  [['docs/**/*.md'], ['docs/README.md'], false, true],
  [['docs/**/*.md'], ['docs/a/markdown/file.md'], false, true],
  [['**/docs/**'], ['docs/hello.md'], false, true],
  [['**/docs/**'], ['space/docs/plan/space.doc'], false, true],
  [['**/README.md'], ['README.md'], false, true],
  [['**/README.md'], ['js/README.md'], false, true],
  [['**/*src/**'], ['a/src/app.js'], false, true],
  [['**/*src/**'], ['my-src/code/js/app.js'], false, true],
  [['**/*-post.md'], ['path/their-post.md'], false, true],
  [['**/migrate-*.sql'], ['db/sept/migrate-v1.sql'], false, true],
  [['*.md', '!README.md'], ['hello.md'], false, true],
  [['*.md', '!README.md'], ['README.md'], true, true],
  [['*.md', '!README.md'], ['docs/hello.md'], true, true],
  [['*.md', '!README.md', 'README*'], ['README.md'], false, true],
  [['*.md', '!README.md', 'README*'], ['README.doc'], false, true],
];

describe('filter patterns', () => {
  it.each(ACT_CASES)('%j on %j: skip %s, filter %s', (patterns, inputs, skip, filter) => {
    const compiled = compileFilterPatterns(patterns);
    expect(skipsAll(compiled, inputs)).toBe(skip);
    expect(ignoresAll(compiled, inputs)).toBe(filter);
  });

  it('the negative cases of the cheat sheet do not match', () => {
    const no = (pattern: string, name: string) => expect(FilterPattern.compile(pattern).match(name), `${pattern} ~ ${name}`).toBe(false);
    no('feature/*', 'feature/beta-a/my-branch');
    no('*', 'docs/file.txt');
    no('*.js', 'src/app.js');
    no('docs/*', 'docs/mona/octocat.txt');
    no('v[12].[0-9]+.[0-9]+', 'v3.0.0');
    no('v[12].[0-9]+.[0-9]+', 'v1.x.0');
    no('*.jsx?', 'page.jsxx');
    no('**/docs/**', 'mydocs/file');
    no('**/migrate-*.sql', 'db/migrate-v1.sql.bak');
    no('.yml', 'fyml');
  });

  it('? and + repeat the character, class or star before them', () => {
    const yes = (pattern: string, name: string) => expect(FilterPattern.compile(pattern).match(name), `${pattern} ~ ${name}`).toBe(true);
    yes('ab?c', 'ac');
    yes('ab?c', 'abc');
    yes('ab+c', 'abbbc');
    expect(FilterPattern.compile('ab+c').match('ac')).toBe(false);
    yes('[a-c]+x', 'abcabcx');
    yes('?x', '?x'); // a leading ? is the character
    yes('a*?', 'abc'); // a lazy star: the same names
  });

  it('refuses what act refuses', () => {
    for (const bad of ['a[]', 'a[bc', 'x\\', '[a-#]', '[%]', 'a++', 'a*+']) {
      expect(() => FilterPattern.compile(bad), bad).toThrow(FilterPatternError);
    }
    expect(() => FilterPattern.compile('a[]')).toThrow("invalid Pattern 'a[]': Position: 2 Error: Unexpected empty brackets '[]'");
  });

  it('takes steps linear in the name: a pathological pattern against a long name', () => {
    // No plain text to refuse the name by (a class last, `a` everywhere in the name): the automaton must run.
    const source = `${'**a'.repeat(20)}[b]`;
    const stepsFor = (n: number) => {
      const { matched, steps } = FilterPattern.compile(source).run('a'.repeat(n));
      expect(matched).toBe(false);
      return steps;
    };
    const short = stepsFor(5_000);
    const long = stepsFor(20_000);
    // Four times the name, at most four times the steps (a backtracking engine would take exponentially more).
    expect(long).toBeGreaterThan(20_000);
    expect(long / short).toBeLessThan(4.2);
    // And bounded by name × automaton: at most 4 visits per state per character (61 elements, ≤ 4 states each).
    expect(long).toBeLessThanOrEqual(20_001 * 4 * (4 * 61 + 1));
  });

  it('stays right and linear when the deterministic states outgrow their cache', () => {
    // `**a[ab]…[ab]`: the tenth character from the end is an a; its deterministic automaton has 2^11 states.
    const pattern = FilterPattern.compile(`**a${'[ab]'.repeat(10)}`);
    let seed = 7;
    const name = Array.from({ length: 30_000 }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) & 1024 ? 'a' : 'b')).join('');
    for (const end of [29_000, 29_500, 30_000]) {
      const text = name.slice(0, end);
      const { matched, steps } = pattern.run(text);
      expect(matched, `${end}`).toBe(text[text.length - 11] === 'a');
      expect(steps).toBeLessThanOrEqual((end + 1) * 4 * (4 * 11 + 1));
    }
    expect(pattern.match('xab')).toBe(false);
    expect(pattern.match('aaaaaaaaaaa')).toBe(true);
  });

  it('plain text in a pattern refuses most names before the automaton runs', () => {
    expect(FilterPattern.compile('src/**/*.ts').run(`lib/${'x/'.repeat(10_000)}a.ts`)).toEqual({ matched: false, steps: 1 });
    expect(FilterPattern.compile('**/*.ts').run(`src/${'x/'.repeat(10_000)}a.js`)).toEqual({ matched: false, steps: 1 });
    expect(FilterPattern.compile('**/docs/**').run(`src/${'x/'.repeat(10_000)}a.js`)).toEqual({ matched: false, steps: 1 });
  });
});

describe('push', () => {
  const push = (on: string, ref: string, changedFiles?: string[]) => matchesPush(withOn(on), { ref, changedFiles });

  it('no filters: every push; another event: none', () => {
    expect(matchesPush(workflow(`on: push\n${JOB}`), { ref: 'refs/heads/x' })).toBe(true);
    expect(matchesPush(workflow(`on: pull_request\n${JOB}`), { ref: 'refs/heads/x' })).toBe(false);
    expect(matchesPush(workflow(`on: push\n${JOB}`), { ref: 'refs/heads/x', deleted: true })).toBe(false);
  });

  it('branches and branches-ignore', () => {
    const on = '  push:\n    branches: [main, "releases/**", "!releases/**-alpha"]';
    expect(push(on, 'refs/heads/main')).toBe(true);
    expect(push(on, 'refs/heads/releases/1.0')).toBe(true);
    expect(push(on, 'refs/heads/releases/1.0-alpha')).toBe(false);
    expect(push(on, 'refs/heads/feature')).toBe(false);
    const ignore = '  push:\n    branches-ignore: ["dependabot/**"]';
    expect(push(ignore, 'refs/heads/main')).toBe(true);
    expect(push(ignore, 'refs/heads/dependabot/npm/x')).toBe(false);
  });

  it('branch filters alone refuse tags, tag filters alone refuse branches; both: either kind', () => {
    const branches = '  push:\n    branches: ["**"]';
    expect(push(branches, 'refs/heads/main')).toBe(true);
    expect(push(branches, 'refs/tags/v1')).toBe(false);
    const tags = '  push:\n    tags: ["v*"]';
    expect(push(tags, 'refs/tags/v1')).toBe(true);
    expect(push(tags, 'refs/tags/x1')).toBe(false);
    expect(push(tags, 'refs/heads/main')).toBe(false);
    const tagsIgnore = '  push:\n    tags-ignore: ["v*"]';
    expect(push(tagsIgnore, 'refs/tags/nightly')).toBe(true);
    expect(push(tagsIgnore, 'refs/tags/v2')).toBe(false);
    const both = '  push:\n    branches: [main]\n    tags: ["v*"]';
    expect(push(both, 'refs/heads/main')).toBe(true);
    expect(push(both, 'refs/tags/v1')).toBe(true);
    expect(push(both, 'refs/heads/dev')).toBe(false);
    expect(push(both, 'refs/tags/x')).toBe(false);
  });

  it('a filter with its -ignore twin is an error: nothing matches', () => {
    expect(push('  push:\n    branches: [main]\n    branches-ignore: [dev]', 'refs/heads/main')).toBe(false);
    expect(push('  push:\n    paths: [a]\n    paths-ignore: [b]', 'refs/heads/main', ['a'])).toBe(false);
  });

  it('paths and paths-ignore, with and without the changed files', () => {
    const paths = '  push:\n    paths: ["src/**", "!src/**/*.md"]';
    expect(push(paths, 'refs/heads/main', ['src/a.ts'])).toBe(true);
    expect(push(paths, 'refs/heads/main', ['src/doc/x.md'])).toBe(false);
    expect(push(paths, 'refs/heads/main', ['README.md', 'src/b.ts'])).toBe(true);
    expect(push(paths, 'refs/heads/main', ['README.md'])).toBe(false);
    expect(push(paths, 'refs/heads/main')).toBe(true); // unknown: the filter cannot refuse
    expect(push(paths, 'refs/tags/v1', ['README.md'])).toBe(true); // paths do not apply to tags
    const ignore = '  push:\n    paths-ignore: ["docs/**", "*.md"]';
    expect(push(ignore, 'refs/heads/main', ['docs/a.md', 'README.md'])).toBe(false);
    expect(push(ignore, 'refs/heads/main', ['docs/a.md', 'src/x.ts'])).toBe(true);
    const branchAndPaths = '  push:\n    branches: [main]\n    paths: ["src/**"]';
    expect(push(branchAndPaths, 'refs/heads/main', ['src/a'])).toBe(true);
    expect(push(branchAndPaths, 'refs/heads/dev', ['src/a'])).toBe(false);
    expect(push(branchAndPaths, 'refs/heads/main', ['lib/a'])).toBe(false);
  });

  it('an unknown filter or a pattern that does not compile: no match', () => {
    expect(push('  push:\n    types: [created]', 'refs/heads/main')).toBe(false);
    expect(push('  push:\n    branches: ["a[]"]', 'refs/heads/main')).toBe(false);
  });
});

describe('pull_request', () => {
  const pr = (on: string, action: string, baseBranch = 'main', changedFiles?: string[], event: 'pull_request' | 'pull_request_target' = 'pull_request') =>
    matchesPullRequest(withOn(on), { action, baseBranch, changedFiles }, event);

  it('default types: opened, synchronize, reopened', () => {
    for (const action of ['opened', 'synchronize', 'synchronized', 'reopened']) expect(pr('  pull_request:', action), action).toBe(true);
    for (const action of ['closed', 'edited', 'labeled']) expect(pr('  pull_request:', action), action).toBe(false);
  });

  it('types as written, globs included; Forgejo action names converted', () => {
    const on = '  pull_request:\n    types: [closed, "label*"]';
    expect(pr(on, 'closed')).toBe(true);
    expect(pr(on, 'label_updated')).toBe(true);
    expect(pr(on, 'opened')).toBe(false);
  });

  it('branches against the base branch, paths against the changed files', () => {
    const on = '  pull_request:\n    branches: [main, "release/*"]\n    paths: ["src/**"]';
    expect(pr(on, 'opened', 'main', ['src/a'])).toBe(true);
    expect(pr(on, 'opened', 'refs/heads/release/1', ['src/a'])).toBe(true);
    expect(pr(on, 'opened', 'dev', ['src/a'])).toBe(false);
    expect(pr(on, 'opened', 'main', ['docs/a'])).toBe(false);
    expect(pr(on, 'opened', 'main')).toBe(true);
    expect(pr(on, 'closed', 'main', ['src/a'])).toBe(false);
    expect(pr('  pull_request:\n    branches-ignore: [main]', 'opened', 'main')).toBe(false);
    expect(pr('  pull_request:\n    branches-ignore: [main]', 'opened', 'dev')).toBe(true);
  });

  it('pull_request_target is its own event', () => {
    expect(pr('  pull_request_target:', 'opened', 'main', undefined, 'pull_request_target')).toBe(true);
    expect(pr('  pull_request_target:', 'opened', 'main', undefined, 'pull_request')).toBe(false);
    expect(pr('  pull_request:', 'opened', 'main', undefined, 'pull_request_target')).toBe(false);
  });
});

describe('other events', () => {
  it('activity types where Forgejo checks them, names alone elsewhere', () => {
    const w = withOn('  issues:\n    types: [labeled, opened]\n  release:\n    types: [edited]\n  create:\n  registry_package:');
    expect(matchesEvent(w, 'issues', { action: 'opened' })).toBe(true);
    expect(matchesEvent(w, 'issues', { action: 'label_updated' })).toBe(true);
    expect(matchesEvent(w, 'issues', { action: 'closed' })).toBe(false);
    expect(matchesEvent(w, 'release', { action: 'updated' })).toBe(true);
    expect(matchesEvent(w, 'release', { action: 'published' })).toBe(false);
    expect(matchesEvent(w, 'create')).toBe(true);
    expect(matchesEvent(w, 'delete')).toBe(false);
    expect(matchesEvent(w, 'registry_package', { action: 'created' })).toBe(true);
    expect(matchesEvent(w, 'push', { ref: 'refs/heads/main' })).toBe(false);
    const review = withOn('  pull_request_review:\n    types: [submitted]');
    expect(matchesEvent(review, 'pull_request_review', { action: 'reviewed' })).toBe(true);
    expect(matchesEvent(review, 'pull_request_review', { action: 'dismissed' })).toBe(false);
  });
});

describe('workflow_dispatch', () => {
  const w = withOn(`  workflow_dispatch:
    inputs:
      env:
        description: Where
        type: choice
        required: true
        options: [staging, production]
        default: staging
      dry:
        type: boolean
        default: false
      version:
        required: true
      note:
        description: Free text`);

  it('lists the inputs', () => {
    expect(matchesDispatch(w)).toBe(true);
    expect(matchesDispatch(workflow(`on: push\n${JOB}`))).toBe(false);
    expect(dispatchInputs(w)).toEqual([
      { name: 'env', type: 'choice', required: true, default: 'staging', options: ['staging', 'production'], description: 'Where' },
      { name: 'dry', type: 'boolean', required: false, default: 'false', options: [], description: '' },
      { name: 'version', type: 'string', required: true, options: [], description: '' },
      { name: 'note', type: 'string', required: false, options: [], description: 'Free text' },
    ]);
    expect(matchesEvent(w, 'workflow_dispatch')).toBe(true);
  });

  it('fills defaults and refuses a missing required input and a choice outside its options', () => {
    expect(resolveDispatchInputs(w, { version: '1.2', other: 'x' })).toEqual({ ok: true, inputs: { env: 'staging', dry: 'false', version: '1.2' } });
    expect(resolveDispatchInputs(w, { version: '1', env: 'production', dry: 'true', note: 'n' })).toEqual({
      ok: true,
      inputs: { env: 'production', dry: 'true', version: '1', note: 'n' },
    });
    expect(resolveDispatchInputs(w, {})).toEqual({ ok: false, error: 'input "version" is required' });
    expect(resolveDispatchInputs(w, { version: '' })).toEqual({ ok: false, error: 'input "version" is required' });
    const choice = resolveDispatchInputs(w, { version: '1', env: 'qa' });
    expect(choice.ok).toBe(false);
    expect(!choice.ok && choice.error).toMatch(/"qa" is not one of its options/);
    expect(resolveDispatchInputs(w, { version: '1', dry: 'yes' }).ok).toBe(false);
  });
});

describe('schedule', () => {
  const at = (iso: string) => Date.parse(iso);
  const next = (spec: string, iso: string) => {
    const value = nextScheduleTime(spec, at(iso));
    return value === undefined ? undefined : new Date(value).toISOString();
  };

  it('lists the cron specs', () => {
    const w = withOn('  schedule:\n    - cron: "0 4 * * *"\n    - cron: "*/15 * * * 1-5"\n  push:');
    expect(scheduleSpecs(w)).toEqual(['0 4 * * *', '*/15 * * * 1-5']);
    expect(matchesEvent(w, 'schedule')).toBe(true);
    expect(scheduleSpecs(workflow(`on: push\n${JOB}`))).toEqual([]);
    expect(refusal(`on:\n  schedule:\n    - "0 4 * * *"\n${JOB}`)).toMatch(/on\.schedule/);
  });

  it('next times in UTC, strictly after', () => {
    expect(next('0 4 * * *', '2026-11-29T16:00:00Z')).toBe('2026-11-30T04:00:00.000Z');
    expect(next('0 4 * * *', '2026-11-30T03:59:59Z')).toBe('2026-11-30T04:00:00.000Z');
    expect(next('0 4 * * *', '2026-11-30T04:00:00Z')).toBe('2026-12-01T04:00:00.000Z');
    expect(next('*/15 * * * *', '2026-11-29T16:07:30Z')).toBe('2026-11-29T16:15:00.000Z');
    expect(next('30 2 1 JAN *', '2026-11-29T00:00:00Z')).toBe('2027-01-01T02:30:00.000Z');
    expect(next('0 0 * * MON', '2026-11-29T12:00:00Z')).toBe('2026-11-30T00:00:00.000Z'); // the 29th is a Sunday
    expect(next('@daily', '2026-11-29T16:00:00Z')).toBe('2026-11-30T00:00:00.000Z');
    expect(next('@every 1h30m', '2026-11-29T16:00:00.500Z')).toBe('2026-11-29T17:30:00.000Z');
    // Both day fields restricted: either may match (the 1st, or a Friday: 2026-12-04).
    expect(next('0 0 1 * 5', '2026-12-01T12:00:00Z')).toBe('2026-12-04T00:00:00.000Z');
    // The day of the week a star: the day of the month alone decides.
    expect(next('0 0 1 * *', '2026-12-01T12:00:00Z')).toBe('2027-01-01T00:00:00.000Z');
  });

  it('invalid specs and specs that never fire give undefined', () => {
    for (const spec of ['', '* * * *', '61 * * * *', '0 0 * * 7', 'a b c d e', '0 0 0 * *', '@every nope', 'TZ=Europe/Paris 0 0 * * *']) {
      expect(nextScheduleTime(spec, 0), spec).toBeUndefined();
    }
    expect(nextScheduleTime('0 0 30 2 *', 0)).toBeUndefined();
    expect(nextScheduleTime('TZ=UTC 0 0 * * *', at('2026-11-29T16:00:00Z'))).toBe(at('2026-11-30T00:00:00Z'));
  });
});

const MATRIX = `name: CI
on:
  push:
    branches: [main]
env:
  GLOBAL: yes
defaults:
  run:
    shell: bash
concurrency: ci-\${{ github.ref }}
jobs:
  test:
    runs-on: \${{ matrix.os }}
    strategy:
      fail-fast: false
      matrix:
        os: [linux, windows]
        version: [10, 12]
        exclude:
          - os: windows
            version: 10
        include:
          - os: windows
            version: 12
            experimental: true
          - os: macos
            version: 14
    steps: &steps
      - uses: actions/setup-python@v5
        with:
          python-version: 3.10
      - run: echo "\${{ matrix.os }}"
  named:
    name: Build on \${{ matrix.os }} \${{ github.sha }}
    needs: test
    runs-on: [self-hosted, "\${{ matrix.arch }}"]
    strategy:
      matrix:
        os: \${{ fromJSON(needs.test.outputs.oses) }}
        arch: [x64]
    steps: *steps
  plain:
    needs: [test, named]
    runs-on: linux
    steps:
      - run: make
`;

describe('jobs of a run', () => {
  it('expands include and exclude as act does and names the jobs after their values', () => {
    const w = workflow(MATRIX);
    const test = w.jobs[0]!;
    expect(test.combinations).toEqual([
      { os: 'linux', version: 10 },
      { os: 'linux', version: 12 },
      { os: 'windows', version: 12, experimental: true },
      { os: 'macos', version: 14 },
    ]);
    const plan = planJobs(w);
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.jobs.map((j) => [j.jobId, j.name, j.runsOn, j.needs])).toEqual([
      ['test', 'test (linux, 10)', ['linux'], []],
      ['test', 'test (linux, 12)', ['linux'], []],
      ['test', 'test (true, windows, 12)', ['windows'], []],
      ['test', 'test (macos, 14)', ['macos'], []],
      // A name is kept (matrix values resolved, other expressions as written); an expression value is one value.
      ['named', 'Build on ${{ fromJSON(needs.test.outputs.oses) }} ${{ github.sha }}', ['self-hosted', 'x64'], ['test']],
      ['plain', 'plain', ['linux'], ['test', 'named']],
    ]);
  });

  it('include-only matrices make one job per entry; without a matrix, one job', () => {
    const w = workflow(`on: push
jobs:
  a:
    runs-on: x
    strategy:
      matrix:
        include:
          - site: one
          - site: two
  b:
    runs-on: x
    strategy:
      matrix: \${{ fromJSON(inputs.m) }}
`);
    expect(w.jobs[0]!.combinations).toEqual([{ site: 'one' }, { site: 'two' }]);
    expect(w.jobs[1]!.combinations).toEqual([{}]);
    const plan = planJobs(w);
    expect(plan.ok && plan.jobs.map((j) => j.name)).toEqual(['a (one)', 'a (two)', 'b']);
  });

  it('each payload is a single-job workflow with the one combination, the rest as written', () => {
    const plan = planJobs(workflow(MATRIX));
    if (!plan.ok) throw new Error(plan.error);
    const third = parseYaml(plan.jobs[2]!.payload);
    expect(Object.keys(third)).toEqual(['name', 'on', 'env', 'jobs', 'defaults', 'concurrency']);
    expect(third.name).toBe('CI');
    expect(third.on).toEqual({ push: { branches: ['main'] } });
    expect(third.env).toEqual({ GLOBAL: 'yes' });
    expect(third.defaults).toEqual({ run: { shell: 'bash' } });
    expect(third.concurrency).toBe('ci-${{ github.ref }}');
    expect(Object.keys(third.jobs)).toEqual(['test']);
    const job = third.jobs.test;
    expect(job.name).toBe('test (true, windows, 12)');
    expect(job['runs-on']).toBe('windows');
    expect(job.strategy).toEqual({ 'fail-fast': false, matrix: { os: ['windows'], version: [12], experimental: [true] } });
    expect(job.steps[1]).toEqual({ run: 'echo "${{ matrix.os }}"' });
    // Scalars stay as written: 3.10 is not 3.1.
    expect(plan.jobs[2]!.payload).toContain('python-version: 3.10');

    // Parsed again, the payload is one job of one combination.
    const again = parseWorkflow(plan.jobs[2]!.payload);
    if (!again.ok) throw new Error(again.error);
    expect(again.workflow.jobs).toHaveLength(1);
    expect(again.workflow.jobs[0]!.combinations).toEqual([{ os: 'windows', version: 12, experimental: true }]);
    const replanned = planJobs(again.workflow);
    expect(replanned.ok && replanned.jobs.map((j) => [j.name, j.runsOn])).toEqual([['test (true, windows, 12)', ['windows']]]);

    // Aliased steps are copied in full; a job without a matrix has no strategy left.
    const named = parseYaml(plan.jobs[4]!.payload).jobs.named;
    expect(named.steps).toEqual(parseYaml(plan.jobs[0]!.payload).jobs.test.steps);
    expect(named.strategy).toEqual({ matrix: { os: ['${{ fromJSON(needs.test.outputs.oses) }}'], arch: ['x64'] } });
    expect(named['runs-on']).toEqual(['self-hosted', 'x64']);
    const plain = parseYaml(plan.jobs[5]!.payload).jobs.plain;
    expect(plain).toEqual({ name: 'plain', needs: ['test', 'named'], 'runs-on': 'linux', steps: [{ run: 'make' }] });
  });

  it('merge keys are written out in the payload, keys of the job itself winning', () => {
    const w = workflow(`on: push
x-defaults: &defaults
  runs-on: linux
  timeout-minutes: 5
  strategy:
    matrix:
      node: [18, 20]
jobs:
  a:
    <<: *defaults
    timeout-minutes: 9
    steps:
      - run: npm test
`);
    expect(w.jobs[0]!).toMatchObject({ runsOn: ['linux'], combinations: [{ node: 18 }, { node: 20 }] });
    const plan = planJobs(w);
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.jobs[1]!.payload).not.toContain('<<');
    expect(parseYaml(plan.jobs[1]!.payload).jobs.a).toEqual({
      name: 'a (20)',
      'runs-on': 'linux',
      'timeout-minutes': 9,
      strategy: { matrix: { node: [20] } },
      steps: [{ run: 'npm test' }],
    });
  });

  it('payloads keep block scalars, flow mappings, quoting and comments readable as the original', () => {
    const text = `# CI
on: push
jobs:
  # the build
  "2": {runs-on: x, steps: [{run: "a: b"}]}
  lint:
    runs-on: x
    strategy:
      matrix:
        v: ["1.10", 1.10]
    steps:
      - name: multi
        run: |
          echo one

            indented

          echo "\${{ matrix.v }}"
      - run: >-
          folded
          text
      - uses: a/b@v1
        with: { key: "value # not a comment", n: 007 }
`;
    const w = workflow(text);
    const plan = planJobs(w);
    if (!plan.ok) throw new Error(plan.error);
    const original = parseYaml(text);
    for (const job of plan.jobs) {
      const payload = parseYaml(job.payload);
      const { name, 'runs-on': runsOn, strategy, ...rest } = payload.jobs[job.jobId];
      const { name: _n, 'runs-on': _r, strategy: _s, ...written } = original.jobs[job.jobId];
      expect(rest, job.name).toEqual(written);
      expect([name, runsOn]).toEqual([job.name, 'x']);
      if (job.jobId === 'lint') expect(strategy.matrix.v).toHaveLength(1);
    }
    expect(plan.jobs.map((j) => j.name)).toEqual(['2', 'lint (1.10)', 'lint (1.1)']);
  });

  it('refuses needs naming no job, and cycles', () => {
    const needs = (jobs: string) => planJobs(workflow(`on: push\njobs:\n${jobs}`));
    expect(needs('  a:\n    runs-on: x\n    needs: b\n')).toEqual({ ok: false, error: "Job 'a' depends on unknown job 'b'." });
    const cycle = needs('  a:\n    runs-on: x\n    needs: c\n  b:\n    runs-on: x\n    needs: a\n  c:\n    runs-on: x\n    needs: b\n');
    expect(cycle.ok).toBe(false);
    expect(!cycle.ok && cycle.error).toMatch(/creates a cycle in the dependency graph/);
    expect(needs('  a:\n    runs-on: x\n    needs: a\n').ok).toBe(false);
    expect(needs('  a:\n    runs-on: x\n  b:\n    runs-on: x\n    needs: a\n  c:\n    runs-on: x\n    needs: [a, b]\n').ok).toBe(true);
  });

  it('interpolates matrix values only', () => {
    expect(interpolateMatrix('${{ matrix.os }}-${{matrix.v}}-${{ matrix.none }}-${{ github.x }}', { os: 'linux', v: 1.5 })).toBe(
      'linux-1.5--${{ github.x }}',
    );
  });
});

describe('bounds', () => {
  it('a file over 256 KiB is refused', () => {
    const big = `on: push\n${JOB}# ${'x'.repeat(256 * 1024)}\n`;
    expect(refusal(big)).toMatch(/too large/);
  });

  it('an alias bomb is refused, not expanded', () => {
    let bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    const letters = 'bcdefghi';
    for (let i = 0; i < letters.length; i++) {
      const prev = i === 0 ? 'a' : letters[i - 1];
      bomb += `${letters[i]}: &${letters[i]} [${Array(9).fill(`*${prev}`).join(',')}]\n`;
    }
    const error = refusal(`on: push\n${bomb}${JOB}`);
    expect(error).toMatch(/^yaml: .*alias/i);
  });

  it('too many jobs, steps or combinations', () => {
    const jobs = Array.from({ length: 257 }, (_, i) => `  j${i}:\n    runs-on: x\n`).join('');
    expect(refusal(`on: push\njobs:\n${jobs}`)).toMatch(/257 jobs \(at most 256\)/);
    const steps = Array.from({ length: 101 }, () => '      - run: x\n').join('');
    expect(refusal(`on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n${steps}`)).toMatch(/101 steps \(at most 100\)/);
    const values = `[${Array.from({ length: 17 }, (_, i) => i).join(',')}]`;
    const matrix = (extra = '') => `on: push\njobs:\n  a:\n    runs-on: x\n    strategy:\n      matrix:\n        x: ${values}\n        y: ${values}\n${extra}`;
    expect(refusal(matrix())).toMatch(/289 combinations \(at most 256\)/);
    // Excluding brings it under the bound: 17 × 17 - 17 × 2 = 255.
    expect(refusal(matrix('        exclude:\n          - x: 0\n          - x: 1\n'))).toBe('accepted');
    const huge = `on: push\njobs:\n  a:\n    runs-on: x\n    strategy:\n      matrix:\n${['a', 'b', 'c', 'd'].map((k) => `        ${k}: ${values}\n`).join('')}`;
    expect(refusal(huge)).toMatch(/combinations/);
  });

  it('more jobs in all than a run may have', () => {
    const values = `[${Array.from({ length: 16 }, (_, i) => i).join(',')}]`;
    const job = (i: number) => `  j${i}:\n    runs-on: x\n    strategy:\n      matrix:\n        x: ${values}\n        y: ${values}\n`;
    const w = workflow(`on: push\njobs:\n${[0, 1, 2, 3, 4].map(job).join('')}`);
    const plan = planJobs(w);
    expect(plan).toEqual({ ok: false, error: 'the workflow has 1280 jobs with its matrices (at most 1024)' });
  });
});
