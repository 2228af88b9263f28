import type { IncomingMessage } from 'node:http';
import { HttpError } from '../domain/errors.js';

/**
 * Request bodies on the local server: the 1 MiB limit (docs/api-decisions.md §1) and the JSON media
 * type (docs/api-decisions.md §9), for REST and MCP alike.
 */

export const MAX_BODY_BYTES = 1024 * 1024;

/** The body is over the limit (declared or streamed); answered 413. */
export class BodyTooLarge extends Error {}

/** Reads the body text, refusing more than `max` bytes (declared or streamed/chunked). */
export async function readBodyText(req: Request, max = MAX_BODY_BYTES): Promise<string> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > max) throw new BodyTooLarge();
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a Node request's body text, refusing more than `max` bytes (declared or streamed). */
export function readIncomingText(incoming: IncomingMessage, max = MAX_BODY_BYTES): Promise<string> {
  const declared = incoming.headers['content-length'];
  if (declared !== undefined && Number(declared) > max) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > max) {
        incoming.off('data', onData);
        incoming.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    incoming.on('data', onData);
    incoming.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    incoming.once('error', reject);
  });
}

/** `application/json` or any `<type>/<subtype>+json`, with any parameters (charset…). */
export function isJsonMediaType(contentType: string | undefined | null): boolean {
  if (!contentType) return false;
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(essence);
}

/**
 * The 415 of docs/api-decisions.md §9 for a body (at least one byte) whose Content-Type is not JSON or
 * is missing. An empty body is no body: a POST without one keeps its behaviour (an empty
 * object, so the validation step names the missing fields).
 */
export function unsupportedMediaType(rawBody: string | undefined, contentType: string | undefined | null): HttpError | undefined {
  if (rawBody === undefined || rawBody.length === 0 || isJsonMediaType(contentType)) return undefined;
  return new HttpError(415, 'Content-Type must be application/json', 'UNSUPPORTED_MEDIA_TYPE');
}
