import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import type { Workflow } from './workflow.js';

/**
 * What every workflow of docs/workflows/ holds to: it installs the version of cr it was
 * written for (package.json's, so the pin cannot drift from a release), reads the repository
 * only, and hands CR_API_KEY to the step that sends and to no other.
 */
export function expectWorkflowHygiene(w: Workflow): void {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  expect(w.steps.find((s) => s.name === 'Install cr')?.run).toBe(`npm install --global ${pkg.name}@${pkg.version}`);
  expect(w.doc.permissions).toEqual({ contents: 'read' });
  expect(w.env).not.toHaveProperty('CR_API_KEY');
  const withKey = w.steps.filter((s) => s.env && 'CR_API_KEY' in s.env);
  expect(withKey.map((s) => s.name)).toEqual(['Schedule']);
  for (const s of withKey) expect(s.run).toMatch(/^cr posts schedule /);
  // The plan check sends nothing and needs no key (docs/bulk-scheduling.md --dry-run).
  expect(w.steps.find((s) => s.name === 'Check the plan')?.run).toContain('--dry-run');
}
