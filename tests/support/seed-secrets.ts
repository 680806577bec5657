/**
 * Seeds a generated log with {@link SEEDED_SECRETS}: each of a few common words of the
 * generator's prose and code is followed by one secret, the same secret for the same word
 * everywhere (so a pruned copy still starts and ends like its original), in message texts,
 * streamed deltas and tool output only; the header's cwd becomes a home directory.
 */
import { SEEDED_SECRETS } from './secrets';

const WORDS = [
  'import',
  'return',
  'function',
  'const',
  'await',
  'file',
  'object',
  'parser',
  'config',
  'package',
  'patch',
  'command',
  'Cache',
  'step',
];
const TEXT_KEYS = new Set(['text', 'texts', 'argumentsDelta', 'args', 'arguments', 'content', 'summary']);

function seedString(text: string, rotation: number): string {
  return text.replace(
    /\b(import|return|function|const|await|file|object|parser|config|package|patch|command|Cache|step)\b/g,
    (word: string) => {
      const secret = SEEDED_SECRETS[(WORDS.indexOf(word) + rotation) % SEEDED_SECRETS.length];
      return `${word} ${secret?.text ?? ''}`;
    },
  );
}

function walk(value: unknown, rotation: number, inText: boolean): unknown {
  if (typeof value === 'string') return inText ? seedString(value, rotation) : value;
  if (Array.isArray(value)) return value.map((v) => walk(v, rotation, inText));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = walk(v, rotation, inText || TEXT_KEYS.has(key));
    return out;
  }
  return value;
}

/** The log text with secrets seeded; `rotation` varies which word carries which secret. */
export function seedSecrets(jsonl: string, rotation: number): string {
  const lines = jsonl.split('\n');
  return lines
    .map((line, i) => {
      if (line.trim() === '') return line;
      const value = JSON.parse(line) as Record<string, unknown>;
      if (i === 0 && value.type === 'session') return JSON.stringify({ ...value, cwd: '/home/alicezq7/work/repo' });
      return JSON.stringify(walk(value, rotation, false));
    })
    .join('\n');
}
