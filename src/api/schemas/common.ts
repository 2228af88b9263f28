import * as z from 'zod';

export { ROLES, API_KEY_PATTERN } from '../vocabulary.js';
export type { Role } from '../vocabulary.js';

/**
 * http(s) URL; `z.url()` alone would also accept mailto:, ftp: and friends. JSON Schema's
 * `format: uri` would too, hence the pattern in the documents (docs/api-decisions.md §5, §10).
 */
export const httpUrl = () => z.url({ protocol: /^https?$/, error: 'Expected an http or https URL' }).meta({ pattern: '^https?://' });

/**
 * Response timestamps and dates (docs/api-decisions.md: ISO 8601 date-time and calendar dates). The
 * format is stated for clients, not checked here: the server returns what its store holds.
 */
export const dateTime = () => z.string().meta({ format: 'date-time' });
export const calendarDate = () => z.string().meta({ format: 'date' });

/**
 * A response string whose values the documents list (docs/api-decisions.md §10). Like the formats
 * above it is stated, not checked: the store keeps the strings it holds (§7), and the
 * server never re-validates its own output.
 */
export const documentedEnum = (values: readonly string[]) => z.string().meta({ enum: [...values] });

export const uuid = () => z.uuid({ error: 'Expected a UUID' });

/** ISO 8601 date-time that carries an offset or Z, as docs/api-decisions.md §5 requires for scheduling. */
export const isoDateTimeWithOffset = () => z.iso.datetime({ offset: true, local: false, error: 'Expected an ISO 8601 date-time with an offset or Z' });

/** The optional website_id every scoped endpoint accepts (auto-resolved for single-website keys). */
export const websiteIdField = () => uuid().optional().describe('Website to address; optional for single-website keys');

/**
 * The query of a listing narrowed to one website at most, and what the server reads website_id
 * with on a scoped endpoint that has no query of its own (src/server/app/operations.ts).
 */
export const ScopeFilterQuery = z.object({ website_id: websiteIdField() });

/** Error body of every failure (docs/api-decisions.md §1). `code` is absent on the scheduling not-found. */
export const ErrorDetail = z
  .object({ path: z.string().describe('Dot-joined path of the offending field, e.g. query_config.feed_url'), message: z.string() })
  .meta({ id: 'ErrorDetail', description: 'One offending field of a 400 Validation error' });
export const ErrorBody = z
  .looseObject({
    success: z.literal(false),
    error: z.string().describe('Message text'),
    code: z.string().optional().describe('Machine-readable code; absent on the scheduling not-found (docs/api-decisions.md §1)'),
    details: z.array(ErrorDetail).optional(),
  })
  .meta({
    id: 'ErrorEnvelope',
    description: 'Body of every error response',
    examples: [
      {
        success: false,
        error: 'Validation error',
        code: 'BAD_REQUEST',
        details: [{ path: 'name', message: 'Too small: expected string to have >=1 characters' }],
      },
    ],
  });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Success envelope around an endpoint's data schema. */
export const successEnvelope = <T extends z.ZodType>(data: T) =>
  z.looseObject({
    success: z.literal(true),
    data,
    meta: z.looseObject({ total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).partial().optional(),
  });

/** A response-side string field that older or newer servers may leave out or null. */
export const nullableString = () => z.string().nullable();
