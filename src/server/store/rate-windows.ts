import { atomicWrite, nodeFs } from './fs-layer.js';
import type { StoreFs } from './fs-layer.js';
import { windowCurrent } from './api-store.js';
import type { RateWindow } from './api-store.js';
import { safeJsonParse } from '../json.js';

/** The window length the sidecar was written for (docs/api-decisions.md §3: one hour). */
const SIDECAR_WINDOW_MS = 3_600_000;

export interface RateWindowsOptions {
  /** Sidecar file for the counters (`<store>.ratelimit.json`); none = memory only. */
  file?: string | null;
  fs?: StoreFs;
  /** Minimum time between two writes of the sidecar (default 1 s). */
  flushIntervalMs?: number;
  /** Real time, for dropping windows that ended while the server was down. */
  now?: () => number;
}

/**
 * The rate-limit windows of a store held in this process (the JSON file store and the memory
 * store): one per key, counted in memory, which is atomic in one process. With a sidecar file
 * they are written at most once a second and on close, so a restart continues the count (a
 * crash forgets at most the last second).
 */
export class RateWindows {
  private readonly windows = new Map<string, RateWindow>();
  private readonly file: string | null;
  private readonly fs: StoreFs;
  private readonly flushIntervalMs: number;
  private readonly now: () => number;
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(opts: RateWindowsOptions = {}) {
    this.file = opts.file ?? null;
    this.fs = opts.fs ?? nodeFs;
    this.flushIntervalMs = opts.flushIntervalMs ?? 1000;
    this.now = opts.now ?? Date.now;
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
      const parsed = safeJsonParse(text) as { windows?: Record<string, RateWindow> };
      const now = this.now();
      for (const [keyId, w] of Object.entries(parsed.windows ?? {})) {
        if (Number.isFinite(w?.start) && Number.isInteger(w?.count) && w.count >= 0 && windowCurrent(w, now, SIDECAR_WINDOW_MS)) {
          this.windows.set(keyId, { start: w.start, count: w.count });
        }
      }
    } catch {
      // A damaged sidecar only costs the counts; it is rewritten on the next flush.
    }
  }

  hit(keyId: string, now: number, windowMs: number): RateWindow {
    let w = this.windows.get(keyId);
    if (!w || !windowCurrent(w, now, windowMs)) {
      w = { start: now, count: 0 };
      this.windows.set(keyId, w);
    }
    w.count++;
    this.markDirty();
    return { start: w.start, count: w.count };
  }

  peek(keyId: string, now: number, windowMs: number): RateWindow | undefined {
    const w = this.windows.get(keyId);
    return w && windowCurrent(w, now, windowMs) ? { start: w.start, count: w.count } : undefined;
  }

  forget(keyIds: readonly string[] | 'all'): void {
    if (keyIds === 'all') this.windows.clear();
    else for (const id of keyIds) this.windows.delete(id);
    this.markDirty();
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
    const windows: Record<string, RateWindow> = {};
    for (const [k, w] of this.windows) if (windowCurrent(w, now, SIDECAR_WINDOW_MS)) windows[k] = w;
    const text = JSON.stringify({ version: 1, windowMs: SIDECAR_WINDOW_MS, windows }) + '\n';
    const file = this.file;
    this.writing = this.writing
      .then(() => atomicWrite(this.fs, file, text, { sync: false }))
      .catch(() => {
        this.dirty = true;
      });
    return this.writing;
  }

  /** Stops the timer and flushes; `write` false: writes nothing more (the store is another server's now). */
  async stop(write = true): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!write) this.dirty = false;
    await this.flush();
  }
}

export const rateLimitFileOf = (storePath: string) => `${storePath}.ratelimit.json`;
