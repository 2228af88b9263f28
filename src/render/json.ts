import type { IO } from '../io/streams.js';

/**
 * JSON.stringify escapes C0 controls but leaves DEL, the C1 controls (0x80-0x9f, among
 * them the one-byte CSI 0x9b) and the bidirectional overrides raw; written as `\u009b`,
 * `\u202e` they are the same JSON and never reach a terminal (docs/cli-contract.md "At a terminal"; the
 * set of render/escape.ts). They can only occur inside strings.
 */
const RAW_IN_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const toJson = (data: unknown, indent?: number): string =>
  JSON.stringify(data, null, indent).replace(RAW_IN_JSON, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));

/**
 * The one JSON writer of results (docs/cli-contract.md "Output": `--json` prints the data as JSON with a
 * 2-space indent, nothing else on standard output). Light on purpose: no colour, no tables.
 */
export function writeJson(io: Pick<IO, 'out'>, data: unknown): void {
  io.out.write(toJson(data, 2) + '\n');
}

/** An error under `--json` (docs/cli-contract.md "Exit codes"): `{"error","code","status"}` on one line of stderr. */
export function writeJsonError(io: Pick<IO, 'err'>, error: { error: string; code: string | null; status: number | null }): void {
  io.err.write(toJson(error) + '\n');
}
