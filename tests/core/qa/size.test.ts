import { describe, expect, it } from 'vitest';
import { generateText } from '../../../src/core/gen/generate';
import { deriveEventMessage } from '../../../src/core/fold/manager';
import { contentBound, derivedMessageSize, jsonLength, jsonUpperBound } from '../../../src/core/qa';
import { naiveDecode } from '../../support/naive-decode';

const STRINGS = [
  '',
  'plain',
  'quote " and backslash \\',
  'controls \b\f\n\r\t and \u0000\u0001\u001f\u007f',
  '日志 会话 文件',
  'pair 😀 ok',
  'lone high \ud800 end',
  'lone low \udc00 end',
  'high at end \ud83d',
  '\udc00\ud800 reversed',
  '</script> \u2028 \u2029',
];

const VALUES: unknown[] = [
  ...STRINGS,
  // The same inside long texts.
  ...STRINGS.map((text) => `${text}${'x'.repeat(150)}${text}`),
  0,
  -0,
  1.5,
  -12,
  1e21,
  1e-7,
  Number.MAX_SAFE_INTEGER,
  true,
  false,
  null,
  [],
  {},
  [1, 'a', null, [], {}],
  { a: 1, 'k"ey': 'v\n', nested: { list: [{ x: STRINGS }], empty: {} } },
  JSON.parse('{"__proto__": {"a": 1}, "b": [true, false]}'),
];

describe('jsonLength', () => {
  it('equals JSON.stringify(value).length for tricky values', () => {
    for (const value of VALUES) expect(jsonLength(value)).toBe(JSON.stringify(value).length);
  });

  it('equals JSON.stringify(value).length for every event and message of a generated log', () => {
    const { events } = naiveDecode(generateText({ seed: 11, events: 3000, compaction: { thresholdTokens: 3000 } }));
    for (const event of events) {
      expect(jsonLength(event)).toBe(JSON.stringify(event).length);
      const message = deriveEventMessage(event);
      const expected = message === null ? 0 : JSON.stringify(message).length;
      expect(derivedMessageSize(event)).toBe(expected);
    }
  });
});

describe('size bounds', () => {
  it('jsonUpperBound is never below the exact length', () => {
    for (const value of VALUES) expect(jsonUpperBound(value)).toBeGreaterThanOrEqual(JSON.stringify(value).length);
  });

  it('contentBound never exceeds the exact size of a message with that content', () => {
    const { events } = naiveDecode(generateText({ seed: 12, events: 3000 }));
    let checked = 0;
    for (const event of events) {
      const message = deriveEventMessage(event) as { content?: unknown } | null;
      if (message === null) continue;
      const bound = contentBound(message.content);
      expect(bound).toBeLessThanOrEqual(JSON.stringify(message).length);
      expect(bound).toBeGreaterThan(0);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
    const tricky = [
      { type: 'text', text: STRINGS.join('') },
      { type: 'tool-call', id: 'c', name: 'n', arguments: '{"a":"\\n"}' },
    ];
    expect(contentBound(tricky)).toBeLessThanOrEqual(JSON.stringify({ content: tricky }).length);
  });
});
