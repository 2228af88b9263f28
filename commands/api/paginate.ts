import type { ApiClient, RawResponse } from '../../src/http/client.js';
import { walkPages } from '../../src/http/pages.js';
import { UsageError } from '../../src/errors.js';

/** Where a page's items are: the data itself, or its one array field (`{sequences, total}`). */
function listOf(data: unknown): { key?: string; items: unknown[] } | undefined {
  if (Array.isArray(data)) return { items: data };
  if (!data || typeof data !== 'object') return undefined;
  const arrays = Object.entries(data).filter(([, v]) => Array.isArray(v));
  return arrays.length === 1 ? { key: arrays[0]![0], items: arrays[0]![1] as unknown[] } : undefined;
}

const numberField = (data: unknown, name: string): number | undefined => {
  const v = data && typeof data === 'object' ? (data as Record<string, unknown>)[name] : undefined;
  return typeof v === 'number' ? v : undefined;
};

export interface Paging {
  client: ApiClient;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  /** Called with each page's response (for --include). */
  onResponse?: (res: RawResponse) => void;
}

/**
 * `cr api --paginate` (as `gh api --paginate`, for this API's limit/offset lists): asks for
 * the next page from `offset` + the items so far until `total`. Only an endpoint that echoes
 * the `offset` it was asked for pages that way (nurture sequences); any other list (learnings
 * has a limit but no offset) is one page, so a page is never fetched twice. The page size is
 * `-F limit`, else the server's default. Yields each page as it arrives (src/http/pages.ts).
 */
export async function* apiPages(p: Paging): AsyncGenerator<{ data: unknown; key?: string; items: unknown[] }> {
  const start = typeof p.query.offset === 'number' ? p.query.offset : 0;
  let last: { data: unknown; key?: string } = { data: undefined };
  const pages = walkPages<unknown>(
    async (offset) => {
      const url = p.client.resolve(p.path, { ...p.query, offset });
      const res = await p.client.send('GET', url, undefined, p.headers);
      p.onResponse?.(res);
      const { data } = p.client.unwrap('GET', url, res);
      const list = listOf(data);
      if (!list) throw new UsageError(`--paginate: ${p.path} answered no list (an array, or an object with one array field)`, 'call it without --paginate');
      last = { data, key: list.key };
      const total = numberField(data, 'offset') === offset ? numberField(data, 'total') : undefined;
      return { items: list.items, total: total ?? offset + list.items.length };
    },
    start,
    Number.MAX_SAFE_INTEGER,
  );
  for await (const page of pages) yield { ...last, items: [...page.items] };
}
