/**
 * Prototype-safe JSON: `__proto__` keys are dropped while parsing, so no later spread or
 * record copy can ever reach an object's prototype.
 */
export function safeJsonParse(text: string): unknown {
  // A reviver costs a function call per value (half the load time of a large store), so
  // it runs only when the text could spell `__proto__`: literally, or through a \u escape.
  if (!text.includes('__proto__') && !text.includes('\\u')) return JSON.parse(text);
  return JSON.parse(text, (key, value) => (key === '__proto__' ? undefined : value));
}

export interface ShapeViolation {
  path: string;
  message: string;
}

export const MAX_DEPTH = 32;
export const MAX_STRING_BYTES = 64 * 1024;

/**
 * The first violation of the body limits of docs/api-decisions.md §1: nesting deeper than 32
 * levels (the top-level value is level 1) or a string (value or key) over 64 KiB.
 */
export function shapeViolation(value: unknown, maxDepth = MAX_DEPTH, maxStringBytes = MAX_STRING_BYTES): ShapeViolation | undefined {
  const tooLong = (s: string) => s.length > maxStringBytes / 4 && Buffer.byteLength(s, 'utf8') > maxStringBytes;
  const walk = (v: unknown, depth: number, path: (string | number)[]): ShapeViolation | undefined => {
    if (typeof v === 'string') {
      return tooLong(v) ? { path: joinPath(path), message: 'String longer than 64 KiB' } : undefined;
    }
    if (v === null || typeof v !== 'object') return undefined;
    if (depth > maxDepth) return { path: joinPath(path.slice(0, maxDepth)), message: `Nested deeper than ${maxDepth} levels` };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const r = walk(v[i], depth + 1, [...path, i]);
        if (r) return r;
      }
      return undefined;
    }
    for (const [k, child] of Object.entries(v)) {
      if (tooLong(k)) return { path: joinPath(path), message: 'Key longer than 64 KiB' };
      const r = walk(child, depth + 1, [...path, k]);
      if (r) return r;
    }
    return undefined;
  };
  return walk(value, 1, []);
}

/** Dot-joined path (`query_config.feed_url`, `image_urls.2`); the empty path is `body`. */
export function joinPath(path: readonly PropertyKey[], root = 'body'): string {
  return path.length === 0 ? root : path.map((p) => String(p)).join('.');
}

/** docs/api-decisions.md §9: a listener's query_config is at most 8 KiB of JSON and 32 keys. */
export const MAX_QUERY_CONFIG_BYTES = 8 * 1024;
export const MAX_QUERY_CONFIG_KEYS = 32;

/**
 * Why a query_config is over the caps of docs/api-decisions.md §9, if it is: its JSON over 8 KiB, or
 * over 32 keys counted at every level (nested objects' keys count too). Without the cap an
 * editor key could store about 1 MiB per request until the store no longer serialises.
 */
export function queryConfigViolation(config: unknown): string | undefined {
  let keys = 0;
  const count = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || keys > MAX_QUERY_CONFIG_KEYS) return;
    if (Array.isArray(v)) {
      for (const item of v) count(item);
      return;
    }
    for (const child of Object.values(v)) {
      keys++;
      count(child);
    }
  };
  count(config);
  if (keys > MAX_QUERY_CONFIG_KEYS) return `query_config has more than ${MAX_QUERY_CONFIG_KEYS} keys (counted at every level)`;
  const bytes = Buffer.byteLength(JSON.stringify(config) ?? '');
  if (bytes > MAX_QUERY_CONFIG_BYTES) return `query_config is ${bytes} bytes of JSON; at most ${MAX_QUERY_CONFIG_BYTES} are accepted`;
  return undefined;
}
