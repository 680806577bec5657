/**
 * The text forms beside persisted session JSONL (log-format.md §1.1, §1.2 step 9a, §9.1, §10,
 * §14): envelope-projected snapshots, JSON-RPC notification captures, a leading byte-order mark,
 * a JSON array headed by its session header. Each must fold exactly as upstream's fold does on
 * the events upstream's readers produce: checked against the reference fold over a plain
 * decoding, on the project's own fixtures (always) and on upstream's files (when ../shared is
 * present).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../src/core/analyze/open';
import type { SessionAnalysis } from '../../src/core/analyze/session';
import { naiveDecode, naiveRpcEvents } from '../support/naive-decode';
import { referenceFold } from '../support/reference-fold';
import { HAS_SHARED, SHARED_DIR, SHARED_NOTE, listFiles, readBytes } from '../support/shared';

const FORMS = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'forms');
const HEAD = join(SHARED_DIR, 'fixtures', 'dsh-upstream-head');

async function open(dir: string, name: string): Promise<SessionAnalysis[]> {
  return (await openBytes(readBytes(join(dir, name)), { name })).sessions;
}

function agrees(session: SessionAnalysis, events: unknown[]): void {
  const reference = referenceFold(events);
  expect(session.log.length).toBe(events.length);
  expect(session.fold.nodes).toEqual(reference.nodes);
  expect(session.fold.replacements).toEqual(reference.replacements);
  expect(session.fold.error && { index: session.fold.error.index, message: session.fold.error.message }).toEqual(
    reference.error && { index: reference.error.index, message: reference.error.message },
  );
  // What the views read back is what was folded.
  for (let i = 0; i < events.length; i += 7) expect(session.log.event(i)).toEqual(events[i]);
}

function rules(session: SessionAnalysis): string[] {
  return session.diagnostics.map((d) => d.rule);
}

describe('own fixtures: every form of one log folds like the log', () => {
  const text = (name: string): string => readFileSync(join(FORMS, name), 'utf8');

  it('the persisted log and its forms are all there', () => {
    expect(listFiles(FORMS, () => true)).toEqual([
      'nested.array.json',
      'nested.bom.jsonl',
      'nested.jsonl',
      'nested.notifications.jsonl',
      'nested.projected.jsonl',
      'teaching.bom.array.json',
    ]);
  });

  it('an envelope-projected snapshot gets its seqs by position and folds to the same surface', async () => {
    const [original] = await open(FORMS, 'nested.jsonl');
    const [projected] = await open(FORMS, 'nested.projected.jsonl');
    const events = naiveDecode(text('nested.projected.jsonl')).events;
    agrees(projected!, events);
    expect(projected!.fold.nodes).toEqual(original!.fold.nodes);
    expect(projected!.fold.replacements).toEqual(original!.fold.replacements);
    // Same seqs as the persisted log (it has no gaps), times synthetic.
    for (let i = 0; i < events.length; i += 11) expect((projected!.log.event(i) as { seq: number }).seq).toBe(i);
    expect(rules(projected!)).toContain('decode/projected-snapshot');
    expect(rules(original!)).not.toContain('decode/projected-snapshot');
    // The loader view judges the file as written: the first record has no seq.
    expect(projected!.diagnostics.find((d) => d.rule.startsWith('loader/fatal') || d.rule === 'loader/torn-tail')?.message).toMatch(
      /seq gap in committed region at line 1 \(expected 0, got undefined\)/,
    );
  });

  it('a JSON-RPC capture folds its session.event events; subagent notifications are context', async () => {
    const sessions = await open(FORMS, 'nested.notifications.jsonl');
    const [original] = await open(FORMS, 'nested.jsonl');
    expect(sessions).toHaveLength(1);
    const rpc = sessions[0]!;
    expect(rpc.format).toBe('jsonrpc');
    const groups = naiveRpcEvents(text('nested.notifications.jsonl'));
    agrees(rpc, [...groups.values()][0]!);
    expect(rpc.fold.nodes).toEqual(original!.fold.nodes);
    const notes = rpc.diagnostics.filter((d) => d.rule === 'decode/rpc-notification');
    expect(notes.map((d) => d.message.split(' ')[0])).toEqual(['subagent.started', 'subagent.finished']);
    expect(notes.every((d) => d.severity === 'info' && d.line !== null)).toBe(true);
  });

  it('a leading byte-order mark is dropped, the log folds, and a warning says what dsh would do', async () => {
    const [bom] = await open(FORMS, 'nested.bom.jsonl');
    const [original] = await open(FORMS, 'nested.jsonl');
    agrees(bom!, naiveDecode(text('nested.bom.jsonl')).events);
    expect(bom!.fold.nodes).toEqual(original!.fold.nodes);
    expect(bom!.decodeError).toBeNull();
    expect(bom!.sessionId).toBe(original!.sessionId);
    const warning = bom!.diagnostics.find((d) => d.rule === 'decode/bom');
    expect(warning).toMatchObject({ severity: 'warning' });
    expect(warning!.message).toContain('byte-order mark');
    expect(warning!.message).toContain('corrupt session log: header line is not valid JSON');
    // The loader view still sees the original bytes.
    expect(bom!.diagnostics.some((d) => d.message === 'corrupt session log: header line is not valid JSON')).toBe(true);
  });

  it('a JSON array whose element 0 is the header: the header is not an event', async () => {
    const [array] = await open(FORMS, 'nested.array.json');
    const [original] = await open(FORMS, 'nested.jsonl');
    const elements = JSON.parse(text('nested.array.json')) as unknown[];
    agrees(array!, elements.slice(1));
    expect(array!.fold.nodes).toEqual(original!.fold.nodes);
    expect(array!.fold.error).toBeNull();
    expect(array!.sessionId).toBe(original!.sessionId);
    expect(rules(array!)).toContain('decode/array-header');
    expect(array!.log.origin(0).member).toBe(1);
  });

  it('a JSON array with a byte-order mark and a header', async () => {
    const [array] = await open(FORMS, 'teaching.bom.array.json');
    const elements = JSON.parse(text('teaching.bom.array.json').slice(1)) as unknown[];
    agrees(array!, elements.slice(1));
    expect(array!.decodeError).toBeNull();
    expect(rules(array!)).toEqual(expect.arrayContaining(['decode/bom', 'decode/array-header']));
  });

  it('the same forms read as a stream equal the whole input', async () => {
    const { openStream } = await import('../../src/core/analyze/open');
    for (const name of listFiles(FORMS, () => true)) {
      const bytes = readBytes(join(FORMS, name));
      const chunks = (async function* () {
        for (let at = 0; at < bytes.length; at += 4099) yield bytes.subarray(at, at + 4099);
      })();
      const { result } = await openStream({ sizeHint: null, chunks }, { name });
      const whole = await openBytes(bytes, { name });
      expect(result.sessions.map((s) => [s.fold.nodes, s.log.length, rules(s)])).toEqual(
        whole.sessions.map((s) => [s.fold.nodes, s.log.length, rules(s)]),
      );
    }
  });
});

describe.skipIf(!HAS_SHARED)(`dsh-upstream-head fixtures (upstream 0.1.1-rc.2)${SHARED_NOTE}`, () => {
  const files = listFiles(HEAD, (n) => n.endsWith('.jsonl'));
  const snapshots = files.filter((n) => !n.includes('__stream-json.') && !n.includes('__notifications.'));
  it('are there', () => expect(snapshots.length).toBeGreaterThanOrEqual(9));

  for (const name of snapshots) {
    it(`${name}: an envelope-projected snapshot, folded as upstream's replay reads it`, async () => {
      const sessions = await open(HEAD, name);
      expect(sessions).toHaveLength(1);
      const session = sessions[0]!;
      agrees(session, naiveDecode(readFileSync(join(HEAD, name), 'utf8')).events);
      expect(rules(session)).toContain('decode/projected-snapshot');
      expect(session.decodeError).toBeNull();
      if (name === 'apps__web__tests__snapshots__cordis-tool-round__session.jsonl') {
        // Its persisted original had a seq gap (chunks cut out); the projection renumbers the
        // events by position, so the assistant message's sourceEventSeqs (5…102, the original
        // seqs) now reach its own position, 11.
        expect(session.fold.error).toMatchObject({ index: 11, seq: 11, line: 13 });
        expect(session.fold.error!.message).toBe('sourceEventSeqs must reference earlier events: 11 >= current seq 11');
      } else {
        expect(session.fold.error).toBeNull();
        expect(session.fold.nodes.length).toBeGreaterThan(0);
      }
    });
  }

  it('stream-json and the JSON-RPC capture fold without error; stream-json equals its snapshot', async () => {
    const [stream] = await open(HEAD, 'examples__headless-agent__tests__snapshots__compaction-recovery__stream-json.expected.jsonl');
    const [snapshot] = await open(HEAD, 'examples__headless-agent__tests__snapshots__compaction-recovery__session.jsonl');
    expect(stream!.fold.error).toBeNull();
    expect(stream!.fold.nodes).toEqual(snapshot!.fold.nodes);
    expect(stream!.fold.replacements).toEqual(snapshot!.fold.replacements);
    const name = 'examples__jsonrpc-agent__tests__snapshots__text-turn__notifications.expected.jsonl';
    const rpc = await open(HEAD, name);
    expect(rpc).toHaveLength(1);
    expect(rpc[0]!.format).toBe('jsonrpc');
    agrees(rpc[0]!, [...naiveRpcEvents(readFileSync(join(HEAD, name), 'utf8')).values()][0]!);
    expect(rpc[0]!.fold.error).toBeNull();
    expect(rpc[0]!.fold.nodes).toHaveLength(2);
  });
});
