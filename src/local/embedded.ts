import type { Context } from '../context.js';
import { LocalError } from '../errors.js';

/** Starts the embedded local server for --local (filled in with the local server). */
export async function startEmbedded(_ctx: Context): Promise<{ baseUrl: string; key: string; close: () => Promise<void> }> {
  throw new LocalError('--local is not available yet');
}
