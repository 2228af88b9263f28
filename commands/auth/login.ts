import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { UsageError, ApiError, AuthMissingError } from '../../src/errors.js';
import { API_KEY_PATTERN, CRM_PATH_SEGMENT } from '../../src/api/vocabulary.js';
import { writeJson } from '../../src/render/json.js';
import { readAll } from '../../src/io/streams.js';
import { maskKey } from '../../src/config/redact.js';
import { DEFAULT_PROFILE } from '../../src/config/profiles.js';
import { checkBaseUrl, whereToGetKey } from '../../src/config/credentials.js';
import { baseUrlFromAnswer } from './base-url-answer.js';

interface LoginOptions {
  profile: string;
  baseUrl?: string;
  withKey: boolean;
  verify: boolean;
  crmSegment?: string;
}

export const loginCommand = (ctx: Context) =>
  withExamples(
    new Command('login')
      .description('store an API key in a profile (asks on a terminal; --with-key reads stdin)')
      .option('--with-key', 'read the key from standard input (for scripts)')
      .option('--no-verify', 'do not check the key against the server')
      .option('--crm-segment <name>', 'the CRM product path segment of /integrations/<name>/agents')
      .action((f: { withKey?: boolean; verify: boolean; crmSegment?: string }) =>
        login(ctx, {
          // Same choice as logout and every other command: --profile, then CR_PROFILE.
          profile: ctx.globals.profile ?? ctx.env.CR_PROFILE ?? DEFAULT_PROFILE,
          baseUrl: ctx.globals.baseUrl,
          withKey: Boolean(f.withKey),
          verify: f.verify,
          crmSegment: f.crmSegment,
        }),
      ),
    [
      'cr auth login --base-url https://cms.example.com/api/v1',
      'printf %s "$CR_KEY" | cr auth login --profile ci --base-url https://cms.example.com/api/v1 --with-key',
    ],
  );

export function checkKeyFormat(key: string, from = 'standard input', baseUrl?: string): string {
  const trimmed = key.trim();
  if (trimmed === '') throw new UsageError(`No key: ${from} was empty`, `pass the key, e.g. printf %s "$CR_KEY" | cr auth login --with-key`);
  if (!API_KEY_PATTERN.test(trimmed)) {
    throw new UsageError('That is not an API key: expected cr_ followed by 40 lowercase hex characters', whereToGetKey(baseUrl));
  }
  return trimmed;
}

export async function login(ctx: Context, o: LoginOptions): Promise<void> {
  const store = await ctx.profiles();
  const existing = store.get(o.profile);
  // Precedence (docs/cli-contract.md): the flag, then CR_BASE_URL, then what the profile has stored.
  let [given, where] = o.baseUrl
    ? [o.baseUrl, '--base-url']
    : ctx.env.CR_BASE_URL
      ? [ctx.env.CR_BASE_URL, 'CR_BASE_URL']
      : [existing?.baseUrl, `profile "${o.profile}"`];
  if (!given) {
    if (o.withKey) throw new UsageError('No base URL for this profile', 'pass --base-url URL (ending in /api/v1) or set CR_BASE_URL');
    const answer = await ctx.prompt.input('Base URL (a host such as cms.example.com, or a URL ending in /api/v1)', {
      flag: '--base-url',
      check: baseUrlFromAnswer,
    });
    // The URL the answer stands for, said before the key is asked for it.
    ctx.notice(`Using ${answer}`);
    [given, where] = [answer, 'the answer'];
  }
  const baseUrl = checkBaseUrl(given, where);
  const rawKey = o.withKey
    ? await readAll(ctx.io.stdin)
    : await ctx.prompt.secret('API key', { flag: '--with-key (key on stdin)', check: (k) => checkKeyFormat(k, 'the answer', baseUrl) });
  const key = checkKeyFormat(rawKey, o.withKey ? 'standard input' : 'the answer', baseUrl);
  if (o.verify) await verify(ctx, baseUrl, key, existing?.crmSegment);
  const saved = { ...existing, baseUrl, apiKey: key, ...(o.crmSegment ? { crmSegment: o.crmSegment } : {}) };
  const before = store.activeName();
  store.save(o.profile, saved);
  // --json: the stored profile, as `cr auth status --json` shows one (key masked).
  if (ctx.globals.json) {
    writeJson(ctx.io, { profile: o.profile, baseUrl, key: maskKey(key), verified: o.verify, active: true, crmSegment: saved.crmSegment ?? CRM_PATH_SEGMENT });
  }
  ctx.notice(`Logged in: profile "${o.profile}" → ${baseUrl} with key ${maskKey(key)}${o.verify ? '' : ' (not verified)'}`);
  // Saving makes the profile the active one: said when that changes which profile commands use.
  if (before && before !== o.profile) ctx.notice(`"${o.profile}" is now the active profile (was "${before}"); \`cr profiles use ${before}\` switches back`);
}

async function verify(ctx: Context, baseUrl: string, key: string, crmSegment?: string): Promise<void> {
  const { routes } = await import('../../src/api/routes.js');
  // The same builder as every command: timeout, User-Agent, masked --verbose log, spinner.
  const client = await ctx.connect({ baseUrl, key, crmSegment });
  try {
    await client.call(routes.getFinanceSummary);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401)
      throw new AuthMissingError(
        `The server rejected the key ${maskKey(key)} (HTTP 401); nothing was stored; ${whereToGetKey(baseUrl)}`,
        error.code ?? 'INVALID_API_KEY',
      );
    throw error;
  }
}
