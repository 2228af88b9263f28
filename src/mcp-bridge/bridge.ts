import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { HttpFailure, NetworkFailure } from './failures.js';
import { errorResponse, rpcErrorOf } from './rpc-errors.js';
import { Upstream, type UpstreamOptions } from './upstream.js';
import { describeMessage, oneLine } from './log.js';
import { MAX_LINE_BYTES, type Oversized } from './line-limit.js';
import { checkLine } from './line-check.js';

/**
 * The API's body limit (docs/api-decisions.md: a body over 1 MiB is answered 413). A larger
 * message is not sent: the server's 413 races the upload, and the agent would often get a
 * dropped connection ("may have been applied") instead of the refusal it is.
 */
const API_MAX_BODY_BYTES = 1024 * 1024;

export interface BridgeOptions extends Omit<UpstreamOptions, 'onmessage' | 'onerror'> {
  /** The agent's side: the SDK's StdioServerTransport over stdin/stdout. */
  client: Transport;
  /** One diagnostic line to standard error (never stdout). */
  log: (line: string) => void;
  /** --verbose: a line per message (method and id, never params or keys). */
  verbose: boolean;
  /** The profile whose key is used, named in the hint of a 401. */
  profile?: string;
  /** Where the key came from and what to run, the hint of a 401 (src/config/credentials.ts). */
  keyAdvice?: string;
  /** Longest wait for the server's answer to a replayed initialize. */
  reinitTimeoutMs?: number;
}

type Pending = { method: string; tool?: string };

const keyOf = (id: RequestId) => `${typeof id}:${String(id)}`;
const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m && m.id !== undefined;
const isResponse = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId } => !('method' in m) && 'id' in m;
const INTERNAL = 'cr-bridge-reinit-';

/**
 * `cr mcp stdio`: forwards raw JSON-RPC messages between the agent (stdio) and
 * `<base>/mcp` (Streamable HTTP), so every tool, notification, progress update and
 * cancellation the server has passes through unchanged. The bridge itself only:
 *
 * - answers a request the server could not answer (401, 403, 429, network) with a JSON-RPC
 *   error, instead of leaving the agent waiting forever;
 * - after a dropped connection, retries the failed send once on a fresh transport (same
 *   session id), unless it is a tool call that may have been applied and is not marked
 *   read-only or idempotent by the server's tools/list (the CLI never repeats a POST either);
 * - when the server answers 404 to a request carrying its session id (the session is
 *   gone), replays the agent's initialize on a new session and retries once, as the MCP
 *   transport spec asks of clients.
 */
export class Bridge {
  private readonly up: Upstream;
  private readonly pending = new Map<string, Pending>();
  /** Tools the server marked readOnlyHint or idempotentHint: safe to send twice. */
  private readonly repeatable = new Set<string>();
  private readonly internal = new Map<string, (m: JSONRPCMessage) => void>();
  private initialize?: JSONRPCRequest;
  private reinitializing?: Promise<void>;
  private internalSeq = 0;
  private closing = false;

  constructor(private readonly o: BridgeOptions) {
    this.up = new Upstream({ ...o, onmessage: (m) => this.fromServer(m), onerror: (e) => this.verbose(`stream: ${e.message}`) });
    o.client.onmessage = (m) => this.fromAgent(m);
    o.client.onerror = (e) => o.log(`cr mcp: ignored input that is not a JSON-RPC message (${oneLine(e.message)})`);
  }

  async start(): Promise<void> {
    await this.o.client.start();
  }

  /**
   * Resolves once every request the agent sent has its answer written (or `boundMs` passed):
   * an agent that writes its requests and closes its end of the pipe still gets them all.
   */
  async drain(boundMs: number): Promise<void> {
    const until = Date.now() + boundMs;
    // Lines already read may still be on their way through the line filter and the transport.
    await new Promise((r) => setImmediate(r));
    while (this.pending.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  }

  /** Stops reading the agent, ends the HTTP session; bounded so shutdown stays quick. */
  async close(boundMs = 500): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.o.client.close().catch(() => undefined);
    await Promise.race([this.up.close(), new Promise((r) => setTimeout(r, boundMs).unref())]);
  }

  private verbose(line: string): void {
    if (this.o.verbose) this.o.log(`cr mcp: ${oneLine(line)}`);
  }

  private fromAgent(m: JSONRPCMessage): void {
    if (this.closing) return;
    this.verbose(`→ ${describeMessage(m)}`);
    if (isRequest(m)) {
      const tool = m.method === 'tools/call' && typeof m.params?.name === 'string' ? m.params.name : undefined;
      this.pending.set(keyOf(m.id), { method: m.method, tool });
      if (m.method === 'initialize') this.initialize = m;
    }
    void this.forward(m);
  }

  private fromServer(m: JSONRPCMessage): void {
    if (isResponse(m)) {
      const k = typeof m.id === 'string' && m.id.startsWith(INTERNAL) ? this.internal.get(m.id) : undefined;
      if (k) {
        k(m);
        return;
      }
      const p = this.pending.get(keyOf(m.id));
      this.pending.delete(keyOf(m.id));
      if (p && 'result' in m) this.learn(p, m.result as Record<string, unknown>);
    }
    this.verbose(`← ${describeMessage(m)}`);
    this.o.client.send(m).catch((e: Error) => this.o.log(`cr mcp: could not write to stdout (${oneLine(e.message)})`));
  }

