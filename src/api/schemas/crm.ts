import * as z from 'zod';
import { dateTime } from './common.js';

export const PROMPT_PREVIEW_MAX = 200;

export const PromptVersion = z
  .looseObject({
    versionNumber: z.number().int(),
    promptText: z.string().describe('Cut to at most 200 characters (Unicode code points)'),
    isActive: z.boolean(),
  })
  .meta({ id: 'PromptVersion' });

export const CrmAgent = z
  .looseObject({
    id: z.string(),
    crmAgentId: z.string(),
    name: z.string(),
    status: z.string(),
    activePromptVersion: PromptVersion.nullable().describe('The active prompt version, or null when none is active'),
    createdAt: dateTime(),
  })
  .meta({ id: 'CrmAgent', description: 'A CRM AI agent with its active prompt version' });
export type CrmAgent = z.infer<typeof CrmAgent>;

export const CrmAgentList = z.looseObject({ agents: z.array(CrmAgent) }).meta({ id: 'CrmAgentList' });
export type CrmAgentList = z.infer<typeof CrmAgentList>;
