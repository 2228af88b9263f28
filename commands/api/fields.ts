import { readFileSync } from 'node:fs';
import { UsageError } from '../../src/errors.js';

/** `-F count=3` → 3, `-F on=true` → true, `-F x=null` → null, `-F body=@file.txt` → file text. */
export function parseFieldValue(raw: string): unknown {
  if (raw.startsWith('@')) {
    try {
      return readFileSync(raw.slice(1), 'utf8');
    } catch (e) {
      throw new UsageError(`Cannot read ${raw.slice(1)}: ${(e as Error).message}`);
    }
  }
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(raw) && Number.isFinite(Number(raw))) return Number(raw);
  return raw;
}

/** Builds an object from key=value fields; `a[b]=1` nests and `a[]=x` appends. */
export function fieldsToObject(fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const field of fields) {
    const eq = field.indexOf('=');
    if (eq <= 0) throw new UsageError(`-F expects key=value, got "${field}"`);
    const key = field.slice(0, eq);
    const value = parseFieldValue(field.slice(eq + 1));
    const parts = key.match(/^([^[\]]+)((?:\[[^[\]]*\])*)$/);
    if (!parts) throw new UsageError(`-F key is not valid: "${key}"`);
    const path = [parts[1]!, ...[...parts[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    assign(out, path, value);
  }
  return { ...out };
}

function assign(target: Record<string, unknown>, path: string[], value: unknown): void {
  const [head, ...rest] = path;
  if (head === '__proto__' || head === 'constructor' || head === 'prototype') throw new UsageError(`-F key part "${head}" is not allowed`);
  if (rest.length === 0) {
    target[head!] = value;
    return;
  }
  if (rest[0] === '' && rest.length === 1) {
    const arr = Array.isArray(target[head!]) ? (target[head!] as unknown[]) : [];
    arr.push(value);
    target[head!] = arr;
    return;
  }
  const child = target[head!] && typeof target[head!] === 'object' ? (target[head!] as Record<string, unknown>) : {};
  target[head!] = child;
  assign(child, rest, value);
}
