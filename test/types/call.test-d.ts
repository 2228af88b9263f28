/**
 * Type-level tests of the typed request: `npm run typecheck` compiles this file
 * (tsconfig.test.json) and fails if a `@ts-expect-error` line below compiles cleanly, i.e.
 * if the client stops rejecting a wrong request. Nothing here runs: the calls sit in a
 * function that is never called.
 */
import type { ApiClient } from '../../src/http/client.js';
import type { Handler } from '../../src/server/domain/handlers.js';
import type { ValidInputOf } from '../../src/api/io-types.js';
import type { routes as Routes } from '../../src/api/routes.js';

declare const client: ApiClient;
declare const routes: typeof Routes;

export async function typedCalls(): Promise<void> {
  // Accepted: every part as the table declares it.
  await client.call(routes.getFinanceSummary);
  await client.call(routes.getFinanceSummary, { query: { website_id: 'w' } });
  await client.call(routes.listLearnings, { query: { dimension_type: 'hook', limit: 10 } });
  await client.call(routes.listNurtureSequences, { query: { status: 'active', limit: 20, offset: 40 } });
  await client.call(routes.scheduleSocialPost, { params: { id: 'p' }, query: { website_id: 'w' }, body: { scheduled_at: '2030-01-01T00:00:00Z' } });
  await client.call(routes.createContentListener, { body: { name: 'n', source_type: 'rss', query_config: { feed_url: 'https://x.example/f' } } });
  const visibility = await client.call(routes.getGbpVisibility, { query: { keyword: 'plumber' } });
  const keywords: string[] = visibility.data.keywords.map((k) => k.keyword);
  void keywords;

  // @ts-expect-error a query key the operation does not take
  await client.call(routes.listLearnings, { query: { dimension: 'hook' } });
  // @ts-expect-error a query field of the wrong type (limit is a number)
  await client.call(routes.listNurtureSequences, { query: { limit: '20' } });
  // @ts-expect-error a query on an operation that takes website_id in the body
  await client.call(routes.createAdCreative, { query: { website_id: 'w' }, body: { ad_format: 'video', name: 'n', destination_url: 'https://x.example' } });
  // @ts-expect-error a body field of the wrong type (scheduled_at is a string)
  await client.call(routes.scheduleSocialPost, { params: { id: 'p' }, body: { scheduled_at: 1_900_000_000 } });
  // @ts-expect-error a missing path parameter
  await client.call(routes.scheduleSocialPost, { body: { scheduled_at: '2030-01-01T00:00:00Z' } });
  // @ts-expect-error a path parameter under the wrong name
  await client.call(routes.scheduleSocialPost, { params: { postId: 'p' }, body: { scheduled_at: '2030-01-01T00:00:00Z' } });
  // @ts-expect-error a missing body on a write that needs one
  await client.call(routes.createContentListener, { query: { website_id: 'w' } });
  // @ts-expect-error a body missing a required field (name)
  await client.call(routes.createContentListener, { body: { source_type: 'rss', query_config: {} } });
  // @ts-expect-error a body on a read
  await client.call(routes.listBrandSubjects, { body: { website_id: 'w' } });
  // @ts-expect-error the response data is typed too: agents is an array
  const count: number = (await client.call(routes.listCrmAgents)).data.agents;
  void count;
}

// Server handlers get their operation's parsed input: scheduled_at is a string, limit a number.
export const scheduleCheck: Handler<ValidInputOf<'scheduleSocialPost'>>['check'] = ({ params, body }) =>
  params.id.length > 0 && body.scheduled_at.length > 0 ? [] : [{ path: 'id', message: 'empty' }];
export const learningsLimit = (input: ValidInputOf<'listLearnings'>): number => input.query.limit;
// @ts-expect-error a handler reading a body its operation does not have
export const noBody = (input: ValidInputOf<'listLearnings'>): string => input.body.website_id;
