import { safeJson } from '../../render/safe-json.js';
import { logSafe } from '../log-text.js';
import type { RequestLogEntry } from './pipeline.js';

/**
 * The two shapes of `cr serve`'s standard error (docs/local-server.md "Request log"): `text`,
 * one line per request as it always was (a 5xx names its cause at the end), and `json`, where
 * every line the server writes, its start notices included, is one JSON object. Values from a
 * request are cut as the text log cuts them, and written by safeJson (src/render/safe-json.ts),
 * which leaves no control character, separator or direction mark raw.
 */
export type LogFormat = 'text' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

/** `debug` adds the probe routes (/healthz, /readyz, /metrics) to the request log. */
export type LogLevel = 'info' | 'debug';
export const LOG_LEVELS: readonly LogLevel[] = ['info', 'debug'];

/** One request's text line; every value from the request or the store escaped (docs/api-decisions.md §9). */
export const formatLogLine = (e: RequestLogEntry, at = new Date()) =>
  `${at.toISOString()} ${logSafe(e.method, 32)} ${logSafe(e.path)} ${e.status} ${e.ms}ms key=${e.keyId === undefined ? '-' : logSafe(e.keyId, 64)}${
    e.cause === undefined ? '' : ` cause=${logSafe(e.cause, 64)}`
  }`;

/**
 * The `level` of a JSON line (docs/local-server.md "Request log"): `error` for a request
 * answered 5xx and for the server losing its store, stopping or failing; `warn` while it waits
 * for its store or retries; `info` otherwise.
 */
export type LineLevel = 'info' | 'warn' | 'error';

/** The notices' fixed openings (open-for-serving.ts, lost-store-exit.ts, connections.ts, serve.ts, store-wait.ts). */
const ERROR_NOTICE = /^cr serve: (?:stopping|error while stopping|internal error|the lock on .* was taken over)/s;
const WARN_NOTICE = /^cr serve: (?:waiting for the store|.*; staying up, not ready|folding the journal .* failed)/s;

/** A notice's level, by the words it opens with: every notice the server writes opens with fixed ones. */
export const noticeLevel = (text: string): LineLevel => (ERROR_NOTICE.test(text) ? 'error' : WARN_NOTICE.test(text) ? 'warn' : 'info');

/** One request as a JSON line. */
export const jsonLogLine = (e: RequestLogEntry, at = new Date()) =>
  safeJson({
    time: at.toISOString(),
    level: e.status >= 500 ? 'error' : 'info',
    msg: 'request',
    request_id: e.requestId ?? null,
    method: cut(e.method, 32),
    path: cut(e.path, 2048),
    status: e.status,
    ms: e.ms,
    key_id: e.keyId === undefined ? null : cut(e.keyId, 64),
    ...(e.cause === undefined ? {} : { cause: e.cause }),
  });

/** A notice (start, stop, the store's events, faults) as a JSON line; its text is escaped already. */
export const jsonNoticeLine = (text: string, at = new Date()) => safeJson({ time: at.toISOString(), level: noticeLevel(text), msg: text });

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);

/** The server's log in one format: requests, and any other line it writes. */
export interface ServerLog {
  request(e: RequestLogEntry): void;
  notice(text: string): void;
}

export function serverLog(format: LogFormat, write: (line: string) => void): ServerLog {
  if (format === 'json') return { request: (e) => write(jsonLogLine(e)), notice: (text) => write(jsonNoticeLine(text)) };
  return { request: (e) => write(formatLogLine(e)), notice: write };
}
