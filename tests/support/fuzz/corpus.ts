/**
 * Fuzz corpus: the base inputs mutations start from. Generated logs (seeded, 200–3000 events,
 * varied writer options) plus real files: the project's fixtures and, when ../shared is present,
 * the upstream session logs and packaged forms. Containers among the files are unpacked to their
 * logical texts, so every base can be re-wrapped in any container.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { decompress } from 'fzstd';
import { VIOLATION_KINDS, generateText } from '../../../src/core/gen/generate';
import type { GenOptions } from '../../../src/core/gen/generate';
import { Rng } from '../../../src/core/gen/rng';
import { PACKAGED_FIXTURES, UPSTREAM_FIXTURES, listFiles, readBytes } from '../shared';

/** One starting point. */
export interface Base {
  /** Stable label (shown in reports). */
  label: string;
  /** File name handed to `openBytes` for plain-text cases. */
  name: string;
  /** The logical text of the root session. */
  text: string;
  /** Further session logs that travel with it in an export ZIP (`subagents/...`). */
  companions: { path: string; text: string }[];
  /** The original bytes when the base is a container file (mutated as-is by some cases). */
  packed: { kind: 'zstd' | 'zip'; bytes: Uint8Array } | null;
}

const OWN_FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** How many distinct generated logs one fuzz seed draws from. */
export const GENERATED_PER_SEED = 32;

/** Writer options of generated base `slot` for fuzz seed `seed` (deterministic). */
export function generatedOptions(seed: number, slot: number): GenOptions {
  const rng = new Rng(`fuzz-gen:${seed}:${slot}`);
  // Mostly small logs (fast cases), some up to 3000 events.
  const events = rng.chance(0.6) ? rng.int(200, 800) : rng.int(800, 3000);
  const opts: GenOptions = { seed: rng.int(1, 1_000_000), events };
  opts.packChunks = rng.chance(0.8);
  opts.compaction = rng.chance(0.15) ? false : { thresholdTokens: rng.pick([2500, 4000, 8000, 20000]) };
  if (rng.chance(0.5)) {
    opts.pruneThreshold = rng.pick([1500, 3000, 8192]);
    opts.longToolResultRate = rng.pick([0.06, 0.2, 0.4]);
  }
  opts.openTail = rng.chance(0.2);
  if (rng.chance(0.15)) opts.violation = rng.pick(VIOLATION_KINDS);
  return opts;
}

const generatedCache = new Map<string, Base>();

/** Generated base `slot` of fuzz seed `seed` (cached). */
export function generatedBase(seed: number, slot: number): Base {
  const key = `${seed}:${slot}`;
  let base = generatedCache.get(key);
  if (!base) {
    const opts = generatedOptions(seed, slot);
    const text = generateText(opts);
    const companions: { path: string; text: string }[] = [];
    const rng = new Rng(`fuzz-companions:${key}`);
    const n = rng.int(0, 2);
    for (let i = 0; i < n; i++) {
      companions.push({
        path: `subagents/c${i}/session.jsonl`,
        text: generateText({ seed: rng.int(1, 1_000_000), events: rng.int(60, 300) }),
      });
    }
    base = {
      label: `gen(seed ${opts.seed}, ${opts.events} events${opts.violation ? `, ${opts.violation}` : ''}${opts.openTail ? ', open tail' : ''})`,
      name: 'gen.jsonl',
      text,
      companions,
      packed: null,
    };
    if (generatedCache.size > 4 * GENERATED_PER_SEED) generatedCache.clear();
    generatedCache.set(key, base);
  }
  return base;
}

function fileBase(dir: string, file: string, label: string): Base | null {
  const bytes = readBytes(join(dir, file));
  try {
    if (file.endsWith('.zip')) {
      const members = unzipSync(bytes);
      const names = Object.keys(members).filter((n) => n.endsWith('.jsonl'));
      const root = names.includes('session.jsonl') ? 'session.jsonl' : names[0];
      if (root === undefined) return null;
      const text = utf8.decode(members[root]);
      const companions = names.filter((n) => n !== root).map((n) => ({ path: n, text: utf8.decode(members[n]) }));
      return { label, name: file, text, companions, packed: { kind: 'zip', bytes } };
    }
    if (file.endsWith('.zstd')) {
      return { label, name: file, text: utf8.decode(decompress(bytes)), companions: [], packed: { kind: 'zstd', bytes } };
    }
  } catch {
    // A container fixture the plain libraries cannot unpack (torn on purpose): mutate as-is only.
    const kind = file.endsWith('.zip') ? 'zip' : 'zstd';
    return { label, name: file, text: '', companions: [], packed: { kind, bytes } };
  }
  return { label, name: file, text: utf8.decode(bytes), companions: [], packed: null };
}

let fileBases: Base[] | null = null;

/** Every real file: tests/fixtures/*, ../shared/fixtures/dsh-upstream/*.jsonl and packaged/* when present. */
export function fileCorpus(): Base[] {
  if (!fileBases) {
    const out: Base[] = [];
    const add = (dir: string, filter: (n: string) => boolean, prefix: string): void => {
      for (const file of listFiles(dir, filter)) {
        const base = fileBase(dir, file, `${prefix}/${file}`);
        if (base) out.push(base);
      }
    };
    add(OWN_FIXTURES, (n) => !n.startsWith('.'), 'fixtures');
    add(UPSTREAM_FIXTURES, (n) => n.endsWith('.jsonl'), 'dsh-upstream');
    add(PACKAGED_FIXTURES, (n) => n.endsWith('.zstd') || n.endsWith('.zip'), 'packaged');
    fileBases = out;
  }
  return fileBases;
}
