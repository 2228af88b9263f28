/** Host names every local server answers to (docs/api-decisions.md §8). */
export const DEFAULT_ALLOWED_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** The allowed host names: loopback, and those a server was told to answer to as well. */
export function allowedHostSet(extra: readonly string[] = []): ReadonlySet<string> {
  return new Set([...DEFAULT_ALLOWED_HOSTS, ...extra.map((h) => h.toLowerCase())]);
}

function hostAllowed(value: string, allowed: ReadonlySet<string>): boolean {
  const v = value.trim().toLowerCase();
  const m = /^(\[[^\]]*\]|[^:]+)(?::\d+)?$/.exec(v);
  return !!m && allowed.has(m[1]!);
}

/**
 * The Host/Origin check (docs/api-decisions.md §8) that blocks DNS rebinding: the Host header
 * names an allowed host, and an Origin, when sent, is http(s) on one too.
 */
export function hostAndOriginAllowed(host: string, origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (!hostAllowed(host, allowed)) return false;
  if (origin === undefined) return true;
  try {
    const u = new URL(origin);
    return ['http:', 'https:'].includes(u.protocol) && allowed.has(u.hostname.toLowerCase());
  } catch {
    return false;
  }
}
