import { endpoint } from '../table-entry.js';
import { ContentListener, CreateListenerBody, CreateListenerQuery } from '../schemas/listeners.js';

/** The endpoint table's listeners entries (src/api/endpoints.ts lists every area). */
export const listenersEndpoints = {
  createContentListener: endpoint({
    operationId: 'createContentListener',
    method: 'POST',
    path: '/content/listeners',
    tag: 'Content Listeners',
    title: 'Create content listener',
    description:
      'Creates a content listener that subscribes to an external source (reddit, youtube, google_news, google_search, rss, linkedin, x, pinterest, quora).',
    minRole: 'editor',
    websiteScope: 'single',
    websiteParam: 'query',
    idempotent: false,
    errorStatuses: [400, 401, 403, 413, 415, 429, 500, 503, 507],
    params: undefined,
    query: CreateListenerQuery,
    body: CreateListenerBody,
    data: ContentListener,
  }),
} as const;
