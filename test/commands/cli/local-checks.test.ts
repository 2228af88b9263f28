import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/harness.js';
import { requestSchemas } from '../../../src/api/generated/request-schemas.js';

const NURTURE_STATUSES = requestSchemas.listNurtureSequences.query.properties.status.enum;
const AD_FORMATS = requestSchemas.createAdCreative.body.properties.ad_format.enum;

/**
 * What the CLI knows is checked before anything is sent (docs/cli-contract.md §5): the API's
 * vocabularies (generated from the endpoint table, src/api/generated/request-schemas.ts) and
 * id format (src/api/vocabulary.ts) and the fields a write needs; exit 2 with the valid values or the nearest one.
 */
const h = useHarness();

const refused = async (args: string[]) => {
  h.seen.length = 0;
  const r = await h.cr(args);
  expect(r.exitCode, r.stderr).toBe(2);
  expect(h.seen, 'nothing is sent').toEqual([]);
  return r.stderr;
};

describe('checked before anything is sent', () => {
  it('an enum value with a typo: the valid values and the nearest', async () => {
    const err = await refused(['nurture', 'list', '--status', 'actve']);
    expect(err).toContain(`--status must be one of ${NURTURE_STATUSES.join(', ')}; got "actve"; did you mean active?`);
    expect(await refused(['learnings', 'list', '--type', 'bogus'])).toContain('--type must be one of hook, angle');
    expect(await refused(['ads', 'create', '--name', 'x', '--url', 'https://a.example', '--format', 'carosel'])).toContain(
      `--format must be one of ${AD_FORMATS.join(', ')}; got "carosel"; did you mean carousel?`,
    );
    expect(await refused(['ads', 'create', '--name', 'x', '--format', 'video', '--url', 'https://a.example', '--platform', 'metaa'])).toContain('did you mean meta?');
  });

  it('--source and --interval of listeners create: the same message, with the nearest value', async () => {
    const base = ['listeners', 'create', '--name', 'x', '--query', 'subreddit=node'];
    expect(await refused([...base, '--source', 'redit'])).toContain('--source must be one of reddit, youtube,');
    expect(await refused([...base, '--source', 'redit'])).toContain('got "redit"; did you mean reddit?');
    expect(await refused([...base, '--source', 'reddit', '--interval', '24'])).toContain('--interval must be one of 1h, 6h, 12h, 24h, 7d; got "24"; did you mean 24h?');
  });

  it('an id that is not a uuid: --website on any command, a post id, a product line', async () => {
    expect(await refused(['nurture', 'list', '--website', 'not-a-uuid'])).toContain('--website must be a uuid');
    expect(await refused(['finance', 'summary', '--website', 'site-1'])).toContain('--website must be a uuid');
    expect(await refused(['posts', 'schedule', 'p1', '--at', '+1h'])).toContain('the post id must be a uuid');
    expect(await refused(['ads', 'create', '--name', 'x', '--format', 'video', '--url', 'https://a.example', '--product-line', 'pl-1'])).toContain('--product-line must be a uuid');
  });

  it('a write missing a required field names the flag, not the API field alone', async () => {
    const err = await refused(['ads', 'create', '--name', 'x']);
    expect(err).toContain('missing --format (ad_format); missing --url (destination_url)');
    expect(err).not.toContain('Invalid option');
  });

  it('a value the schema refuses, from a --body file or a flag, names the flag', async () => {
    expect(await refused(['ads', 'create', '--name', 'x', '--format', 'video', '--url', 'ftp://a.example'])).toContain('--url (destination_url):');
  });

  it('valid values still go through', async () => {
    const r = await h.cr(['nurture', 'list', '--status', 'active', '--limit', '1', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
  });
});
