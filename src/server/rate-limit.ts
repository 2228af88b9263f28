import { realClock } from './clock.js';
import type { RealClock } from './clock.js';
import { atomicWrite, nodeFs } from './store/fs-layer.js';
import type { StoreFs } from './store/fs-layer.js';
import { safeJsonParse } from './json.js';

export const WINDOW_MS = 3_600_000;
export const DEFAULT_RATE_LIMIT = 1000;
/** The published Retry-After value (docs/api-decisions.md, Limits), whatever the window's remainder. */
export const RETRY_AFTER_SECONDS = 3600;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds when the window ends. */
  reset: number;
}

interface Window {
  start: number;
  count: number;
}

export interface RateLimiterOptions {
  limit?: number;
  /** Real time, never the business clock (docs/api-decisions.md §5). */
  now?: RealClock;
  /** Sidecar file for the counters (e.g. `<store>.ratelimit.json`); none = memory only. */
  file?: string | null;
  fs?: StoreFs;
  /** Minimum time between two writes of the sidecar (default 1 s). */
  flushIntervalMs?: number;
}

/**
 * Whether a window still counts at `now`: started at most one window ago, and not in the
 * future. A start in the future (the clock stepped back, a VM restored from a snapshot) would
 * otherwise lock the key out until the clock caught up, while Retry-After says 3600
 * (docs/api-decisions.md §9): such a window is reset.
 */
const current = (w: Window, now: number) => w.start <= now && now < w.start + WINDOW_MS;

/**
 * Fixed one-hour window per key, starting at the key's first request in the window
 * (docs/api-decisions.md §3). Counters are written to a sidecar at most once a second and on stop,
 * so a restart continues the count (a crash forgets at most the last second).
 */
export class RateLimiter {
  readonly limit: number;
  private readonly now: RealClock;
  private readonly file: string | null;
  private readonly fs: StoreFs;
  private readonly flushIntervalMs: number;
  private windows = new Map<string, Window>();
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(opts: RateLimiterOptions = {}) {
    this.limit = opts.limit ?? DEFAULT_RATE_LIMIT;
    if (!Number.isInteger(this.limit) || this.limit < 1) throw new Error(`Rate limit must be a positive integer, got ${this.limit}`);
    this.now = opts.now ?? realClock;
    this.file = opts.file ?? null;
    this.fs = opts.fs ?? nodeFs;
    this.flushIntervalMs = opts.flushIntervalMs ?? 1000;
    if (this.file) this.load(this.file);
  }

  private load(file: string) {
    let text: string;
    try {
      text = this.fs.sync.readFile(file).toString('utf8');
    } catch {
      return; // no counters yet
    }
    try {
      const parsed = safeJsonParse(text) as { windows?: Record<string, Window> };
      const now = this.now();
      for (const [keyId, w] of Object.entries(parsed.windows ?? {})) {
        if (Number.isFinite(w?.start) && Number.isInteger(w?.count) && w.count >= 0 && current(w, now)) {
          this.windows.set(keyId, { start: w.start, count: w.count });
        }
      }
    } catch {
      // A damaged sidecar only costs the counts; it is rewritten on the next flush.
    }
  }

  /** Counts one request of the key and says whether it may proceed. */
  hit(keyId: string): RateDecision {
    const now = this.now();
    let w = this.windows.get(keyId);
    if (!w || !current(w, now)) {
      w = { start: now, count: 0 };
      this.windows.set(keyId, w);
    }
    w.count++;
    this.markDirty();
    return {
      allowed: w.count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - w.count),
      reset: Math.ceil((w.start + WINDOW_MS) / 1000),
    };
  }

  /** The key's standing without counting a request (headers of an MCP exchange that made no tool call). */
  peek(keyId: string): RateDecision {
    const now = this.now();
    const w = this.windows.get(keyId);
    const live = w && current(w, now) ? w : { start: now, count: 0 };
    return {
      allowed: live.count < this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - live.count),
      reset: Math.ceil((live.start + WINDOW_MS) / 1000),
    };
  }

  private markDirty() {
    this.dirty = true;
    if (this.file && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush().catch(() => undefined);
      }, this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Writes the counters now (atomically) if they changed. */
  async flush(): Promise<void> {
    if (!this.file || !this.dirty) return this.writing;
    this.dirty = false;
    const now = this.now();
    const windows: Record<string, Window> = {};
    for (const [k, w] of this.windows) if (current(w, now)) windows[k] = w;
    const text = JSON.stringify({ version: 1, windowMs: WINDOW_MS, windows }) + '\n';
    const file = this.file;
    this.writing = this.writing
      .then(() => atomicWrite(this.fs, file, text, { sync: false }))
      .catch(() => {
        this.dirty = true;
      });
    return this.writing;
  }

  /** Stops the timer and flushes. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }
}

export const rateLimitFileOf = (storePath: string) => `${storePath}.ratelimit.json`;
