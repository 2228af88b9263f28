/**
 * The endpoint table's HTTP facts without zod, for the CLI (a command never loads zod:
 * CONTRIBUTING.md, "How cr starts"). The data is generated from the table (endpoints.ts) by
 * `npm run build` into generated/routes.ts; the types are written by hand in route-types.ts.
 */
export { routes, type OperationId } from './generated/routes.js';
export { roleSentence } from './route-types.js';
export type { ErrorStatus, PathSegments, Route, WebsiteParam, WebsiteScope } from './route-types.js';
export { CRM_PATH_SEGMENT } from './vocabulary.js';
