import { createHash } from 'node:crypto';

/** A stable UUID (v4 layout) derived from a label, so demo ids are the same on every run. */
export function stableId(label: string): string {
  const h = createHash('sha256').update(`cr-demo:${label}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
