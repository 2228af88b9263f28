import type { Agent as AgentClass } from 'undici';
import AgentImpl from 'undici/lib/dispatcher/agent.js';
// Gives every dispatcher, the Agent too, its request() (undici-core.ts).
import './undici-core.js';

/** undici's connection pool (see undici-core.ts for why not `import 'undici'`). */
export const Agent = AgentImpl as typeof AgentClass;
export type Agent = AgentClass;
