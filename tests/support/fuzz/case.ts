/**
 * One fuzz case, fully determined by (seed, case id): a base input from the corpus, a few text
 * mutations, a text form (JSONL, JSON array, stream-json), a container (none, Zstandard, gzip,
 * ZIP) with its own damage, and the openBytes options (chunk size, checkpoint interval).
 * Replaying `<seed>:<case>` rebuilds exactly the same bytes.
 */
import { Rng } from '../../../src/core/gen/rng';
import type { Base } from './corpus';
import { GENERATED_PER_SEED, fileCorpus, generatedBase } from './corpus';
import type { Expect } from './containers';
import { checkMagic, damageAsIs, wrapGzip, wrapRaw, wrapZip, wrapZstd, zipFixtureExpect } from './containers';
import { BYTE_MUTATORS, LINE_MUTATORS, mutateOnce } from './mutate';
import { naiveDecodeTolerant } from './oracle';

/** A built case. */
export interface FuzzCase {
  seed: number;
  id: number;
  /** `<seed>:<case>`, for `--replay`. */
  replay: string;
  base: string;
  name: string;
  bytes: Uint8Array;
  options: { chunkBytes?: number; checkpointEvery?: number };
  expect: (path: string) => Expect;
  required: string[];
  /** What was done, in order (for reports). */
  notes: string[];
}

const enc = new TextEncoder();
/** Most chunks per input when a case asks for small ones. */
const MAX_CHUNKS = 5000;
const dec = new TextDecoder('utf-8', { ignoreBOM: true });

function pickBase(seed: number, rng: Rng): Base {
  const files = fileCorpus();
  if (files.length > 0 && rng.chance(0.35)) return rng.pick(files);
  return generatedBase(seed, rng.int(0, GENERATED_PER_SEED - 1));
}

/** Re-encode the (mutated) JSONL events as a JSON array. */
function toJsonArray(doc: Uint8Array, rng: Rng): Uint8Array {
  const { events } = naiveDecodeTolerant(dec.decode(doc));
  return enc.encode(JSON.stringify(events, null, rng.chance(0.3) ? 1 : undefined));
}

/** Re-encode the events as headless stream-json: one or two sessions, maybe a window. */
function toStreamJson(doc: Uint8Array, rng: Rng): Uint8Array {
  const { events } = naiveDecodeTolerant(dec.decode(doc));
  const from = rng.chance(0.5) ? 0 : rng.int(0, Math.max(0, events.length - 1));
  const ids = rng.chance(0.7) ? ['s1'] : ['s1', 's2'];
  const lines: string[] = [];
  for (const event of events.slice(from)) lines.push(JSON.stringify({ type: 'session_event', sessionId: rng.pick(ids), event }));
  lines.push(JSON.stringify({ type: 'result', sessionId: 's1', output: 'done' }));
  return enc.encode(`${lines.join('\n')}\n`);
}

/** Build case `id` of fuzz seed `seed`. */
export async function buildCase(seed: number, id: number): Promise<FuzzCase> {
  const rng = new Rng(`surface-lens-fuzz:${seed}:${id}`);
  const base = pickBase(seed, rng);
  const notes: string[] = [`base ${base.label}`];
  const options: FuzzCase['options'] = {};
  if (rng.chance(0.25)) options.chunkBytes = rng.pick([1, 7, 64, 1000, 4096, 65536]) * (rng.chance(0.5) ? 1 : rng.int(1, 3));
  if (rng.chance(0.3)) options.checkpointEvery = rng.int(1, 64);
  let textBytes = 0;
  const done = (w: {
    name: string;
    bytes: Uint8Array;
    expect: (path: string) => Expect;
    required: string[];
    notes: string[];
  }): FuzzCase => {
    // Small chunks exercise every chunk boundary, but each chunk costs a progress report and
    // an await: keep it to MAX_CHUNKS of them, so the time budget measures the decoder.
    if (options.chunkBytes !== undefined) {
      options.chunkBytes = Math.max(options.chunkBytes, Math.ceil(Math.max(w.bytes.length, textBytes) / MAX_CHUNKS));
    }
    return {
      seed,
      id,
      replay: `${seed}:${id}`,
      base: base.label,
      name: w.name,
      bytes: w.bytes,
      options,
      expect: w.expect,
      required: w.required,
      notes: [...notes, ...w.notes],
    };
  };

  // Packed fixtures are also damaged as they are (their own frames and archive layout).
  if (base.packed && (base.text === '' || rng.chance(0.3))) {
    const bytes = damageAsIs(base.packed.bytes, rng, notes);
    if (base.packed.kind === 'zip') {
      return done(
        checkMagic(
          { name: base.name, bytes, expect: zipFixtureExpect(base.name, base.text, base.companions), required: [], notes: ['as-is'] },
          'zip',
        ),
      );
    }
    const expect: Expect = { kind: 'decode-zstd', bytes };
    const wrapped = {
      name: base.name,
      bytes,
      expect: (path: string): Expect => (path === base.name ? expect : { kind: 'none' }),
      required: [base.name],
      notes: ['as-is'],
    };
    return done(checkMagic(wrapped, 'zstd'));
  }

  let doc: Uint8Array = enc.encode(base.text);
  const count = rng.weighted<number>([
    [0, 1],
    [1, 5],
    [2, 2.5],
    [3, 1],
    [rng.int(4, 8), 0.5],
  ]);
  for (let i = 0; i < count; i++) {
    const m = mutateOnce(doc, rng);
    if (!m) continue;
    doc = m.bytes;
    notes.push(`${m.mutator}: ${m.note}`);
  }

  const form = rng.weighted<string>([
    ['jsonl', 88],
    ['json-array', 5],
    ['stream-json', 7],
  ]);
  if (form !== 'jsonl') {
    doc = form === 'json-array' ? toJsonArray(doc, rng) : toStreamJson(doc, rng);
    notes.push(`as ${form}`);
    if (rng.chance(0.5)) {
      const m = mutateOnce(doc, rng, [...BYTE_MUTATORS, ...LINE_MUTATORS]);
      if (m) {
        doc = m.bytes;
        notes.push(`${m.mutator}: ${m.note}`);
      }
    }
  }

  textBytes = doc.length;
  const container = rng.weighted<string>([
    ['raw', 55],
    ['zstd', 22],
    ['gzip', 8],
    ['zip', 15],
  ]);
  if (container === 'zstd') return done(await wrapZstd(doc, rng));
  if (container === 'gzip') return done(wrapGzip(doc, rng));
  if (container === 'zip') return done(wrapZip(doc, base.companions, rng));
  return done(wrapRaw(doc, base.name.endsWith('.jsonl') ? base.name : 'x.jsonl'));
}
