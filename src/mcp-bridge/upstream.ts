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
export class Upstream {
  private transport?: StreamableHTTPClientTransport;
  private sessionId?: string;
  private protocolVersion?: string;
  private closed = false;
  /** Counts transports made; a failed send resets only the transport it used. */
  private gen = 0;
  private readonly fetchFn: FetchLike;

  constructor(private readonly o: UpstreamOptions) {
    this.fetchFn = failingFetch(o.fetch ?? fetch);
  }

  /** The session id the server issued, if any (kept across reconnects). */
  get session(): string | undefined {
    return this.transport?.sessionId ?? this.sessionId;
  }

  /** Which transport the next send uses (see reset). */
  get generation(): number {
    return this.transport ? this.gen : this.gen + 1;
  }

  /** Called with the protocol version of the initialize result, for the MCP-Protocol-Version header. */
  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.transport?.setProtocolVersion(version);
  }

  /** Synchronous, so concurrent sends share one transport (start() has no await inside). */
  private current(): StreamableHTTPClientTransport {
    if (this.transport) return this.transport;
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
    this.transport = t;
    this.gen++;
    return t;
  }

  /** Sends one message; rejects with HttpFailure, NetworkFailure or the SDK's error. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the bridge is closing');
    const t = this.current();
    await t.send(message);
  }

  /**
   * Drops the current transport (aborting its requests and stream) so the next send opens
   * a fresh one; `forgetSession` also drops the session id (the server said it is gone).
   * With `ifGeneration`, only when that transport is still the current one: several sends
   * failing on one dropped connection replace it once.
   */
  async reset(forgetSession = false, ifGeneration?: number): Promise<void> {
    if (ifGeneration !== undefined && (!this.transport || ifGeneration !== this.gen)) return;
    const old = this.transport;
    this.sessionId = forgetSession ? undefined : (old?.sessionId ?? this.sessionId);
    this.transport = undefined;
    if (old) {
      old.onmessage = undefined;
      old.onerror = undefined;
      await old.close().catch(() => undefined);
    }
  }

  /** Ends the session politely (DELETE when the server issued one), then closes. Bounded by the caller. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const t = this.transport;
    if (!t) return;
    if (t.sessionId) await t.terminateSession().catch(() => undefined);
    t.onerror = undefined;
    await t.close().catch(() => undefined);
  }
}
