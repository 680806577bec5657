/**
 * Redaction: nothing seeded survives, markers are consistent and countable, the redacted log
 * folds as the original did (nodes, replacements, the first error modulo its text), a pruned
 * copy is cut again from its redacted original, and a log cut at step K folds as the first K
 * events. Seeded property tests put their seed in the name.
 */
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../../src/core/analyze/open';
import type { SessionAnalysis } from '../../../src/core/analyze/session';
import { exportLogText } from '../../../src/core/export/log';
import { VIOLATION_KINDS, generateText } from '../../../src/core/gen/generate';
import { Rng } from '../../../src/core/gen/rng';
import { PRUNE_MARKER, REDACT_KINDS, Redactor, formatRedactReport, redactRecord } from '../../../src/core/redact';
import { SEEDED_SECRETS } from '../../support/secrets';
import { seedSecrets } from '../../support/seed-secrets';

async function open(text: string): Promise<SessionAnalysis> {
  const result = await openBytes(new TextEncoder().encode(text), { name: 'seeded.jsonl' });
  return result.sessions[0] as SessionAnalysis;
}

/** What must stay the same: the fold (the error without its text, which may quote a value). */
function foldOf(session: SessionAnalysis) {
  const { error } = session.fold;
  return {
    accepted: session.fold.accepted,
    nodes: session.fold.nodes,
    replacements: session.fold.replacements,
    error: error === null ? null : { index: error.index, seq: error.seq, line: error.line, rule: error.rule },
    events: session.log.length,
  };
}

/**
 * The findings, but those that measure sizes: the prefix-cache findings compare token estimates
 * of messages whose lengths redaction changes (lengths may change; the fold may not).
 */
const rulesOf = (session: SessionAnalysis) =>
  session.diagnostics.filter((d) => !d.rule.startsWith('qa/cache-')).map((d) => `${d.rule}@${String(d.seq)}`);

describe('Redactor', () => {
  it('replaces every seeded kind, the same value by the same marker, and reports counts only', () => {
    const redactor = new Redactor();
    for (const secret of SEEDED_SECRETS) {
      const once = redactor.text(`before ${secret.text} after`);
      expect(once).not.toContain(secret.leak);
      expect(once).toContain(`[REDACTED:${secret.kind}-`);
      // Idempotent: a marker is never taken for a value.
      expect(redactor.text(once)).toBe(once);
    }
    const a = redactor.text('x daveyj4@example.org y');
    const b = redactor.text('daveyj4@example.org');
    const c = redactor.text('other.person@example.net');
    expect(a).toBe('x [REDACTED:email-1] y');
    expect(b).toBe('[REDACTED:email-1]');
    expect(c).toBe('[REDACTED:email-2]');
    // Paths keep their shape; only the user's segment goes.
    expect(redactor.text('/home/alicezq7/project/src')).toBe('/home/[REDACTED:home-path-1]/project/src');
    expect(redactor.text('C:\\Users\\carolkv5\\app')).toMatch(/^C:\\Users\\\[REDACTED:home-path-\d\]\\app$/);
    expect(redactor.text('Authorization: Bearer qv7Jm2Kx9Lp4Wz')).toMatch(/^Authorization: Bearer \[REDACTED:bearer-token-\d\]$/);
    const report = redactor.report();
    expect(report.kinds.email).toEqual({ occurrences: 4, distinct: 2 });
    const text = formatRedactReport(report);
    for (const secret of SEEDED_SECRETS) expect(text).not.toContain(secret.leak);
    for (const kind of REDACT_KINDS) expect(text).toContain(`${kind}:`);
  });

  it('leaves ordinary text, keys and structural fields alone', () => {
    const redactor = new Redactor();
    expect(redactor.text('const x = 1; // see docs/ARCHITECTURE.md, sk-short, /home/')).toBe(
      'const x = 1; // see docs/ARCHITECTURE.md, sk-short, /home/',
    );
    const event = {
      type: 'user/message',
      seq: 3,
      time: 5,
      'dave@example.com': 'dave@example.com',
      data: { id: 'dave@example.com', text: 'dave@example.com' },
      surfaceOp: 'append',
    };
    const { value, changed } = redactRecord(event, redactor);
    expect(changed).toBe(true);
    expect(value).toEqual({
      type: 'user/message',
      seq: 3,
      time: 5,
      'dave@example.com': '[REDACTED:email-1]',
      data: { id: 'dave@example.com', text: '[REDACTED:email-1]' },
      surfaceOp: 'append',
    });
    expect(redactor.report().records).toBe(1);
  });

  it('cuts a pruned copy again from the redacted original, so a secret across the cut leaves no piece', () => {
    const secret = 'sk-proj-Zq8mWv2LxP0aR7cT4nB9yK3e';
    const text = `${'a'.repeat(4089)} ${secret} ${'b'.repeat(5000)} ${secret} ${'c'.repeat(1009)}`;
    const head = Array.from(text).slice(0, 4096).join('');
    const tail = Array.from(text).slice(-1024).join('');
    const block = (content: string) => ({
      type: 'tool-result',
      toolCallId: 'c1',
      content: [{ type: 'text', text: content }],
      isError: false,
    });
    const data = (content: string) => ({
      turn: 1,
      step: 1,
      message: { role: 'user', id: 'm1', source: { kind: 'tool', callId: 'c1' }, content: [block(content)] },
    });
    const original = { type: 'tool/result', seq: 5, time: 0, data: data(text), sourceEventSeqs: [4], surfaceOp: 'append' };
    const copy = {
      type: 'tool/result',
      seq: 9,
      time: 0,
      data: data(head + PRUNE_MARKER + tail),
      sourceEventSeqs: [5],
      surfaceOp: { op: 'replace', start: 5, end: 5 },
    };
    const redactor = new Redactor();
    const redOriginal = redactRecord(original, redactor).value as typeof original;
    const redCopy = redactRecord(copy, redactor, (seq) => (seq === 5 ? original : null)).value as typeof copy;
    const cleanText = redOriginal.data.message.content[0]?.content[0]?.text ?? '';
    const copyText = redCopy.data.message.content[0]?.content[0]?.text ?? '';
    expect(copyText).toBe(Array.from(cleanText).slice(0, 4096).join('') + PRUNE_MARKER + Array.from(cleanText).slice(-1024).join(''));
    // The head ended in the first six characters of the key: none of it is left.
    expect(head.endsWith('sk-pro')).toBe(true);
    expect(copyText).not.toContain('sk-pro');
    expect(copyText).not.toContain('Zq8mWv');
    expect(redactor.report().kinds['openai-key']).toEqual({ occurrences: 2, distinct: 1 });
  });
});

