/**
 * Untrusted log content is text only: a log full of script, `javascript:` link and HTML
 * injection payloads is loaded and shown in every view, and nothing executes, no element is
 * created from it, and nothing is fetched.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { button, mountApp, region, statusText } from './app-harness';
import type { MountedApp } from './app-harness';

declare global {
  interface Window {
    __pwned?: number;
  }
}

const PAYLOADS = [
  '<script>window.__pwned = 1</script>',
  '<img src="https://evil.invalid/pixel.png" onerror="window.__pwned = 2">',
  '[click me](javascript:window.__pwned=3)',
  '<a href="javascript:window.__pwned=4" id="evil-link">link</a>',
  '<iframe src="https://evil.invalid/frame"></iframe>',
  '<svg onload="window.__pwned = 5"></svg>',
  '"><img src=x onerror=window.__pwned=6>',
  '{{constructor.constructor("window.__pwned=7")()}}',
];

function hostileLog(): string {
  const header = { type: 'session', version: 0, id: '<img src=x onerror=window.__pwned=8>', createdAt: 0, delegationDepth: 0 };
  const events: unknown[] = [];
  const push = (event: Record<string, unknown>): void => {
    events.push({ ...event, seq: events.length, time: events.length });
  };
  push({ type: '<script>window.__pwned=9</script>', data: { html: PAYLOADS[0] } });
  PAYLOADS.forEach((payload, i) => {
    push({
      type: 'user/message',
      data: { id: `u${i}`, role: 'user', content: [{ type: 'text', text: payload }], source: { kind: 'user' } },
      surfaceOp: 'append',
    });
    push({
      type: 'assistant/message',
      data: {
        turn: 1,
        step: 1,
        message: {
          id: `a${i}`,
          role: 'assistant',
          content: [
            { type: 'reasoning', text: payload },
            { type: 'text', text: payload },
            { type: 'tool-call', id: `c${i}`, name: payload, arguments: JSON.stringify({ q: payload }) },
          ],
          source: { kind: 'model', provider: payload, model: payload },
        },
      },
      surfaceOp: 'append',
    });
    push({
      type: 'tool/result',
      data: {
        turn: 1,
        step: 1,
        message: {
          id: `r${i}`,
          role: 'user',
          content: [{ type: 'tool-result', toolCallId: `c${i}`, isError: false, content: [{ type: 'text', text: payload.repeat(50) }] }],
          source: { kind: 'tool', callId: `c${i}` },
        },
      },
      surfaceOp: 'append',
    });
  });
  // A compaction whose summary is a payload too, so the replace views render it.
  const nodes = events.filter((e) => (e as { surfaceOp?: unknown }).surfaceOp === 'append').map((e) => (e as { seq: number }).seq);
  push({
    type: 'user/message',
    data: {
      id: 'cp',
      role: 'user',
      content: [{ type: 'text', text: PAYLOADS.join('\n') }],
      source: { kind: 'plugin', plugin: 'compact', compactionId: PAYLOADS[1] },
    },
    sourceEventSeqs: nodes.slice(0, 6),
    surfaceOp: { op: 'replace', start: nodes[0], end: nodes[5] },
  });
  return [header, ...events].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

let app: MountedApp | null = null;
afterEach(() => {
  app?.unmount();
  app = null;
});

describe('hostile log content', () => {
  it('is rendered as text in every view: nothing runs, no element is injected, nothing is fetched', async () => {
    delete window.__pwned;
    const before = new Set(performance.getEntriesByType('resource').map((e) => e.name));
    app = await mountApp();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    expect(input).not.toBeNull();
    await userEvent.upload(input!, new File([hostileLog()], 'hostile.jsonl'));
    await expect.poll(statusText, { timeout: 20_000 }).toMatch(/^Loaded [\d,]+ events?\.$/);

    // The payload text is visible as text.
    await expect.poll(() => region('Timeline').textContent ?? '').toContain('<script>window.__pwned = 1</script>');
    // Walk the views that render content: timeline rows, the inspector of several events, the
    // surface, and the two views.
    const rows = [...region('Timeline').querySelectorAll<HTMLElement>('[role="row"]')].slice(0, 12);
    for (const row of rows) {
      row.click();
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await expect.poll(() => region('Inspector').textContent ?? '').toContain('__pwned');
    const twoViews = [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((b) => b.textContent?.trim() === 'Two views');
    expect(twoViews).toBeDefined();
    twoViews!.click();
    await expect
      .poll(() => document.querySelector('section[aria-label="Transcript and model view"]')?.textContent ?? '')
      .toContain('window.__pwned = 5');
    // Step through the log so every surface state (the replace included) is rendered.
    button('Go to start').click();
    for (let i = 0; i < 30; i++) {
      button('Next step').click();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(window.__pwned).toBeUndefined();
    const appRoot = document.querySelector('.app') as HTMLElement;
    expect(appRoot.querySelectorAll('script, iframe, svg[onload], img[src*="evil"], [onerror], [onload]')).toHaveLength(0);
    expect(appRoot.querySelector('#evil-link')).toBeNull();
    for (const link of appRoot.querySelectorAll('a[href]')) expect(link.getAttribute('href')).not.toMatch(/^\s*javascript:/i);
    const fetched = performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((name) => !before.has(name) && name.includes('evil.invalid'));
    expect(fetched).toEqual([]);
  });
});
