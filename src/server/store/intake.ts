import type { Mutation } from './batch.js';
import { StoreFullError, StoreUnavailableError } from './errors.js';
import { indentedJsonBytes } from './indented-size.js';

/**
 * How the group commit (commit.ts) takes queued writes: in journal lines of bounded size,
 * and within the store's size cap (docs/api-decisions.md §9), each write stringified once.
 */

/** A queued write and its caller's promise. */
export interface Pending {
  mutations: Mutation[];
  /** The write's JSON, made once when the commit takes it. */
  json?: string;
  /** What the write adds to the snapshot file at most (bytes), measured with its JSON. */
  growth?: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Writes taken into one journal line at most (bytes of JSON): a burst of large writes is
 * spread over several lines rather than one string near V8's length limit.
 */
const MAX_LINE_BYTES = 32 * 1024 * 1024;
/**
 * What a write adds to the snapshot, which `serialize` (snapshot.ts) writes indented by 2,
 * where the journal holds compact JSON: indenting costs ~8 bytes a field, so counting the
 * journal's bytes let a fold grow the file past `--max-store-mb` (docs/api-decisions.md §9). The
 * mutations indented the same way put a record's fields at the depth the snapshot puts them
 * (`[ { "record": { "f"` as `{ "collection": [ { "f"`), so this is the record's size in the
 * snapshot plus its mutation's few wrapper fields: a slight overcount, never an undercount
 * for an insert; a patch counts its fields whole even where they replace old values.
 */
const snapshotGrowthOf = (json: string): number => indentedJsonBytes(json);

/**
 * Takes a prefix of the queue (removed from it) of at most MAX_LINE_BYTES of JSON, at least
 * one write. A write that cannot be stringified is refused (503) on its own.
 */
export function takeBatch(queue: Pending[]): Pending[] {
  let bytes = 0;
  let n = 0;
  for (const p of queue) {
    try {
      p.json ??= JSON.stringify(p.mutations);
      // From the compact text: the same number as measuring the indented one (indented-size.ts).
      // A write that only removes (cr local reset) adds nothing: counted 0, the estimate stays an overcount until the next fold measures the file.
      p.growth ??= p.mutations.every((m) => m.op === 'remove' || m.op === 'clear') ? 0 : snapshotGrowthOf(p.json);
    } catch (err) {
      p.json = '';
      p.reject(new StoreUnavailableError({ cause: err }));
    }
    if (n > 0 && bytes + p.json.length > MAX_LINE_BYTES) break;
    bytes += p.json.length;
    n++;
  }
  return queue.splice(0, n).filter((p) => p.json !== '');
}

/**
 * The writes that fit under the cap, in order; the first that does not, and every one after
 * it (a later write may patch what a refused one inserts), are refused with StoreFullError.
 * `size` is the store's current estimate (snapshot bytes + the growth of the writes since),
 * never a serialisation of the store.
 */
export function refuseOverCap(accepted: Pending[], size: number, maxBytes: number): Pending[] {
  const kept: Pending[] = [];
  let full = false;
  for (const p of accepted) {
    // Removing makes room: never refused for size (`cr local reset` is how a full store is emptied).
    if (p.growth === 0 && !full) {
      kept.push(p);
      continue;
    }
    size += p.growth!;
    full ||= size > maxBytes;
    if (full) p.reject(new StoreFullError(maxBytes));
    else kept.push(p);
  }
  return kept;
}
