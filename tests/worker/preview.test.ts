/**
 * Progressive load: a large log's first complete lines are opened on their own and sent with
 * the progress, and queries answer on them while the rest loads; the load's own summary then
 * replaces them. A small log gets no preview.
 */
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../src/core/analyze/open';
import { generateText } from '../../src/core/gen/generate';
import type { LoadSummary, ProgressEvent } from '../../src/protocol/protocol';
import { createEngine, FIRST_ROWS, PREVIEW_BYTES, PREVIEW_MIN_INPUT } from '../../src/worker/engine';

const bytes = new TextEncoder().encode(generateText({ seed: 51, events: 70_000 }));

/** A blob read in pieces of 64 KiB, as a browser reads a picked file (Node's Blob reads in one). */
class PiecewiseBlob extends Blob {
  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    const whole = bytes;
    let at = 0;
    return new ReadableStream({
      pull(controller) {
        if (at >= whole.length) return controller.close();
        controller.enqueue(whole.slice(at, at + (64 << 10)));
        at += 64 << 10;
      },
    });
  }
}

describe('progressive load', () => {
  it('a large log sends a preview of its first lines, and queries answer on it during the load', async () => {
    expect(bytes.length).toBeGreaterThan(PREVIEW_MIN_INPUT);
    let preview: LoadSummary | null = null;
    let rowsDuringLoad: number | null = null;
    let progressAfterPreview = 0;
    const engine = createEngine({ pause: () => new Promise((resolve) => setTimeout(resolve, 0)) });
    const done = engine.open({ kind: 'bytes', name: 'big.jsonl', buffer: bytes.slice().buffer }, (p: ProgressEvent) => {
      if (p.preview) {
        preview = p.preview;
        void engine
          .rows({
            session: p.preview.sessions[0]!.id,
            step: p.preview.sessions[0]!.accepted,
            filter: { families: [], surfaceOnly: false },
            start: 0,
            count: 50,
          })
          .then((w) => {
            rowsDuringLoad = w.rows.length;
          });
      } else if (preview) progressAfterPreview++;
    });
    const summary = await done;
    expect(preview).not.toBeNull();
    const early = preview as unknown as LoadSummary;
    const head = bytes.subarray(0, PREVIEW_BYTES);
    const reference = await openBytes(head.subarray(0, head.lastIndexOf(0x0a) + 1), { name: 'big.jsonl' });
    expect(early.sessions[0]!.events).toBe(reference.sessions[0]!.log.length);
    expect(early.loadId).not.toBe(summary.loadId);
    expect(rowsDuringLoad).toBe(50);
    expect(progressAfterPreview).toBeGreaterThan(0);
    expect(summary.sessions[0]!.events).toBeGreaterThan(early.sessions[0]!.events);
  });

  it('a preview comes with its first timeline rows, the answer rows() gives on it', async () => {
    const engine = createEngine({ pause: () => new Promise((resolve) => setTimeout(resolve, 0)) });
    let seeded: { preview: LoadSummary; asked: Promise<unknown> } | null = null;
    await engine.open({ kind: 'bytes', name: 'big.jsonl', buffer: bytes.slice().buffer }, (p: ProgressEvent) => {
      if (!p.preview) return;
      const first = p.preview.sessions[0]!;
      const asked = engine.rows({
        session: first.id,
        step: first.accepted,
        filter: { families: [], surfaceOnly: false },
        start: 0,
        count: FIRST_ROWS,
      });
      seeded = { preview: p.preview, asked };
    });
    expect(seeded).not.toBeNull();
    const { preview, asked } = seeded as unknown as { preview: LoadSummary; asked: Promise<unknown> };
    const first = preview.sessions[0]!;
    expect(preview.firstRows?.session).toBe(first.id);
    expect(preview.firstRows?.step).toBe(first.accepted);
    expect(preview.firstRows?.window.rows).toHaveLength(FIRST_ROWS);
    expect(preview.firstRows?.window).toEqual(await asked);
  });

  it('a picked file (read as a stream) gets the same preview, opened before the load decodes any of it', async () => {
    const engine = createEngine({ pause: () => new Promise((resolve) => setTimeout(resolve, 0)) });
    let preview: LoadSummary | null = null;
    let eventsBeforePreview: number | null = null;
    const summary = await engine.open({ kind: 'file', name: 'big.jsonl', file: new PiecewiseBlob([bytes]) }, (p: ProgressEvent) => {
      if (p.preview) preview = p.preview;
      else if (preview === null) eventsBeforePreview ??= p.events;
    });
    expect(eventsBeforePreview).toBeNull();
    const head = bytes.subarray(0, PREVIEW_BYTES);
    const reference = await openBytes(head.subarray(0, head.lastIndexOf(0x0a) + 1), { name: 'big.jsonl' });
    expect((preview as LoadSummary | null)?.sessions[0]!.events).toBe(reference.sessions[0]!.log.length);
    const whole = await openBytes(bytes, { name: 'big.jsonl' });
    expect(summary.sessions[0]!.events).toBe(whole.sessions[0]!.log.length);
    expect(summary.sessions[0]!.nodes).toBe(whole.sessions[0]!.fold.nodes.length);
  });

  it('a small log gets no preview', async () => {
    const engine = createEngine({ pause: async () => {} });
    const seen: ProgressEvent[] = [];
    await engine.open({ kind: 'bytes', name: 's.jsonl', buffer: bytes.slice(0, 200_000).buffer }, (p) => seen.push(p));
    expect(seen.some((p) => p.preview !== undefined)).toBe(false);
  });
});
