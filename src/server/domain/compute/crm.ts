import { PROMPT_PREVIEW_MAX } from '../../../api/schemas/crm.js';
import type { CrmAgent, CrmAgentList } from '../../../api/schemas/crm.js';
import type { CrmAgentRecord } from '../../store/schema.js';

/** At most `max` Unicode code points: an emoji (astral character) is never split. */
export function truncateCodePoints(text: string, max = PROMPT_PREVIEW_MAX): string {
  const points = Array.from(text);
  return points.length <= max ? text : points.slice(0, max).join('');
}

export function toCrmAgent(r: CrmAgentRecord): CrmAgent {
  const active = r.promptVersions.filter((v) => v.isActive).sort((a, b) => b.versionNumber - a.versionNumber)[0];
  return {
    id: r.id,
    crmAgentId: r.crmAgentId,
    name: r.name,
    status: r.status,
    activePromptVersion: active ? { versionNumber: active.versionNumber, promptText: truncateCodePoints(active.promptText), isActive: true } : null,
    createdAt: r.createdAt,
  };
}

/** GET /integrations/crm/agents (docs/api-decisions.md §6). */
export function listCrmAgents(records: readonly CrmAgentRecord[], websiteIds: ReadonlySet<string>): CrmAgentList {
  return { agents: records.filter((r) => websiteIds.has(r.websiteId)).map(toCrmAgent) };
}
