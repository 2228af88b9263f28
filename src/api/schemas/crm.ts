import { z } from 'zod';

export const PROMPT_PREVIEW_MAX = 200;

export const PromptVersion = z.looseObject({
  versionNumber: z.number().int(),
  promptText: z.string(),
  isActive: z.boolean(),
});

export const CrmAgent = z.looseObject({
  id: z.string(),
  crmAgentId: z.string(),
  name: z.string(),
  status: z.string(),
  activePromptVersion: PromptVersion.nullable(),
  createdAt: z.string(),
});
export type CrmAgent = z.infer<typeof CrmAgent>;

export const CrmAgentList = z.looseObject({ agents: z.array(CrmAgent) });
export type CrmAgentList = z.infer<typeof CrmAgentList>;
