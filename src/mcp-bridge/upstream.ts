import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { failingFetch } from './failures.js';

export interface UpstreamOptions {
  /** `<base>/mcp`. */
  url: URL;
  /** The profile's key: sent as a bearer header, never logged. */
  key: string;
  userAgent: string;
  /** Every message the server sends (responses, notifications, its own requests). */
  onmessage: (message: JSONRPCMessage) => void;
  /** Transport-level trouble that is not the answer to a send (a dropped SSE stream). */
  onerror: (error: Error) => void;
  fetch?: FetchLike;
}

/**
 * The HTTP side of the bridge: one SDK StreamableHTTPClientTransport at a time, replaced by
 * a fresh one after a dropped connection. What belongs to the MCP session rather than to a
 * connection (the Mcp-Session-Id the server issued, the negotiated protocol version) is
 * carried over to the new transport, so the server sees the same session.
 */
interface Conn {
  t: StreamableHTTPClientTransport;
  gen: number;
  /** Sends still waiting for their HTTP answer on this transport. */
  inflight: number;
  retired: boolean;
}

export class Upstream {
  private conn?: Conn;
  private readonly retiring = new Set<Conn>();
  private sessionId?: string;
  private protocolVersion?: string;
  private closed = false;
  /** Counts transports made; a failed send replaces only the transport it used. */
  private gen = 0;
  private readonly fetchFn: FetchLike;

  constructor(private readonly o: UpstreamOptions) {
    this.fetchFn = failingFetch(o.fetch ?? fetch);
  }

  /** The session id the server issued, if any (kept across reconnects). */
  get session(): string | undefined {
    return this.conn?.t.sessionId ?? this.sessionId;
  }

  /** Which transport the next send uses (see reset). */
  get generation(): number {
    return this.conn ? this.conn.gen : this.gen + 1;
  }

  /** Called with the protocol version of the initialize result, for the MCP-Protocol-Version header. */
  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.conn?.t.setProtocolVersion(version);
  }

  /** Synchronous, so concurrent sends share one transport (start() has no await inside). */
  private current(): Conn {
    if (this.conn) return this.conn;
    const t = new StreamableHTTPClientTransport(this.o.url, {
      requestInit: { headers: { Authorization: `Bearer ${this.o.key}`, 'User-Agent': this.o.userAgent } },
      fetch: this.fetchFn,
      sessionId: this.sessionId,
      // A dropped GET stream is retried a few times by the SDK; sends are retried by the bridge.
      reconnectionOptions: { initialReconnectionDelay: 500, maxReconnectionDelay: 5_000, reconnectionDelayGrowFactor: 2, maxRetries: 3 },
    });
    t.onmessage = (m) => this.o.onmessage(m);
    t.onerror = (e) => this.o.onerror(e);
    void t.start();
    if (this.protocolVersion) t.setProtocolVersion(this.protocolVersion);
    this.conn = { t, gen: ++this.gen, inflight: 0, retired: false };
    return this.conn;
  }

  /** Sends one message; rejects with HttpFailure, NetworkFailure or the SDK's error. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the bridge is closing');
    const c = this.current();
    c.inflight++;
    try {
      await c.t.send(message);
    } finally {
      c.inflight--;
      if (c.retired && c.inflight === 0) void this.dispose(c);
    }
  }

  /**
   * Makes the next send open a fresh transport; `forgetSession` also drops the session id
   * (the server said it is gone). With `ifGeneration`, only when that transport is still the
   * current one: several sends failing on one dropped connection replace it once. The old
   * transport is closed once its other sends have their answers (closing aborts them), and
   * until then what it receives is still forwarded.
   */
  reset(forgetSession = false, ifGeneration?: number): void {
    const old = this.conn;
    if (ifGeneration !== undefined && (!old || ifGeneration !== old.gen)) return;
    this.sessionId = forgetSession ? undefined : (old?.t.sessionId ?? this.sessionId);
    this.conn = undefined;
    if (!old) return;
    old.retired = true;
    if (old.inflight === 0) void this.dispose(old);
    else this.retiring.add(old);
  }

  private async dispose(c: Conn): Promise<void> {
    this.retiring.delete(c);
    c.t.onerror = undefined;
    await c.t.close().catch(() => undefined);
  }

  /** Ends the session politely (DELETE when the server issued one), then closes. Bounded by the caller. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of [...this.retiring]) void this.dispose(c);
    const c = this.conn;
    if (!c) return;
    if (c.t.sessionId) await c.t.terminateSession().catch(() => undefined);
    await this.dispose(c);
  }
}