  /** What the bridge needs from answers passing through: the protocol version, tool hints. */
  private learn(p: Pending, result: Record<string, unknown>): void {
    if (p.method === 'initialize' && typeof result.protocolVersion === 'string') this.up.setProtocolVersion(result.protocolVersion);
    if (p.method === 'tools/list' && Array.isArray(result.tools)) {
      for (const t of result.tools as { name?: unknown; annotations?: { readOnlyHint?: unknown; idempotentHint?: unknown } }[]) {
        if (typeof t.name !== 'string') continue;
        if (t.annotations?.readOnlyHint === true || t.annotations?.idempotentHint === true) this.repeatable.add(t.name);
        else this.repeatable.delete(t.name);
      }
    }
  }

  /**
   * Whether a line from the agent goes on to the SDK's transport: one that is not a JSON-RPC
   * message, or is a batch, is answered here as JSON-RPC says (line-check.ts) instead of being dropped.
   */
  screen(line: Buffer): boolean {
    const verdict = checkLine(line.toString('utf8').replace(/\r$/, ''));
    if (verdict.pass) return true;
    if (verdict.log) this.o.log(`cr mcp: ${oneLine(verdict.log)}`);
    if (verdict.answer && !this.closing) this.o.client.send(verdict.answer as unknown as JSONRPCMessage).catch(() => undefined);
    return false;
  }

  /** A line too long to read (line-limit.ts): answered under its id when one could be read. */
  refuseOversized(o: Oversized): void {
    const what = `a message of ${o.bytes} bytes is larger than the 10 MiB a line the bridge reads; not sent to the server`;
    this.o.log(`cr mcp: message${o.id === undefined ? ' without a readable id' : ` #${oneLine(String(o.id), 80)}`}: ${what}`);
    if (o.id !== undefined && !this.closing)
      this.o.client
        .send(errorResponse(o.id, { code: -32600, message: `Invalid Request: ${what}`, data: { limitBytes: MAX_LINE_BYTES } }))
        .catch(() => undefined);
  }

  private async forward(m: JSONRPCMessage): Promise<void> {
    if (Buffer.byteLength(JSON.stringify(m)) > API_MAX_BODY_BYTES)
      return this.fail(m, new HttpFailure(413, 'Payload too large', 'PAYLOAD_TOO_LARGE', undefined, undefined));
    const sessionUsed = this.up.session;
    const gen = this.up.generation;
    let failure: unknown;
    try {
      await this.up.send(m);
      return;
    } catch (err) {
      failure = err;
    }
    if (this.closing) return;
    const plan = this.retryPlan(m, failure, sessionUsed !== undefined);
    if (plan.retry) {
      this.o.log(
        `cr mcp: ${this.label(m)}: ${oneLine((failure as Error).message)}; ${plan.retry === 'session' ? 'starting a new session' : 'reconnecting'} and retrying once`,
      );
      try {
        // Sends that failed together share one new session (or one new connection).
        if (plan.retry === 'session' && (this.reinitializing || this.up.session === sessionUsed)) {
          this.reinitializing ??= this.reinitialize().finally(() => {
            this.reinitializing = undefined;
          });
          await this.reinitializing;
        } else if (plan.retry === 'connection') {
          this.up.reset(false, gen);
        }
        await this.up.send(m);
        return;
      } catch (err) {
        failure = err;
      }
      if (this.closing) return;
    }
    this.fail(m, failure, plan.notRetried);
  }

  private retryPlan(m: JSONRPCMessage, err: unknown, hadSession: boolean): { retry?: 'session' | 'connection'; notRetried?: string } {
    const isInit = isRequest(m) && m.method === 'initialize';
    if (err instanceof HttpFailure) {
      return err.status === 404 && hadSession && this.initialize && !isInit ? { retry: 'session' } : {};
    }
    if (!(err instanceof NetworkFailure)) return {};
    if (err.beforeSend || !isRequest(m)) return { retry: 'connection' };
    const tool = m.method === 'tools/call' ? this.pending.get(keyOf(m.id))?.tool : undefined;
    if (m.method !== 'tools/call' || (tool !== undefined && this.repeatable.has(tool))) return { retry: 'connection' };
    return { notRetried: `not retried: ${tool ?? 'the tool'} is not idempotent and the server may have applied the call; check before calling it again` };
  }

  /** A new session: the agent's own initialize replayed under an internal id, then initialized. */
  private async reinitialize(): Promise<void> {
    this.up.reset(true);
    const id = `${INTERNAL}${++this.internalSeq}`;
    const answer = new Promise<JSONRPCMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the server did not answer the new initialize')), this.o.reinitTimeoutMs ?? 10_000);
      this.internal.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    try {
      await this.up.send({ ...this.initialize!, id });
      const m = await answer;
      if ('error' in m) throw new Error(`the server refused the new initialize: ${String((m.error as { message?: unknown }).message)}`);
      const version = (m as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
      if (typeof version === 'string') this.up.setProtocolVersion(version);
      await this.up.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    } finally {
      this.internal.delete(id);
    }
  }

  private label(m: JSONRPCMessage): string {
    return oneLine(describeMessage(m));
  }

  /** A request gets a JSON-RPC error answer; anything else can only be reported on stderr. */
  private fail(m: JSONRPCMessage, err: unknown, notRetried?: string): void {
    const error = rpcErrorOf(err, { profile: this.o.profile, keyAdvice: this.o.keyAdvice, notRetried });
    this.o.log(`cr mcp: ${this.label(m)} failed: ${oneLine(error.message)}`);
    if (!isRequest(m)) return;
    this.pending.delete(keyOf(m.id));
    this.o.client.send(errorResponse(m.id, error)).catch(() => undefined);
  }
}
