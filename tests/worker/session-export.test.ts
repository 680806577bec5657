/**
 * The engine's files to send (`exportSession`): the log cut at the cursor and the self-contained
 * page, redacted on request, written by the core from the open session.
 */
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../src/core/analyze/open';
import { SESSION_SLOT } from '../../src/core/export/standalone';
import { decodeBase64 } from '../../src/core/util/base64';
import { generateText } from '../../src/core/gen/generate';
import { createEngine } from '../../src/worker/engine';
import { gunzipSync } from 'fflate';
import { SEEDED_SECRETS } from '../support/secrets';
import { seedSecrets } from '../support/seed-secrets';

const text = seedSecrets(generateText({ seed: 31, events: 400, compaction: { thresholdTokens: 2500 } }), 5);
const TEMPLATE = `<!doctype html><html><head><title>viewer</title></head><body>${SESSION_SLOT}<script type="module">/* viewer */</script></body></html>`;

async function loaded() {
  const engine = createEngine({ pause: async () => {} });
  const summary = await engine.open({ kind: 'text', name: 'seeded.jsonl', text }, () => {});
  return { engine, session: summary.sessions[0]!.id, events: summary.sessions[0]!.events };
}

describe('engine exportSession', () => {
  it('writes the log cut at the cursor, redacted, with the counts', async () => {
    const { engine, session, events } = await loaded();
    const step = Math.floor(events / 2);
    const file = await engine.exportSession({ session, format: 'jsonl', step, seq: null, redact: true });
    expect(file.name).toMatch(new RegExp(`\\.step-${step}\\.redacted\\.jsonl$`));
    for (const secret of SEEDED_SECRETS) expect(file.text).not.toContain(secret.leak);
    expect(file.redaction?.total).toBeGreaterThan(0);
    const cut = (await openBytes(new TextEncoder().encode(file.text), { name: 'cut.jsonl' })).sessions[0]!;
    expect(cut.log.length).toBe(step);
    const plain = await engine.exportSession({ session, format: 'jsonl', step, seq: null, redact: false });
    expect(plain.redaction).toBeNull();
    expect(plain.text).toBe(
      `${text
        .split('\n')
        .slice(0, plain.text.split('\n').length - 1)
        .join('\n')}\n`,
    );
  });

  it('fills the viewer with the gzipped session, the step and the selection', async () => {
    const { engine, session } = await loaded();
    const file = await engine.exportSession({ session, format: 'html', step: 40, seq: 12, redact: true, template: TEMPLATE });
    expect(file.mime).toBe('text/html');
    const meta = /<script type="application\/json" id="surface-lens-meta">([^<]*)<\/script>/.exec(file.text)?.[1];
    expect(JSON.parse(meta ?? 'null')).toMatchObject({ step: 40, seq: 12 });
    const data = /<script type="application\/gzip\+base64" id="surface-lens-session">([^<]*)<\/script>/.exec(file.text)?.[1] ?? '';
    const jsonl = new TextDecoder().decode(gunzipSync(decodeBase64(data)));
    const embedded = (await openBytes(new TextEncoder().encode(jsonl), { name: 'embedded.jsonl' })).sessions[0]!;
    expect(embedded.log.length).toBe(40);
    for (const secret of SEEDED_SECRETS) expect(jsonl).not.toContain(secret.leak);
    await expect(engine.exportSession({ session, format: 'html', step: 40, seq: null, redact: false })).rejects.toThrow(/built viewer/);
    await expect(
      engine.exportSession({ session, format: 'html', step: 40, seq: null, redact: false, template: '<html></html>' }),
    ).rejects.toThrow(/session slot/);
  });
});
