/**
 * Real and packaged logs: for every file, the analyzer's fold equals the reference fold over a
 * plain decoding of the same text (the project's own fixtures always; ../shared's when present),
 * and the packaged forms decode to the same events as their plain originals.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { decompress } from 'fzstd';
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../src/core/analyze/open';
import type { SessionAnalysis } from '../../src/core/analyze/session';
import { naiveDecode } from '../support/naive-decode';
import { referenceFold } from '../support/reference-fold';
import { HAS_SHARED, PACKAGED_FIXTURES, SHARED_NOTE, UPSTREAM_FIXTURES, listFiles, readBytes } from '../support/shared';

const OWN = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const decoder = new TextDecoder();

/** Plain text of any packaged form, decoded with the libraries directly. */
function texts(name: string, bytes: Uint8Array): { path: string; text: string }[] {
  if (name.endsWith('.zip')) {
    return Object.entries(unzipSync(bytes))
      .filter(([path]) => path.endsWith('.jsonl'))
      .map(([path, data]) => ({ path: `${name}!${path}`, text: decoder.decode(data) }));
  }
  if (name.endsWith('.zstd')) return [{ path: name, text: decoder.decode(decompress(bytes)) }];
  return [{ path: name, text: decoder.decode(bytes) }];
}

function agreesWithReference(session: SessionAnalysis, text: string): void {
  const plain = naiveDecode(text);
  const reference = referenceFold(plain.events);
  expect(session.fold.nodes).toEqual(reference.nodes);
  expect(session.fold.replacements).toEqual(reference.replacements);
  expect(session.fold.error && { index: session.fold.error.index, message: session.fold.error.message }).toEqual(
    reference.error && { index: reference.error.index, message: reference.error.message },
  );
  expect(session.log.length).toBe(plain.events.length);
  expect(session.decodeError?.line ?? null).toBe(plain.badLine);
}

async function open(dir: string, name: string): Promise<SessionAnalysis[]> {
  return (await openBytes(readBytes(join(dir, name)), { name })).sessions;
}

describe('project fixtures', () => {
  const files = listFiles(OWN, (n) => !n.startsWith('.'));
  it('are present', () => expect(files.length).toBeGreaterThanOrEqual(8));
  for (const name of files.filter((n) => !n.includes('.torn.'))) {
    it(`${name}: fold equals the reference fold`, async () => {
      const sessions = await open(OWN, name);
      const plain = texts(name, readBytes(join(OWN, name)));
      expect(sessions.map((s) => s.path)).toEqual(plain.map((p) => p.path));
      sessions.forEach((session, i) => agreesWithReference(session, (plain[i] as { text: string }).text));
    });
  }

  it('small.torn.jsonl.zstd keeps the complete frames and reports the torn one', async () => {
    const [torn] = await open(OWN, 'small.torn.jsonl.zstd');
    const [whole] = await open(OWN, 'small.jsonl.zstd');
    expect(torn!.log.length).toBeGreaterThan(0);
    expect(torn!.log.length).toBeLessThan(whole!.log.length);
    for (let i = 0; i < torn!.log.length; i += 97) expect(torn!.log.event(i)).toEqual(whole!.log.event(i));
    expect(torn!.diagnostics.map((d) => d.rule)).toContain('zstd/torn-frame');
    expect(torn!.fold.error).toBeNull();
  });

  it('the export ZIP opens as the root session and its subagent children', async () => {
    const sessions = await open(OWN, 'export.zip');
    expect(sessions.map((s) => s.path)).toEqual([
      'export.zip!session.jsonl',
      'export.zip!subagents/child-1/session.jsonl',
      'export.zip!subagents/child-2/session.jsonl',
    ]);
    expect(sessions.map((s) => s.parentSession)).toEqual([null, 'root', 'root']);
  });
});

describe.skipIf(!HAS_SHARED)(`dsh-upstream fixtures${SHARED_NOTE}`, () => {
  const files = listFiles(UPSTREAM_FIXTURES, (n) => n.endsWith('.jsonl'));
  it('are all there', () => expect(files.length).toBeGreaterThan(100));
  for (const name of files) {
    it(`${name}: fold equals the reference fold`, async () => {
      const sessions = await open(UPSTREAM_FIXTURES, name);
      expect(sessions).toHaveLength(1);
      agreesWithReference(sessions[0] as SessionAnalysis, readFileSync(join(UPSTREAM_FIXTURES, name), 'utf8'));
    });
  }

  it('pins what the README of the fixtures says', async () => {
    const [compaction] = await open(UPSTREAM_FIXTURES, 'examples__headless-agent__tests__snapshots__compaction-recovery__session.jsonl');
    expect(compaction!.fold.replacements).toHaveLength(1);
    expect(compaction!.fold.error).toBeNull();
    const [gap] = await open(UPSTREAM_FIXTURES, 'apps__web__tests__snapshots__cordis-tool-round__session.jsonl');
    expect(gap!.fold.error).toMatchObject({ seq: 87, message: 'session event seq 87 is not contiguous; expected 6' });
    expect(gap!.diagnostics.map((d) => d.message)).toContain(
      'corrupt session log: seq gap in committed region at line 7 (expected 6, got 87) — line 8 of the file (dsh counts the lines after the header)',
    );
    // One damaged line, one number: the diagnostic's line is the file's.
    expect(gap!.diagnostics.find((d) => d.rule === 'loader/fatal-damage')?.line).toBe(8);
    for (const name of files.filter((n) => n.startsWith('packages__test-support__'))) {
      const [s] = await open(UPSTREAM_FIXTURES, name);
      if (s!.fold.error) expect(s!.fold.error.message).toBe('session event seq 1 is not contiguous; expected 0');
    }
    const [agent] = await open(UPSTREAM_FIXTURES, 'examples__acp-agent__tests__snapshots__agent-instructions__session.jsonl');
    expect(agent!.fold.replacements.length).toBeGreaterThan(0);
  });
});

describe.skipIf(!HAS_SHARED)(`packaged fixtures${SHARED_NOTE}`, () => {
  for (const name of listFiles(PACKAGED_FIXTURES, (n) => /\.(zstd|zip)$/.test(n) && !n.includes('.torn-tail.'))) {
    it(`${name}: decodes to the same events as the plain logic and folds the same`, async () => {
      const sessions = await open(PACKAGED_FIXTURES, name);
      const plain = texts(name, readBytes(join(PACKAGED_FIXTURES, name)));
      expect(sessions.map((s) => s.path)).toEqual(
        plain.map((p) => p.path).sort((a, b) => (a.endsWith('!session.jsonl') ? -1 : b.endsWith('!session.jsonl') ? 1 : 0)),
      );
      sessions.forEach((session) => {
        const text = plain.find((p) => p.path === session.path)?.text ?? '';
        agreesWithReference(session, text);
      });
    });
  }

  it('the torn-tail zstd keeps a prefix of the untorn log', async () => {
    const [torn] = await open(PACKAGED_FIXTURES, 'compaction-recovery.torn-tail.session.jsonl.zstd');
    const [whole] = await open(PACKAGED_FIXTURES, 'compaction-recovery.session.jsonl.zstd');
    expect(torn!.log.length).toBeLessThan(whole!.log.length);
    for (let i = 0; i < torn!.log.length; i++) expect(torn!.log.event(i)).toEqual(whole!.log.event(i));
  });
});
