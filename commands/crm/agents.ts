import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
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
        { header: 'ID', kind: 'id', field: 'id', value: (a: CrmAgent) => a.id },
        { header: 'NAME', name: true, field: 'name', value: (a) => a.name },
        { header: 'STATUS', kind: 'code', field: 'status', value: (a) => a.status },
        {
          header: 'VERSION',
          kind: 'number',
          field: 'activePromptVersion.versionNumber',
          value: (a) => (a.activePromptVersion ? `v${a.activePromptVersion.versionNumber}` : '-'),
          plain: (a) => a.activePromptVersion?.versionNumber ?? null,
        },
        // The whole prompt on one line; a terminal cuts it to fit, a pipe gets every character.
        {
          header: 'PROMPT',
          field: 'activePromptVersion.promptText',
          value: (a) => (a.activePromptVersion ? a.activePromptVersion.promptText : '-'),
          plain: (a) => a.activePromptVersion?.promptText ?? null,
          max: 60,
        },
        // The CRM's own id, of any length: an id (its first 8 characters at a narrow terminal), not a vocabulary code.
        { header: 'CRM ID', kind: 'id', field: 'crmAgentId', value: (a) => a.crmAgentId },
      ],
      empty: 'No CRM agents.',
    },
  );
}
