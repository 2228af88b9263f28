import { randomUUID } from 'node:crypto';

/**
 * A client's X-Request-Id is taken as it is when it is short and made of safe characters
 * (letters, digits and `._:-`, at most 128: a UUID, a ULID, a trace id), so it can be logged
 * and echoed without escaping; anything else is replaced by a fresh UUID (docs/local-server.md
 * "Request log"). Never an error: a bad id is not worth refusing a request over.
 */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

type Headers_ = Headers | Record<string, string | undefined>;

const headerOf = (h: Headers_, name: string): string | undefined =>
  typeof (h as Headers).get === 'function' ? ((h as Headers).get(name) ?? undefined) : (h as Record<string, string | undefined>)[name];

export function requestIdOf(headers: Headers_): string {
  const sent = headerOf(headers, 'x-request-id');
  return sent !== undefined && SAFE_ID.test(sent) ? sent : randomUUID();
}
