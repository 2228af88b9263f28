/** One page of an offset-paged list: its items and, when the API says, the total. */
export interface Page<I> {
  items: readonly I[];
  total?: number;
}

/**
 * Walks an offset-paged list (`limit`/`offset`, docs/api-decisions.md) from `start`, yielding
 * each page as it arrives, so a caller that writes a page before asking for the next one
 * holds one page in memory however long the list (docs/cli-contract.md "For scripts": `--all --jsonl`).
 * It stops at `total`, or without one at a short page; an empty page ends the walk too, so
 * a list that shrinks while it is read cannot loop forever.
 */
export async function* walkPages<I>(
  fetchPage: (offset: number) => Promise<Page<I>>,
  start: number,
  pageSize: number,
): AsyncGenerator<Page<I> & { offset: number }> {
  for (let offset = start; ; ) {
    const page = await fetchPage(offset);
    yield { ...page, offset };
    offset += page.items.length;
    if (page.items.length === 0) return;
    if (page.total !== undefined ? offset >= page.total : page.items.length < pageSize) return;
  }
}
