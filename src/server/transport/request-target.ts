import type { IncomingMessage } from 'node:http';

/** Header fields a request may carry once only; Node keeps the first of several and drops the rest. */
const SINGLE_FIELDS = ['host', 'authorization', 'content-type'] as const;
/** Their lengths: a name of another length is none of them, and is not lower-cased at all. */
const SINGLE_FIELD_LENGTHS: readonly number[] = SINGLE_FIELDS.map((f) => f.length);

/**
 * What the socket carrier (cr serve's listener, node-listener.ts) hands the pipeline
 * (pipeline.ts), made to mean what the other carriers see:
 *
 * - An absolute-form target (`GET http://name/api/v1/... HTTP/1.1`) names its host itself:
 *   RFC 9112 §3.2.2 has the server ignore the Host header then, so the Host/Origin check
 *   (docs/api-decisions.md §8) judges the target's authority, and the path is the origin form
 *   the log and the router read.
 * - A field sent twice (two Authorization or Host headers) is the two values joined by ", ",
 *   as a web `Headers` (the Fetch carrier, app.ts) and --local's dispatcher give it, never
 *   the first alone: two keys authenticate no one, two hosts are no allowed host.
 * - No Host at all (allowed by HTTP/1.0; Node refuses it in HTTP/1.1 with a bare 400 when
 *   asked to) is an empty one, which the Host check refuses with the envelope and a log line.
 */
export function normaliseTarget(req: IncomingMessage): void {
  const url = req.url ?? '';
  if (url[0] !== '/' && /^https?:\/\//i.test(url)) {
    const rest = url.slice(url.indexOf('//') + 2);
    const end = rest.search(/[/?#]/);
    const authority = end === -1 ? rest : rest.slice(0, end);
    const path = end === -1 ? '/' : rest.slice(end);
    req.headers.host = authority;
    req.url = path[0] === '/' ? path : `/${path}`;
  }
  const raw = req.rawHeaders;
  // Most requests carry a dozen fields: one pass over them, and nothing more unless a field repeats.
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (!SINGLE_FIELD_LENGTHS.includes(raw[i]!.length)) continue;
    const at = SINGLE_FIELDS.indexOf(raw[i]!.toLowerCase() as (typeof SINGLE_FIELDS)[number]);
    if (at === -1) continue;
    if (seen & (1 << at)) {
      const name = SINGLE_FIELDS[at]!;
      const values: string[] = [];
      for (let j = 0; j < raw.length; j += 2) if (raw[j]!.toLowerCase() === name) values.push(raw[j + 1]!);
      req.headers[name] = values.join(', ');
    }
    seen |= 1 << at;
  }
  req.headers.host ??= '';
}
