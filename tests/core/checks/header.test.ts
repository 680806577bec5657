import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkHeaderLine, checkSessionHeader } from '../../../src/core/checks/header';
import { HAS_SHARED, listFiles, SHARED_NOTE, UPSTREAM_FIXTURES } from '../../support/shared';

const good = { type: 'session', version: 0, id: 's1', createdAt: 0, delegationDepth: 0 };
const line = (value: unknown) => JSON.stringify(value);

describe('checkHeaderLine (log-format.md §2.2)', () => {
  it.each<[string, string | null, boolean, string | null, string | null]>([
    ['H1 empty file', null, false, 'loader/header-empty', 'empty or header-less session log'],
    ['H1 one unterminated line', line(good), false, 'loader/header-empty', 'empty or header-less session log'],
    ['H2 a BOM before the header', '\uFEFF' + line(good), true, 'loader/header-json', 'corrupt session log: header line is not valid JSON'],
    ['H2 an empty first line', '', true, 'loader/header-json', 'corrupt session log: header line is not valid JSON'],
    [
      'H3 newer',
      line({ ...good, version: 2 }),
      true,
      'loader/version',
      'session "s1" uses log format v2, but this harness reads only v0: the log was written by a newer harness — upgrade the harness to open it',
    ],
    [
      'H3 older',
      line({ ...good, version: -1 }),
      true,
      'loader/version',
      'session "s1" uses log format v-1, older than the supported v0, and this build ships no upgrade path for it',
    ],
    [
      'H3 before the shape, missing id',
      line({ type: 'other', version: 1 }),
      true,
      'loader/version',
      'session "undefined" uses log format v1, but this harness reads only v0: the log was written by a newer harness — upgrade the harness to open it',
    ],
    [
      'H4 missing version',
      line({ ...good, version: undefined }),
      true,
      'loader/not-header',
      'corrupt session log: first line is not a session header ("version" is missing, not a number)',
    ],
    [
      'H4 missing delegationDepth',
      line({ ...good, delegationDepth: undefined }),
      true,
      'loader/not-header',
      'corrupt session log: first line is not a session header ("delegationDepth" is missing: it must be a non-negative safe integer)',
    ],
    [
      'H4 -0 createdAt',
      '{"type":"session","version":0,"id":"s1","createdAt":-0,"delegationDepth":0}',
      true,
      'loader/not-header',
      'corrupt session log: first line is not a session header ("createdAt" is -0: it must be a non-negative safe integer)',
    ],
    [
      'H4 bad origin',
      line({ ...good, origin: 'fork' }),
      true,
      'loader/not-header',
      'corrupt session log: first line is not a session header ("origin" is "fork": it may only be "subagent")',
    ],
    [
      'H4 an event line',
      line({ type: 'turn/start', seq: 0, time: 0, data: {} }),
      true,
      'loader/not-header',
      'corrupt session log: first line is not a session header ("type" is "turn/start", not "session")',
    ],
    [
      'H5 retired fields',
      line({ ...good, sandboxMode: 'x' }),
      true,
      'loader/retired-policy',
      'session header uses retired policy baseline fields',
    ],
    ['a valid header', line({ ...good, extra: 1 }), true, null, null],
  ])('%s', (_name, text, hasLf, rule, message) => {
    const result = checkHeaderLine(text, hasLf);
    expect(result.findings.map((d) => [d.rule, d.message, d.severity])).toEqual(rule === null ? [] : [[rule, message, 'error']]);
  });

  it('copies only the known header keys', () => {
    const result = checkHeaderLine(line({ ...good, cwd: '/w', extra: 1 }), true);
    expect(result.header).toEqual({ version: 0, id: 's1', createdAt: 0, cwd: '/w', delegationDepth: 0 });
    expect(result.sessionId).toBe('s1');
  });
});

describe('checkSessionHeader (log-format.md §5.3)', () => {
  const header = { version: 0, id: 's1', createdAt: 0, delegationDepth: 0 };
  it.each<[string, unknown, string | null]>([
    ['a valid header', header, null],
    ['not a record', [1], 'session header is not a plain JSON record'],
    ['a wrong version', { ...header, version: 1 }, 'session header version must be 0, got 1'],
    ['another id', { ...header, id: 's2' }, 'session header id "s2" does not match session id "s1"'],
    ['a negative createdAt', { ...header, createdAt: -1 }, 'session header createdAt must be a non-negative safe integer'],
    ['a numeric cwd', { ...header, cwd: 1 }, 'session header cwd must be a string'],
    ['a relative cwd', { ...header, cwd: 'work' }, 'session header cwd must be an absolute path, got "work"'],
    ['a Windows cwd', { ...header, cwd: 'C:\\work' }, null],
    ['a numeric parentSession', { ...header, parentSession: 1 }, 'session header parentSession must be a string'],
    ['a fractional seedLength', { ...header, seedLength: 1.5 }, 'session header seedLength must be a non-negative safe integer'],
    ['another origin', { ...header, origin: 'x' }, 'session header origin must be "subagent"'],
    [
      'a negative delegationDepth',
      { ...header, delegationDepth: -1 },
      'session header delegationDepth must be a non-negative safe integer',
    ],
    ['a numeric agentPreset', { ...header, agentPreset: 1 }, 'session header agentPreset must be a string'],
  ])('%s', (_name, value, message) => {
    const errors = checkSessionHeader(value, 's1', 'restore').filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.message)).toEqual(message === null ? [] : [message]);
  });

  it('checks losslessness first in create mode only', () => {
    const value = { ...header, createdAt: -0 };
    expect(checkSessionHeader(value, 's1', 'create').map((d) => d.message)).toEqual(['session header is not losslessly JSON-serializable']);
    expect(checkSessionHeader(value, 's1', 'restore')).toEqual([]);
  });

  it('reports a {{cwd}} placeholder as a warning and keeps checking', () => {
    const found = checkSessionHeader({ ...header, cwd: '{{cwd}}/workspace', origin: 'x' }, 's1', 'restore');
    expect(found.map((d) => [d.severity, d.message])).toEqual([
      ['warning', 'session header cwd must be an absolute path, got "{{cwd}}/workspace"'],
      ['error', 'session header origin must be "subagent"'],
    ]);
  });
});

describe.skipIf(!HAS_SHARED)(`upstream fixture headers${SHARED_NOTE}`, () => {
  it.each(listFiles(UPSTREAM_FIXTURES, (name) => name.endsWith('.jsonl')))('%s', (name) => {
    const text = readFileSync(join(UPSTREAM_FIXTURES, name), 'utf8');
    const newline = text.indexOf('\n');
    const result = checkHeaderLine(newline < 0 ? null : text.slice(0, newline), newline >= 0);
    // Every finding is one of the §2.2 rules; a parsed header then passes §5.3 but for the
    // {{cwd}} placeholder warning.
    for (const d of result.findings) expect(d.rule).toMatch(/^loader\//);
    if (result.header !== null && result.sessionId !== null) {
      const errors = checkSessionHeader(result.header, result.sessionId, 'restore').filter((d) => d.severity === 'error');
      expect(errors).toEqual([]);
    }
  });
});
