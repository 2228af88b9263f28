import { z } from 'zod';

export { ROLES, API_KEY_PATTERN } from '../vocabulary.js';
export type { Role } from '../vocabulary.js';

/** http(s) URL; `z.url()` alone would also accept mailto:, ftp: and friends. */
export const httpUrl = () =>
  z.url({ protocol: /^https?$/, error: 'Expected an http or https URL' });

export const uuid = () => z.uuid({ error: 'Expected a UUID' });

/** ISO 8601 date-time that carries an offset or Z, as decisions.md §5 requires for scheduling. */
export const isoDateTimeWithOffset = () =>
  z.iso.datetime({ offset: true, local: false, error: 'Expected an ISO 8601 date-time with an offset or Z' });

/** The optional website_id every scoped endpoint accepts (auto-resolved for single-website keys). */
export const websiteIdField = () => uuid().optional().describe('Website to address; optional for single-website keys');

/** Error body of every failure (decisions.md §1). `code` is absent on the scheduling not-found. */
export const ErrorDetail = z.object({ path: z.string(), message: z.string() });
export const ErrorBody = z.looseObject({
  success: z.literal(false),
  error: z.string(),
  code: z.string().optional(),
  details: z.array(ErrorDetail).optional(),
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
