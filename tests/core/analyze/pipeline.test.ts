/**
 * The text pipeline: every container's sessions carry their form (container and text form), and
 * text appended in any pieces gives what the whole text gives.
 */
import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../../src/core/analyze/open';
import { TextPipeline } from '../../../src/core/analyze/pipeline';
import type { SessionAnalysis } from '../../../src/core/analyze/session';
import { generateText } from '../../../src/core/gen/generate';
import { Rng } from '../../../src/core/gen/rng';
import { ByteBuffer } from '../../../src/core/util/grow';
import { zstdFrames } from '../../support/zstd-frames';

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);

const streamJson = [
  JSON.stringify({ type: 'session_event', sessionId: 'a', event: { seq: 0, type: 'turn/start', time: 1 } }),
  JSON.stringify({ type: 'session_event', sessionId: 'a', event: { seq: 1, type: 'turn/end', time: 2 } }),
  '',
].join('\n');

function shape(s: SessionAnalysis): unknown {
  return {
    path: s.path,
    format: s.format,
    form: s.form,
    events: Array.from({ length: s.log.length }, (_, i) => s.log.event(i)),
    fold: s.fold,
    decodeError: s.decodeError,
    diagnostics: s.diagnostics,
    steps: s.index.steps,
    types: Array.from(s.columns.typeId),
  };
}

describe('TextPipeline', () => {
  it('a session keeps its container and its text form', async () => {
    const text = generateText({ seed: 3, events: 40 });
    const plain = (await openBytes(enc(text), { name: 'a.jsonl' })).sessions[0]!;
    expect([plain.form, plain.format]).toEqual([{ container: 'none', text: 'jsonl' }, 'jsonl']);
    const gz = (await openBytes(gzipSync(enc(text)), { name: 'a.jsonl.gz' })).sessions[0]!;
    expect([gz.form, gz.format]).toEqual([{ container: 'gzip', text: 'jsonl' }, 'jsonl-gzip']);
    const zst = (await openBytes(await zstdFrames(text.split(/(?<=\n)/)), { name: 'a.jsonl.zst' })).sessions[0]!;
    expect([zst.form, zst.format]).toEqual([{ container: 'zstd', text: 'jsonl' }, 'jsonl-zstd']);
    const gzStream = (await openBytes(gzipSync(enc(streamJson)), { name: 's.json.gz' })).sessions[0]!;
    expect([gzStream.form, gzStream.format, gzStream.path]).toEqual([
      { container: 'gzip', text: 'stream-json' },
      'stream-json',
      's.json.gz#a',
    ]);
    const gzArray = (await openBytes(gzipSync(enc(' [{"seq":0,"type":"turn/start","time":1}]')), { name: 'x.json.gz' })).sessions[0]!;
    expect([gzArray.form, gzArray.format]).toEqual([{ container: 'gzip', text: 'json-array' }, 'json-array']);
  });

  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: text appended in random pieces gives what the whole text gives`, async () => {
      const text = enc(generateText({ seed, events: 300, violation: seed === 2 ? 'seq-gap' : null }));
      const whole = (await openBytes(text, { name: 'p.jsonl', checkpointEvery: 8 })).sessions.map(shape);
      const rng = new Rng(`pipeline-${seed}`);
      const pipeline = new TextPipeline({
        path: 'p.jsonl',
        container: 'none',
        text: new ByteBuffer(16),
        budget: null,
        step: 1 << 20,
        checkpointEvery: 8,
      });
      for (let at = 0; at < text.length;) {
        const size = rng.int(1, 400);
        pipeline.append([text.subarray(at, at + size)]);
        at += size;
      }
      expect(pipeline.finish().map(shape)).toEqual(whole);
    });
  }
});
