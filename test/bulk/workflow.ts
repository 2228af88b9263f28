import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { spawnProcess } from '../helpers/process.js';

/**
 * Runs one attempt of a GitHub Actions workflow of docs/workflows/ as the runner would, on
 * this machine: the `run:` steps in order in GitHub's default shell (bash -e -o pipefail),
 * with the workflow's and the job's `env`, $GITHUB_ENV carried from step to step; after a
 * failed step only the steps with `if: always()` run. `actions/cache/restore` and
 * `actions/cache/save` are played on a folder the way the actions behave (docs of
 * actions/cache: a key is matched exactly, else each restore-key as a prefix, newest entry
 * first; an entry is never overwritten; a missing path is saved as nothing, with a warning).
 * A step with an `id` passes what it appends to $GITHUB_OUTPUT as `steps.<id>.outputs.<name>`.
 * Other `uses:` steps (checkout, setup-node, upload-artifact) have nothing to do here.
 */

export interface StepDoc {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

export interface Workflow {
  env: Record<string, string>;
  /** The job's own env (the workflow's is in `env` too). */
  jobEnv: Record<string, string>;
  steps: StepDoc[];
  /** The workflow's top-level keys the runner does not play but tests read (permissions, concurrency). */
  doc: Record<string, unknown>;
}

export interface StepResult {
  name: string;
  ran: boolean;
  exitCode: number;
  output: string;
}

/** The workflow's single job, its env (workflow's then job's) and steps. */
export function readWorkflow(path: string): Workflow {
  const doc = parse(readFileSync(path, 'utf8')) as { env?: Record<string, string>; jobs: Record<string, { env?: Record<string, string>; steps: StepDoc[] }> };
  const jobs = Object.values(doc.jobs);
  if (jobs.length !== 1) throw new Error(`${path}: expected one job, got ${jobs.length}`);
  return { env: { ...doc.env, ...jobs[0]!.env }, jobEnv: { ...jobs[0]!.env }, steps: jobs[0]!.steps, doc };
}

/** A step's name as the runner shows it. */
export const stepName = (s: StepDoc) => s.name ?? (s.uses ? `Run ${s.uses}` : String(s.run).split('\n')[0]!);

export interface Attempt {
  /** The `github` and `secrets` contexts the workflow reads (`${{ github.run_id }}`). */
  context: Record<string, string>;
  /** The job's workspace. */
  cwd: string;
  /** The runner's variables before the workflow's own (PATH, HOME, CI, GITHUB_ACTIONS…). */
  env: Record<string, string>;
  /** The folder standing for the repository's cache. */
  cacheDir: string;
  /** Variables over the workflow's own (the test's server instead of the API's URL). */
  override?: Record<string, string>;
  /** Steps to leave out (the install step: a `cr` on PATH stands for it). */
  skip?: (name: string) => boolean;
  /** What a step runs, changed for this attempt (a fault injected into `cr serve`). */
  rewrite?: (name: string, run: string) => string;
}

const EXPR = /\$\{\{\s*([\w.]+)\s*\}\}/g;

function expand(text: string, context: Record<string, string>): string {
  return text.replace(EXPR, (_, name: string) => {
    // A step output never written (its step failed or was skipped) is empty, as on GitHub.
    if (name.startsWith('steps.') && !(name in context)) return '';
    if (!(name in context)) throw new Error(`the workflow reads \${{ ${name} }}, which the test does not provide`);
    return context[name]!;
  });
}

/** Cache entries in the order they were saved: `<seq>-<key>/<file>`. */
function entries(cacheDir: string): { key: string; dir: string }[] {
  if (!existsSync(cacheDir)) return [];
  return readdirSync(cacheDir)
    .map((d) => ({ seq: Number(d.slice(0, d.indexOf('-'))), key: d.slice(d.indexOf('-') + 1), dir: join(cacheDir, d) }))
    .sort((a, b) => a.seq - b.seq);
}

function restore(a: Attempt, w: Record<string, string>): string {
  const all = entries(a.cacheDir);
  const key = expand(w.key!, a.context);
  const prefixes = expand(w['restore-keys'] ?? '', a.context)
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  const hit = all.find((e) => e.key === key) ?? prefixes.map((p) => all.filter((e) => e.key.startsWith(p)).pop()).find(Boolean);
  if (!hit) return `Cache not found for input keys: ${key}`;
  copyFileSync(join(hit.dir, w.path!), join(a.cwd, w.path!));
  return `Cache restored from key: ${hit.key}`;
}

function save(a: Attempt, w: Record<string, string>): string {
  const key = expand(w.key!, a.context);
  const all = entries(a.cacheDir);
  if (!existsSync(join(a.cwd, w.path!)) || !statSync(join(a.cwd, w.path!)).isFile())
    return 'Warning: Path Validation Error: Path(s) specified in the action for caching do(es) not exist, hence no cache is being saved.';
  if (all.some((e) => e.key === key)) return `Failed to save: Unable to reserve cache with key ${key}, another job may be creating this cache.`;
  const dir = join(a.cacheDir, `${all.length + 1}-${key}`);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(a.cwd, w.path!), join(dir, w.path!));
  return `Cache saved with key: ${key}`;
}

