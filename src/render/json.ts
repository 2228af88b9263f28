import type { IO } from '../io/streams.js';
import { safeJson as toJson } from './safe-json.js';

/**
 * The one JSON writer of results (docs/cli-contract.md "Output": `--json` prints the data as JSON with a
 * 2-space indent, nothing else on standard output). Light on purpose: no colour, no tables.
 */
export function writeJson(io: Pick<IO, 'out'>, data: unknown): void {
  io.out.write(toJson(data, 2) + '\n');
}

/**
 * An error under `--json` (docs/cli-contract.md "Exit codes"): `{"error","code","status"}` on one line of
 * stderr, with `problems` and `more` when the error lists problems (src/render/problem-cap.ts).
 */
export function writeJsonError(
  io: Pick<IO, 'err'>,
  error: { error: string; code: string | null; status: number | null; problems?: readonly unknown[]; more?: number },
): void {
  io.err.write(toJson(error) + '\n');
}
