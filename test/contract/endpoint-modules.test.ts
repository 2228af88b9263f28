import { describe, expect, it } from 'vitest';
import { endpointList, endpoints } from '../../src/api/endpoints.js';
import { endpointOf } from '../../src/api/endpoint-modules.js';
import { routes } from '../../src/api/routes.js';

/**
 * The server routes by the table's zod-free facts (src/api/generated/routes.ts) and loads an
 * operation's entry from its area's file when it first answers it (src/api/endpoint-modules.ts):
 * both must be the table itself (src/api/endpoints.ts), entry for entry.
 */
describe('the endpoint table, loaded one area at a time', () => {
  it('each operation loads its own entry of the table', async () => {
    for (const ep of endpointList) expect(await endpointOf(ep.operationId), ep.operationId).toBe(endpoints[ep.operationId]);
    expect(endpointOf('noSuchOperation')).toBeUndefined();
    expect(endpointOf('toString')).toBeUndefined();
  });

  it('the routes the router reads are the table’s, in its order; an endpoint has path parameters exactly when its path names some', () => {
    expect(Object.values(routes).map((r) => [r.operationId, r.method, r.path])).toEqual(endpointList.map((ep) => [ep.operationId, ep.method, ep.path]));
    for (const ep of endpointList) expect(ep.path.includes('{'), ep.operationId).toBe(ep.params !== undefined);
  });
});