export async function runAttempt(w: Workflow, a: Attempt): Promise<StepResult[]> {
  const githubEnv = join(a.cwd, `.github-env-${a.context['github.run_attempt'] ?? '1'}`);
  writeFileSync(githubEnv, '');
  // `${{ steps.<id>.outputs.<name> }}`: what a step with an id wrote to $GITHUB_OUTPUT.
  const context = { ...a.context };
  const env: Record<string, string> = { ...a.env, GITHUB_ENV: githubEnv };
  for (const [k, v] of Object.entries(w.env)) env[k] = expand(String(v), a.context);
  Object.assign(env, a.override);
  const results: StepResult[] = [];
  let failed = false;
  for (const step of w.steps) {
    const name = stepName(step);
    if (step.if !== undefined && step.if !== 'always()') throw new Error(`${name}: if: ${step.if} is not played by this runner`);
    if ((failed && step.if !== 'always()') || a.skip?.(name)) {
      results.push({ name, ran: false, exitCode: 0, output: '' });
      continue;
    }
    if (step.uses?.startsWith('actions/cache/')) {
      if (step.with?.path?.includes('\n')) throw new Error(`${name}: one path only`);
      const output = step.uses.startsWith('actions/cache/restore@') ? restore(a, step.with!) : save(a, step.with!);
      results.push({ name, ran: true, exitCode: 0, output });
      continue;
    }
    if (step.uses?.startsWith('actions/cache@')) throw new Error(`${name}: actions/cache saves only when the job succeeds; the workflows use restore and save`);
    if (step.run === undefined) {
      results.push({ name, ran: false, exitCode: 0, output: '' });
      continue;
    }
    // What earlier steps appended to $GITHUB_ENV is in the environment of the next ones.
    for (const line of readFileSync(githubEnv, 'utf8').split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
    }
    const run = expand(a.rewrite ? a.rewrite(name, step.run) : step.run, context);
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v), context)]));
    const githubOutput = join(a.cwd, `.github-output-${results.length}`);
    writeFileSync(githubOutput, '');
    const r = await spawnProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', run], {
      cwd: a.cwd,
      env: { ...env, ...stepEnv, GITHUB_OUTPUT: githubOutput },
    });
    for (const line of step.id ? readFileSync(githubOutput, 'utf8').split('\n') : []) {
      const eq = line.indexOf('=');
      if (eq > 0) context[`steps.${step.id}.outputs.${line.slice(0, eq)}`] = line.slice(eq + 1);
    }
    results.push({ name, ran: true, exitCode: r.exitCode ?? 1, output: `${r.stdout}\n${r.stderr}` });
    if (r.exitCode !== 0) failed = true;
  }
  return results;
}
