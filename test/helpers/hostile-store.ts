import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureStore } from './fixture-store.js';

/**
 * Text that would drive a terminal if written raw: a window title and a screen clear, an
 * OSC 8 hyperlink, and the one-byte C1 CSI (0x9b). docs/cli-contract.md "At a terminal": never raw.
 */
export const HOSTILE = {
  title: '\u001b]0;pwned\u0007\u001b[2J',
  link: '\u001b]8;;http://evil\u001b\\x\u001b]8;;\u001b\\',
  csi: '\u009b31m',
} as const;

/** Bytes that must never reach a terminal or a TSV line from API text: ESC, BEL, C1 CSI. */
export const RAW_CONTROL = /[\u001b\u0007\u009b]/;

/**
 * The fixture store with hostile text in every field a table, a TSV line, a heat map or a
 * key listing prints: entity, client, agent, prompt, subject, sequence, learning, keyword
 * and key names.
 */
export function writeHostileStore(dir: string): string {
  const s = fixtureStore();
  const h = HOSTILE;
  s.business_entities[0]!.name = `Acme ${h.title}`;
  s.revenue_records[0]!.client_name = `Globex ${h.link}`;
  s.crm_agents[0]!.name = `Closer ${h.title}`;
  s.crm_agents[0]!.promptVersions[1]!.promptText = `Hi ${h.link} ${h.csi}`;
  s.brand_subjects[0]!.subjectName = `Maxi ${h.csi}`;
  s.nurture_sequences[0]!.title = `Welcome ${h.link}`;
  s.learnings[0]!.summary = `Deadlines ${h.title}`;
  s.learnings[0]!.dimensionValue = `cost ${h.csi}`;
  s.visibility_scans[0]!.keywords[0]!.keyword = `plumber ${h.title}`;
  s.api_keys[0]!.name = `editor ${h.title}${h.csi}`;
  const path = join(dir, 'store.json');
  writeFileSync(path, JSON.stringify(s, null, 2));
  return path;
}
