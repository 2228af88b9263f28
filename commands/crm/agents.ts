import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { withExamples } from '../../src/cli-kit.js';
import { scriptable } from '../../src/output/flags.js';
import { routes } from '../../src/api/routes.js';
import type { CrmAgent } from '../../src/api/schemas/crm.js';
import { websiteParam } from '../../src/http/request-params.js';
import { render } from '../../src/render/output.js';
import { oneLine } from '../../src/render/format.js';

export const agentsCommand = (ctx: Context) =>
  scriptable(withExamples(
    new Command('agents').description('list CRM AI agents with their active prompt version').action(() => agents(ctx)),
    ['cr crm agents', "cr crm agents --jq '.agents[] | select(.activePromptVersion == null) | .name'"]), { jq: true, csv: true, jsonl: true, quiet: true });

export async function agents(ctx: Context): Promise<void> {
  // The client rewrites the `crm` path segment when the profile names the CRM product.
  const res = await (await ctx.api()).call(routes.listCrmAgents, { query: websiteParam(ctx) });
  await render(ctx.io, { ...ctx.globals, data: res.raw, items: (res.raw as { agents: unknown[] }).agents }, {
    rows: res.data.agents,
    id: (a) => a.id,
    columns: [
      { header: 'NAME', value: (a: CrmAgent) => a.name },
      { header: 'STATUS', value: (a) => a.status },
      { header: 'VERSION', value: (a) => (a.activePromptVersion ? `v${a.activePromptVersion.versionNumber}` : '-') },
      { header: 'PROMPT', value: (a) => (a.activePromptVersion ? oneLine(a.activePromptVersion.promptText, 60) : '-'), csv: (a) => a.activePromptVersion?.promptText },
      { header: 'CRM ID', value: (a) => a.crmAgentId },
      { header: 'ID', value: (a) => a.id },
    ],
    empty: 'No CRM agents.',
  });
}
