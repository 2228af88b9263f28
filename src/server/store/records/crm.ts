import * as z from 'zod';
import { PromptVersion } from '../../../api/schemas/crm.js';

/** Records of CRM agents, with every prompt version (docs/store-format.md). */
export const CrmAgentRecord = z.looseObject({
  id: z.string(),
  websiteId: z.string(),
  crmAgentId: z.string(),
  name: z.string(),
  status: z.string(),
  createdAt: z.string(),
  promptVersions: z.array(PromptVersion),
});

export const crmRecords = { crm_agents: CrmAgentRecord } as const;

export type CrmAgentRecord = z.infer<typeof CrmAgentRecord>;