describe('redacted logs fold as the originals', () => {
  it('the seeded fixture: no secret, path or address survives; nodes, replacements, first error and findings are the same', async () => {
    const text = seedSecrets(
      generateText({ seed: 11, events: 1500, pruneThreshold: 1500, longToolResultRate: 0.3, compaction: { thresholdTokens: 3000 } }),
      0,
    );
    for (const secret of SEEDED_SECRETS) expect(text).toContain(JSON.stringify(secret.text).slice(1, -1));
    const original = await open(text);
    expect(original.fold.replacements.length).toBeGreaterThanOrEqual(2);
    const prunes = original.fold.replacements.filter(
      (r) => (original.log.event(r.seq - original.baseSeq) as { type: string }).type === 'tool/result',
    );
    expect(prunes.length).toBeGreaterThan(0);
    const redactor = new Redactor();
    const redacted = exportLogText(original, { redactor });
    for (const secret of SEEDED_SECRETS) expect(redacted).not.toContain(secret.leak);
    expect(redacted).not.toContain('/home/dev/');
    for (const line of redacted.trimEnd().split('\n')) expect(() => JSON.parse(line) as unknown).not.toThrow();
    const again = await open(redacted);
    expect(foldOf(again)).toEqual(foldOf(original));
    expect(rulesOf(again)).toEqual(rulesOf(original));
    const report = redactor.report();
    for (const secret of SEEDED_SECRETS) expect(report.kinds[secret.kind]?.occurrences ?? 0).toBeGreaterThan(0);
    expect(report.records).toBeGreaterThan(10);
  });

  for (const seed of [101, 202, 303, 404, 505, 606]) {
    it(`seed ${seed}: a generated log with secrets, a violation or none, folds the same redacted`, async () => {
      const rng = new Rng(seed);
      const violation = rng.chance(0.5) ? rng.pick(VIOLATION_KINDS) : null;
      const plain = generateText({
        seed,
        events: rng.int(200, 1200),
        pruneThreshold: rng.pick([800, 2000, 8192]),
        longToolResultRate: 0.25,
        packChunks: rng.chance(0.7),
        compaction: { thresholdTokens: rng.int(1500, 6000) },
        violation,
      });
      const text = seedSecrets(plain, seed % SEEDED_SECRETS.length);
      const original = await open(text);
      const redacted = exportLogText(original, { redactor: new Redactor() });
      for (const secret of SEEDED_SECRETS) expect(redacted).not.toContain(secret.leak);
      const again = await open(redacted);
      expect(foldOf(again)).toEqual(foldOf(original));
      expect(rulesOf(again)).toEqual(rulesOf(original));
    });
  }
});

describe('a log cut at step K', () => {
  for (const seed of [7, 8, 9]) {
    it(`seed ${seed}: folds as the first K events of the original, for K across the log (packed rows cut inside too)`, async () => {
      const rng = new Rng(seed);
      const text = generateText({
        seed,
        events: 800,
        deltaScale: 3,
        compaction: { thresholdTokens: 2500 },
        pruneThreshold: 1500,
        longToolResultRate: 0.2,
      });
      const original = await open(text);
      const n = original.log.length;
      const steps = [0, 1, n, ...Array.from({ length: 12 }, () => rng.int(1, n - 1))];
      for (const k of steps) {
        const cut = await open(exportLogText(original, { step: k }));
        expect(cut.log.length).toBe(k);
        expect(cut.decodeError).toBeNull();
        expect(cut.fold.nodes).toEqual(original.index.nodesAt(Math.min(k, original.fold.accepted)));
        expect(cut.fold.replacements).toEqual(original.fold.replacements.filter((r) => r.seq < original.baseSeq + k));
        for (let i = 0; i < k; i += Math.max(1, Math.floor(k / 50))) expect(cut.log.event(i)).toEqual(original.log.event(i));
      }
    });
  }

  it('keeps rows byte for byte when not redacting', async () => {
    const text = generateText({ seed: 4, events: 300 });
    const original = await open(text);
    expect(exportLogText(original)).toBe(text);
  });
});
