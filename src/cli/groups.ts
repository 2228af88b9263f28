import type { Command } from 'commander';
import type { Context } from './context.js';

/** A command group's module: adds its command (and subcommands) to the program. */
export type Register = (program: Command, ctx: Context) => void;

export interface Group {
  name: string;
  summary: string;
  load: () => Promise<{ register: Register }>;
}

/**
 * Every top-level command, with the one line `cr --help` shows. Modules are imported only
 * when their command runs, so `cr --help` and `cr --version` stay light.
 */
export const groups: Group[] = [
  { name: 'finance', summary: 'Revenue, costs and invoice alerts of your business entities', load: () => import('../../commands/finance/index.js') },
  { name: 'ads', summary: 'Ad creatives', load: () => import('../../commands/ads/index.js') },
  { name: 'listeners', summary: 'Content listeners on external sources', load: () => import('../../commands/listeners/index.js') },
  { name: 'posts', summary: 'Social posts: scheduling', load: () => import('../../commands/posts/index.js') },
  { name: 'learnings', summary: 'Confirmed learnings from test wins', load: () => import('../../commands/learnings/index.js') },
  { name: 'nurture', summary: 'Nurture sequences', load: () => import('../../commands/nurture/index.js') },
  { name: 'visibility', summary: 'Business profile visibility rank grid', load: () => import('../../commands/visibility/index.js') },
  { name: 'brand', summary: 'Brand subjects', load: () => import('../../commands/brand/index.js') },
  { name: 'crm', summary: 'CRM AI agents', load: () => import('../../commands/crm/index.js') },
  { name: 'api', summary: 'Call any path under the base URL', load: () => import('../../commands/api/index.js') },
  { name: 'auth', summary: 'Log in, check and log out API keys', load: () => import('../../commands/auth/index.js') },
  { name: 'profiles', summary: 'Stored key profiles', load: () => import('../../commands/profiles/index.js') },
  { name: 'serve', summary: 'Run the local server', load: () => import('../../commands/serve/index.js') },
  {
    name: 'local',
    summary: 'Local store: init, seed, export, keys, websites, posts, restore, copy, migrate',
    load: () => import('../../commands/local/index.js'),
  },
  { name: 'mcp', summary: 'MCP: client configuration and the stdio bridge for desktop agents', load: () => import('../../commands/mcp/index.js') },
  { name: 'completion', summary: 'Print a shell completion script (bash, zsh, fish)', load: () => import('../../commands/completion/index.js') },
  { name: 'version', summary: 'Version, commit, build date, Node and start-up cache', load: () => import('../../commands/version/index.js') },
];
