import type { Dispatcher } from 'undici';
import type { IO } from '../io/streams.js';
import { redactKeys } from '../config/redact.js';
import { userAgent } from '../startup/version.js';
import { ApiClient, DEFAULT_TIMEOUT_MS } from './client.js';
import type { RawResponse } from './client.js';
import { budgetOf, isLow, lowBudgetNotice } from './rate-budget.js';
import { spinnerActivity } from '../io/activity.js';
import type { Deadline } from './deadline.js';
import { maxResponseBytes } from './read-body.js';
import { proxyConfigured } from './proxy-vars.js';

/** What the builder reads from the run: its streams, environment and global flags. */
export interface ClientSettings {
  io: IO;
  env: NodeJS.ProcessEnv;
  verbose: boolean;
  /** -q: nothing on stderr but errors (docs/cli-contract.md "For scripts"), so no spinner. */
  quiet?: boolean;
  /** --timeout in seconds. */
  timeout?: number;
  /** The deadline --timeout sets for all of this run's requests. */
  deadline?: Deadline;
  /** An undici dispatcher to send through instead of the client's own pool (tests: MockAgent). */
  dispatcher?: Dispatcher;
}

/** Where requests go and with which key: a profile's credentials, or the embedded server. */
export interface ClientTarget {
  baseUrl: string;
  key: string;
  crmSegment?: string;
  /** What carries the requests when not a connection pool of the client's own (--local: in-process). */
  dispatcher?: Dispatcher;
}

/**
 * The one way an HTTP core is made, so every command (and `auth login`'s check of a new
 * key) gets the same timeout, retries, User-Agent, --verbose log with keys masked, and
 * spinner. The context picks the target; nothing ever falls back to local mode on its own.
 */
export function buildClient(s: ClientSettings, target: ClientTarget): ApiClient {
  const log = s.verbose ? (line: string) => s.io.err.write(redactKeys(line) + '\n') : undefined;
  const timeoutMs = s.timeout ? s.timeout * 1000 : DEFAULT_TIMEOUT_MS;
  const retryBaseMs = s.env.CR_RETRY_BASE_MS ? Number(s.env.CR_RETRY_BASE_MS) : undefined;
  // --verbose already narrates each request; a spinner would garble those lines.
  const activity = s.verbose || s.quiet ? undefined : spinnerActivity(s.io);
  const { baseUrl, key, crmSegment } = target;
  // -q asks for nothing on stderr but errors (docs/cli-contract.md "For scripts"): no budget notice either.
  const onResponse = s.quiet ? undefined : lowBudgetWatch((line) => s.io.err.write(line + '\n'));
  const deadline = s.deadline;
  const maxBytes = maxResponseBytes(s.env);
  return new ApiClient({
    baseUrl,
    key,
    crmSegment,
    timeoutMs,
    deadline,
    maxResponseBytes: maxBytes,
    userAgent: userAgent(),
    log,
    retryBaseMs,
    activity,
    dispatcher: target.dispatcher ?? s.dispatcher,
    // HTTPS_PROXY and the rest come from the run's environment, as CR_BASE_URL does (src/http/proxy-env.ts).
    proxyEnv: proxyConfigured(s.env) ? s.env : undefined,
    onResponse,
  });
}

/**
 * One notice on stderr per command (per client) when a response says fewer than 10 % of
 * the key's requests are left, in every output mode: stderr never mixes with --json data,
 * and a script's log is where a budget running out should show. A 429 says it itself.
 */
function lowBudgetWatch(write: (line: string) => void): (res: RawResponse) => void {
  let said = false;
  return (res) => {
    if (said || res.status === 429) return;
    const budget = budgetOf(res.headers);
    if (!budget || !isLow(budget)) return;
    said = true;
    write(lowBudgetNotice(budget));
  };
}
