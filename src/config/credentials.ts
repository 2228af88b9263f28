import { AuthMissingError, UsageError } from '../errors.js';
import { API_KEY_PATTERN, LOOPBACK_HOSTS } from '../api/vocabulary.js';
import { maskKey, redactUrlPassword } from './redact.js';
import { DEFAULT_PROFILE, type Profile, type ProfileStore } from './profiles.js';

export type Source = 'flag' | 'env' | 'profile' | 'local';

export interface Credentials {
  profile: string;
  baseUrl?: string;
  key?: string;
  crmSegment?: string;
  source: { key?: Source; baseUrl?: Source; profile: Source | 'default' };
}

export interface CredentialFlags {
  profile?: string;
  baseUrl?: string;
}

/**
 * Precedence (docs/cli-contract.md): flags, then CR_API_KEY / CR_BASE_URL / CR_PROFILE, then the
 * active profile. A profile named by --profile is itself a flag, so its stored key and
 * URL win over the environment; otherwise the environment wins over the stored profile.
 */
export function resolveCredentials(flags: CredentialFlags, env: NodeJS.ProcessEnv, store?: ProfileStore): Credentials {
  const profileSource: Credentials['source']['profile'] = flags.profile ? 'flag' : env.CR_PROFILE ? 'env' : store?.activeName() ? 'profile' : 'default';
  const name = flags.profile || env.CR_PROFILE || store?.activeName() || DEFAULT_PROFILE;
  const stored: Profile = store?.get(name) ?? {};
  const explicitProfile = Boolean(flags.profile);
  const pick = (flag: string | undefined, envValue: string | undefined, profileValue: string | undefined): [string | undefined, Source | undefined] => {
    if (flag) return [flag, 'flag'];
    if (explicitProfile && profileValue) return [profileValue, 'profile'];
    if (envValue) return [envValue, 'env'];
    if (profileValue) return [profileValue, 'profile'];
    return [undefined, undefined];
  };
  // `CR_API_KEY=$(cat key.txt)` keeps a newline: surrounding whitespace is never part of a key.
  const [key, keySource] = pick(undefined, env.CR_API_KEY?.trim(), stored.apiKey);
  const [baseUrl, urlSource] = pick(flags.baseUrl, env.CR_BASE_URL?.trim(), stored.baseUrl);
  return {
    profile: name,
    key,
    baseUrl,
    crmSegment: stored.crmSegment,
    source: { key: keySource, baseUrl: urlSource, profile: profileSource },
  };
}

/** Whether the profile file is needed at all (env + flags may already say everything). */
export function needsProfileStore(flags: CredentialFlags, env: NodeJS.ProcessEnv): boolean {
  return Boolean(flags.profile) || !env.CR_API_KEY || !(flags.baseUrl || env.CR_BASE_URL);
}

/**
 * The credentials a request needs: a base URL that is an http(s) URL (else a usage error,
 * exit 2, nothing sent) and, unless `key: false` (--dry-run sends nothing), a key.
 */
export function requireUsable(c: Credentials): Credentials & { baseUrl: string; key: string };
export function requireUsable(c: Credentials, need: { key: false }): Credentials & { baseUrl: string };
export function requireUsable(c: Credentials, need: { key?: boolean } = {}): Credentials & { baseUrl: string } {
  // A bad value is a usage error before anything else (exit 2, whatever else is missing).
  if (c.baseUrl) checkBaseUrl(c.baseUrl, c.source.baseUrl === 'flag' ? '--base-url' : c.source.baseUrl === 'env' ? 'CR_BASE_URL' : `profile "${c.profile}"`);
  // --dry-run needs no key, only a URL to print: its absence is a missing flag (exit 2).
  if (need.key === false && !c.baseUrl)
    throw new UsageError(`No base URL to show the request with (profile "${c.profile}")`, 'pass --base-url URL or set CR_BASE_URL');
  if (need.key !== false && !c.key)
    throw new AuthMissingError(`No API key for profile "${c.profile}". Run \`cr auth login\`, set CR_API_KEY, or pass --local.`);
  // A malformed key would only come back as a network error (a bad header) or a 401.
  if (need.key !== false && c.key && !API_KEY_PATTERN.test(c.key)) {
    const from = c.source.key === 'env' ? 'CR_API_KEY' : `the key of profile "${c.profile}"`;
    throw new UsageError(`${from} is not an API key (${maskKey(c.key)})`, `expected cr_ followed by 40 lowercase hex characters; ${whereToGetKey(c.baseUrl)}`);
  }
  if (!c.baseUrl) throw new AuthMissingError(`No base URL for profile "${c.profile}". Run \`cr auth login --base-url URL\` or set CR_BASE_URL.`);
  return c as Credentials & { baseUrl: string };
}

