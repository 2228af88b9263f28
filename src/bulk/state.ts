import { open, readFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LocalError } from '../errors.js';
import type { PlanRow, RowResult } from './types.js';

/** One finished row as recorded in the state file. */
export interface StateRecord {
  id: string;
  /** The instant the row asked for (ISO, UTC): what a rerun compares. */
  when: string;
  websiteId?: string;
  status: 'scheduled' | 'failed';
  scheduledAt?: string;
  code?: string;
  line: number;
  finishedAt: string;
}

export interface LoadedState {
  /** The last record of each id. */
  byId: Map<string, StateRecord>;
  /** Lines that were not a record (a torn last line after a crash): ignored. */
  torn: number;
}

/** Reads a state file; a missing file is an empty state. */
export async function loadState(file: string): Promise<LoadedState> {
  const byId = new Map<string, StateRecord>();
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { byId, torn: 0 };
    throw new LocalError(`Cannot read the state file ${file}: ${(err as Error).message}`, 1, { cause: err, code: 'STATE_UNREADABLE' });
  }
  let torn = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line) as StateRecord;
      if (typeof r.id === 'string' && typeof r.when === 'string' && (r.status === 'scheduled' || r.status === 'failed')) byId.set(r.id, r);
      else torn++;
    } catch {
      torn++;
    }
  }
  return { byId, torn };
}

/** The record that makes a row a `skipped` one: scheduled before, same instant, same website. */
export function alreadyDone(state: LoadedState, row: PlanRow): StateRecord | undefined {
  const r = state.byId.get(row.id);
  if (r?.status !== 'scheduled') return undefined;
  if (Date.parse(r.when) !== row.when.getTime() || (r.websiteId ?? undefined) !== row.websiteId) return undefined;
  return r;
}

/**
 * Appends one JSON line per finished row and fdatasyncs it before the row counts as
 * recorded. Appending, not rewriting: each row costs one small write whatever the size
 * of the plan (a rewrite per row would be quadratic), and a crash can only tear the last
 * line, which loadState ignores (that row is then sent again, which the API makes
 * harmless: rescheduling to the same time gives the same answer, docs/api-decisions.md §4).
 */
export class StateWriter {
  private chain: Promise<void> = Promise.resolve();
  private constructor(
    private readonly handle: FileHandle,
    private readonly file: string,
  ) {}

  static async open(file: string): Promise<StateWriter> {
    let handle: FileHandle;
    let created = false;
    try {
      handle = await open(file, 'wx', 0o600);
      created = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw stateError(file, err);
      handle = await open(file, 'a').catch((e: unknown) => {
        throw stateError(file, e);
      });
    }
    // A new file's directory entry must be durable too, or a crash can lose the whole file.
    if (created) await syncDir(dirname(file));
    return new StateWriter(handle, file);
  }

  record(result: RowResult, finishedAt: Date): Promise<void> {
    const { row } = result;
    const rec: StateRecord = {
      id: row.id,
      when: row.when.toISOString(),
      ...(row.websiteId ? { websiteId: row.websiteId } : {}),
      status: result.status === 'scheduled' ? 'scheduled' : 'failed',
      ...(result.scheduledAt ? { scheduledAt: result.scheduledAt } : {}),
      ...(result.code ? { code: result.code } : {}),
      line: row.line,
      finishedAt: finishedAt.toISOString(),
    };
    const text = JSON.stringify(rec) + '\n';
    this.chain = this.chain.then(async () => {
      try {
        await this.handle.write(text);
        await this.handle.datasync();
      } catch (err) {
        throw stateError(this.file, err);
      }
    });
    return this.chain;
  }

  async close(): Promise<void> {
    await this.chain.catch(() => undefined);
    await this.handle.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  try {
    const h = await open(dir, 'r');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    // Some file systems refuse fsync on a directory; the file itself is still synced.
  }
}

const stateError = (file: string, err: unknown) =>
  new LocalError(`Cannot write the state file ${file}: ${(err as Error).message}`, 1, { cause: err, code: 'STATE_UNWRITABLE' });
