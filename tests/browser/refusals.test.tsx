/**
 * Refusals said out loud, in Chromium with the engine worker: an archive nothing can be read
 * from, a log dsh's loader would refuse, a surface error at an event without a seq, and the
 * upstream forms opening without a single banner of damage.
 */
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { mountApp, readFixture, statusText } from './app-harness';
import type { MountedApp } from './app-harness';

let app: MountedApp | null = null;
afterEach(() => {
  app?.unmount();
  app = null;
});

const enc = (t: string): Uint8Array => new TextEncoder().encode(t);
const HEADER = '{"type":"session","version":0,"id":"b","createdAt":0,"delegationDepth":0}';

async function open(name: string, bytes: Uint8Array): Promise<void> {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  await userEvent.upload(input, new File([bytes as BlobPart], name));
  await expect.poll(statusText, { timeout: 20_000 }).toMatch(/^Loaded /);
}

const banner = (label: string): string => document.querySelector(`[aria-label="${label}"]`)?.textContent ?? '';

describe('refusals in the app', () => {
  it('a ZIP with only unsafe member paths: a banner with the rule and the member, not a blank screen', async () => {
    app = await mountApp();
    await open('unsafe.zip', zipSync({ '../session.jsonl': enc(`${HEADER}\n`) }));
    const text = banner('Archive refused');
    expect(text).toContain('unsafe.zip was refused');
    expect(text).toContain('"../session.jsonl"');
    expect(text).toContain('(zip/unsafe-path)');
    expect(text).toContain('Nothing of it could be read.');
  });

  it('a log dsh would refuse keeps its log and says so in its own banner', async () => {
    app = await mountApp();
    const user =
      '{"type":"user/message","seq":0,"time":0,"data":{"id":"u","role":"user","content":[],"source":{"kind":"user"}},"surfaceOp":"append"}';
    await open('newer.jsonl', enc(`${HEADER.replace('"version":0', '"version":2')}\n${user}\n`));
    const text = banner('Loader verdict');
    expect(text).toContain("dsh's loader would refuse this log");
    expect(text).toContain('session "b" uses log format v2, but this harness reads only v0');
    expect(text).toContain('(loader/version)');
    expect(document.querySelector('[aria-label="Surface error"]')).toBeNull();
    expect(statusText()).toBe('Loaded 1 event.');
  });

  it('a surface error at an event without a seq names its position, never "seq undefined"', async () => {
    app = await mountApp();
    // Header-less, so not a projected snapshot: the missing seq stays missing.
    await open('noseq.jsonl', enc('{"type":"user/message","time":0,"data":{},"surfaceOp":"append"}\n'));
    const text = banner('Surface error');
    expect(text).toContain('Surface error at the event at position 0 (it has no seq), line 1');
    expect(text).toContain('No event before it was accepted');
    expect(text).not.toContain('The first 0 events');
  });

  it("the project's projected snapshot opens with its surface and no damage banner", async () => {
    app = await mountApp();
    await open('nested.projected.jsonl', await readFixture('tests/fixtures/forms/nested.projected.jsonl'));
    expect(statusText()).toBe('Loaded 729 events.');
    expect(document.querySelector('[aria-label="Surface error"]')).toBeNull();
    expect(document.querySelector('[aria-label="Decode error"]')).toBeNull();
    expect(banner('Loader verdict')).toContain('envelope-projected test snapshot');
  });
});
