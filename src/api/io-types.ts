/**
 * Request and handler types of each operation, derived from the endpoint table's zod
 * schemas. Type-only (nothing here exists at run time), so the CLI can type its calls with
 * `import type` and still never load zod (CONTRIBUTING.md, "How `cr` starts").
 */
import type { z } from 'zod';
import type { Endpoints } from './endpoints.js';
import type { OperationId } from './routes.js';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * String vocabularies widened to `string` (arrays and objects field by field): the service
 * fixes the names and types of the fields, while most allowed values are this project's
 * choices (docs/api-decisions.md, where docs/api-decisions.md says "not shown"). The CLI sends what the
 * user gave and lets the server judge it, so it also works against the hosted service.
 */
export type Widen<T> = T extends string
  ? string
  : T extends readonly (infer U)[]
    ? Widen<U>[]
    : T extends Record<string, unknown>
      ? { [K in keyof T]: Widen<T[K]> }
      : T;

/** A part the caller may leave out when every field in it is optional. */
// `Record<never, never>` is `{}`: it extends T exactly when every field of T is optional.
type Part<K extends string, T> = Record<never, never> extends T ? { [P in K]?: T } : { [P in K]: T };
type None<K extends string> = { [P in K]?: undefined };

type ParamsPart<E> = E extends { params: infer S extends z.ZodType } ? Part<'params', z.input<S>> : None<'params'>;
type QueryPart<E> = E extends { query: infer S extends z.ZodType }
  ? Part<'query', Widen<z.input<S>>>
  : E extends { websiteParam: 'query' }
    ? Part<'query', { website_id?: string }>
    : None<'query'>;
type BodyPart<E> = E extends { body: infer S extends z.ZodType } ? Part<'body', Widen<z.input<S>>> : None<'body'>;

/**
 * What a caller sends to an operation: path parameters, query and body as the table
 * declares them; `website_id` in the query where the table's `websiteParam` puts it.
 */
export type RequestInput<Op extends OperationId> = Simplify<ParamsPart<Endpoints[Op]> & QueryPart<Endpoints[Op]> & BodyPart<Endpoints[Op]>>;

/** The query of an operation's request, for a caller that builds it apart from the call. */
export type QueryOf<Op extends OperationId> = NonNullable<RequestInput<Op>['query']>;
/** The body of an operation's request, for a caller that builds it apart from the call. */
export type BodyOf<Op extends OperationId> = NonNullable<RequestInput<Op>['body']>;

/** The response data type of an operation. */
export type ResponseData<Op extends OperationId> = z.infer<Endpoints[Op]['data']>;

type Output<S, Else> = S extends z.ZodType ? z.output<S> : Else;

/**
 * What a server handler gets after validation (src/server/app/operations.ts): the parsed params, query
 * and body; an operation without a query schema may still be given website_id there.
 */
export interface ValidInputOf<Op extends OperationId> {
  params: Output<Endpoints[Op]['params'], Record<string, never>>;
  query: Output<Endpoints[Op]['query'], { website_id?: string }>;
  body: Output<Endpoints[Op]['body'], undefined>;
}
