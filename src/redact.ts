/** Key masking: a key is never printed whole after it is created (cli.md "Keys and profiles"). */
import { API_KEY_IN_TEXT, API_KEY_PATTERN } from './api/vocabulary.js';

/** `cr_1a2b…9f0e`: enough to tell keys apart, useless to an attacker. */
export function maskKey(key: string): string {
  if (API_KEY_PATTERN.test(key)) return `cr_${key.slice(3, 7)}…${key.slice(-4)}`;
  if (key.length <= 8) return '…';
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}

/** Replaces every whole key inside free text (URLs, bodies, error messages) with its mask. */
export function redactKeys(text: string): string {
  return text.replace(API_KEY_IN_TEXT, (k) => maskKey(k));
}
