import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { withExamples } from '../../src/cli-kit.js';
import { scriptable } from '../../src/output/flags.js';
import { routes } from '../../src/api/routes.js';
import type { CrmAgent } from '../../src/api/schemas/crm.js';
import { websiteParam } from '../../src/http/request-params.js';
import { render } from '../../src/render/output.js';

export const agentsCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('agents').description('list CRM AI agents with their active prompt version').action(() => agents(ctx)),
      ['cr crm agents', "cr crm agents --jq '.agents[] | select(.activePromptVersion == null) | .name'"],
    ),
    { jq: true, csv: true, jsonl: true, quiet: true },
  );

export async function agents(ctx: Context): Promise<void> {
  // The client rewrites the `crm` path segment when the profile names the CRM product.
  const res = await (await ctx.api()).call(routes.listCrmAgents, { query: websiteParam(ctx) });
  await render(
    ctx.io,
    { ...ctx.globals, data: res.raw, items: (res.raw as { agents: unknown[] }).agents },
    {
      rows: res.data.agents,
      id: (a) => a.id,
      columns: [
        { header: 'NAME', value: (a: CrmAgent) => a.name },
        { header: 'STATUS', kind: 'code', value: (a) => a.status },
        { header: 'VERSION', kind: 'number', value: (a) => (a.activePromptVersion ? `v${a.activePromptVersion.versionNumber}` : '-') },
        // The whole prompt on one line; a terminal cuts it to fit, a pipe gets every character.
        { header: 'PROMPT', value: (a) => (a.activePromptVersion ? a.activePromptVersion.promptText : '-'), max: 60 },
        { header: 'CRM ID', kind: 'id', value: (a) => a.crmAgentId },
        { header: 'ID', kind: 'id', value: (a) => a.id },
      ],
      empty: 'No CRM agents.',
    },
  );
}
