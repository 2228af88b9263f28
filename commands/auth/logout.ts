import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { DEFAULT_PROFILE } from '../../src/config/profiles.js';

export const logoutCommand = (ctx: Context) =>
  withExamples(
    new Command('logout').description("forget the profile's key (the profile's URL is kept)").action(() => logout(ctx)),
    ['cr auth logout', 'cr auth logout --profile staging'],
  );

export async function logout(ctx: Context): Promise<void> {
  const store = await ctx.profiles();
  const name = ctx.globals.profile ?? ctx.env.CR_PROFILE ?? store.activeName() ?? DEFAULT_PROFILE;
  const profile = store.get(name);
  if (!profile?.apiKey) {
    ctx.notice(`Profile "${name}" has no stored key; nothing to do`);
    return;
  }
  const { apiKey: _removed, ...rest } = profile;
  store.save(name, rest, store.activeName() === name);
  ctx.notice(`Logged out of profile "${name}"`);
}
