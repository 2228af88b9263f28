import type { Dispatcher } from 'undici';

/**
 * Request headers as undici's request() takes them (an object, or a flat name/value list),
 * lower-cased. A field named twice is both values joined by ", ", as a web Headers and
 * cr serve give it (src/server/transport/request-target.ts): two Authorization headers are no key,
 * never the last one.
 */
export function plainHeaders(headers: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const pairs: [string, unknown][] = [];
  if (Array.isArray(headers)) for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([String(headers[i]), headers[i + 1]]);
  else pairs.push(...Object.entries(headers as Record<string, unknown>));
  for (const [name, value] of pairs) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    out[key] = key in out ? `${out[key]}, ${text}` : text;
  }
  return out;
}

/**
 * The request headers undici's own Request refuses before a byte is sent (lib/core/request.js,
 * and the length check of lib/dispatcher/client-h1.js), with undici's words. Both of cr's
 * dispatchers (node-dispatcher.ts over the network, src/local/in-process-dispatcher.ts for
 * --local) refuse them alike, so `cr api -H` fails the same way everywhere. `bodyLength` is
 * undefined for a streamed body, whose length is not known before it is sent.
 */
export function refusedHeader(headers: Record<string, string>, bodyLength: number | undefined): Error | undefined {
  for (const name of ['transfer-encoding', 'keep-alive', 'upgrade']) if (name in headers) return new Error(`invalid ${name} header`);
  if ('expect' in headers) return new Error('expect header not supported');
  const declared = headers['content-length'];
  if (declared === undefined) return undefined;
  if (!/^\d+$/.test(declared)) return new Error('invalid content-length header');
  if (bodyLength !== undefined && Number(declared) !== bodyLength) return new Error('Request body length does not match content-length header');
  return undefined;
}
