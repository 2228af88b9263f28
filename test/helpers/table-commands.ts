/**
 * The commands whose tables are checked against a terminal's width: in-process at several
 * widths (test/commands/cli/table-shapes.test.ts) and on a real pseudo-terminal
 * (test/e2e/pty-render.test.ts), over the fixture store.
 */
export const TABLE_COMMANDS: readonly string[][] = [
  ['finance', 'summary'],
  ['crm', 'agents'],
  ['brand', 'subjects'],
  ['nurture', 'list'],
  ['learnings', 'list'],
  ['visibility', 'grid'],
  ['listeners', 'create', '--name', 'Harbor dental mentions across every local news feed', '--source', 'rss', '--query', 'feed_url=https://news.example/harbor/dental/feed.xml'],
];

/** Each table command's name column (docs/output.md "Tables": 16 columns or whole from 80 columns). */
export const NAME_COLUMNS: Readonly<Record<string, string>> = {
  'finance summary': 'ENTITY',
  'crm agents': 'NAME',
  'brand subjects': 'NAME',
  'nurture list': 'TITLE',
  'listeners create': 'NAME',
  'ads create': 'NAME',
  'local keys': 'NAME',
  'local websites': 'NAME',
};