/** Whether a base URL names this machine: a local server (`cr serve`), whose keys `cr local keys` makes. */
export function isLocalUrl(baseUrl: string | undefined): boolean {
  if (!baseUrl) return false;
  try {
    return LOOPBACK_HOSTS.has(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/** Where a key comes from: the admin interface of a deployment, `cr local keys create` for a local server. */
export function whereToGetKey(baseUrl: string | undefined): string {
  return isLocalUrl(baseUrl)
    ? 'a local server takes a key of its store: run `cr local keys create` (or `cr local init`)'
    : 'create one at /integrations/api-keys in the admin interface';
}

/**
 * What to do when the server refuses (401) the key these credentials sent: names where the
 * key came from (docs/cli-contract.md "Credentials": a profile, CR_API_KEY) and what to run.
 */
export function refusedKeyAdvice(c: Credentials): string {
  const get = whereToGetKey(c.baseUrl);
  if (c.source.key === 'env') {
    // With CR_API_KEY and a base URL the profile file is not read (needsProfileStore), so the
    // name here is only the fallback "default": name the profile only when it is known.
    const other = c.source.profile === 'default' ? 'the active profile (`cr auth status` names it)' : `profile "${c.profile}"`;
    return `the key came from CR_API_KEY; set it to a valid key (${get}) or unset it to use ${other}`;
  }
  return `the key came from profile "${c.profile}"; run \`cr auth login --profile ${c.profile}\` with a valid key (${get})`;
}

/**
 * A base URL must be http(s) (e.g. http://127.0.0.1:4010/api/v1); `where` names its source
 * for the usage error. Returns it normalised, without trailing slashes.
 */
export function checkBaseUrl(value: string, where: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    // A value no parser reads may still hold user:password@ (a bare # or / in the password): never echoed.
    throw new UsageError(`the base URL from ${where} is not an http(s) URL: "${redactUrlPassword(value)}" (e.g. http://127.0.0.1:4010/api/v1)`);
  }
  // user:password@ would be printed in messages and never sent (the key is the credential).
  if (url.username || url.password) {
    const shown = new URL(url.toString());
    if (shown.password) shown.password = '***';
    throw new UsageError(
      `the base URL from ${where} holds a user name or password (${shown.toString()})`,
      'remove "user:password@": cr authenticates with the API key alone',
    );
  }
  const normal = url.toString().replace(/\/+$/, '');
  // Every path of the API is under /api/v1 (docs/cli-contract.md "Credentials"): anything else
  // would send each request to a path the server does not have, and fail only after the key is asked.
  if (!/\/api\/v1$/.test(url.pathname.replace(/\/+$/, ''))) {
    throw new UsageError(`the base URL from ${where} does not end in /api/v1: "${value.trim()}"`, `did you mean ${suggestApiBase(url)}?`);
  }
  return normal;
}

/** The API base a URL most likely meant: up to its /api/v1 when it holds one deeper down, else with /api/v1 added. */
function suggestApiBase(url: URL): string {
  const path = url.pathname.replace(/\/+$/, '');
  const at = path.indexOf('/api/v1/');
  const base = at >= 0 ? path.slice(0, at) : path.replace(/\/api$/, '');
  return `${url.origin}${base}/api/v1`;
}
