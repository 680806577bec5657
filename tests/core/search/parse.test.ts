import { describe, expect, it } from 'vitest';
import { formatQueryError, parseQuery } from '../../../src/core/search';
import type { QueryError, Term } from '../../../src/core/search';

function terms(text: string): Term[] {
  const result = parseQuery(text);
  if (!result.ok) throw new Error(`unexpected error: ${result.error.message}`);
  return result.query.terms;
}

function error(text: string): QueryError {
  const result = parseQuery(text);
  if (result.ok) throw new Error(`expected an error for ${text}`);
  return result.error;
}

describe('query parser', () => {
  it('reads words, phrases and regexes with their spans', () => {
    expect(terms('sky  "exact phrase" /blu+e/i')).toEqual([
      { kind: 'word', value: 'sky', negate: false, start: 0, end: 3 },
      { kind: 'phrase', value: 'exact phrase', negate: false, start: 5, end: 19 },
      { kind: 'regex', source: 'blu+e', flags: 'i', negate: false, start: 20, end: 28 },
    ]);
    expect(terms('/a\\/b[/]/')).toEqual([{ kind: 'regex', source: 'a\\/b[/]', flags: '', negate: false, start: 0, end: 9 }]);
  });

  it('reads every field', () => {
    expect(terms('type:tool/result type:Compaction/ tool:read_file tool:"two words"')).toEqual([
      { kind: 'type', value: 'tool/result', prefix: false, negate: false, start: 0, end: 16 },
      { kind: 'type', value: 'compaction/', prefix: true, negate: false, start: 17, end: 33 },
      { kind: 'tool', value: 'read_file', negate: false, start: 34, end: 48 },
      { kind: 'tool', value: 'two words', negate: false, start: 49, end: 65 },
    ]);
    expect(terms('turn:2 step:1..3 seq:10..200 seq:..5 seq:7..').map((t) => ('range' in t ? [t.kind, t.range] : null))).toEqual([
      ['turn', { lo: 2, hi: 2 }],
      ['step', { lo: 1, hi: 3 }],
      ['seq', { lo: 10, hi: 200 }],
      ['seq', { lo: 0, hi: 5 }],
      ['seq', { lo: 7, hi: Number.MAX_SAFE_INTEGER }],
    ]);
    const flags = ['error', 'replace', 'prune', 'compaction', 'surface', 'shadowed', 'log-only'];
    expect(terms(flags.map((f) => `is:${f}`).join(' ')).map((t) => (t.kind === 'is' ? t.flag : null))).toEqual(flags);
  });

  it('negates any term with a leading minus', () => {
    const negated = terms('-sky -"a b" -/x/ -type:turn/start -tool:bash -turn:1 -is:error');
    expect(negated.map((t) => [t.kind, t.negate, t.start])).toEqual([
      ['word', true, 0],
      ['phrase', true, 5],
      ['regex', true, 12],
      ['type', true, 17],
      ['tool', true, 34],
      ['turn', true, 45],
      ['is', true, 53],
    ]);
  });

  it('says which queries use the cursor', () => {
    for (const text of ['is:surface', 'x is:shadowed', '-is:log-only']) {
      const r = parseQuery(text);
      expect(r.ok && r.query.usesCursor).toBe(true);
    }
    const r = parseQuery('is:error is:replace type:x');
    expect(r.ok && r.query.usesCursor).toBe(false);
  });

  it('keeps text with colons that is not a field', () => {
    expect(terms('TypeError: https://x.y/z')).toEqual([
      { kind: 'word', value: 'TypeError:', negate: false, start: 0, end: 10 },
      { kind: 'word', value: 'https://x.y/z', negate: false, start: 11, end: 24 },
    ]);
    expect(terms('')).toEqual([]);
    expect(terms('   ')).toEqual([]);
  });

  it('reports what is wrong, and where', () => {
    expect(error('sky "open')).toEqual({ start: 4, end: 9, message: 'phrase is not closed: add a " at its end' });
    expect(error('a /b(/')).toMatchObject({ start: 2, end: 6 });
    expect(error('a /b(/').message).toMatch(/^bad regex: /);
    expect(error('/unclosed')).toEqual({ start: 0, end: 9, message: 'regex is not closed: add a / at its end' });
    expect(error('x /a/g')).toEqual({ start: 5, end: 6, message: 'regex flag "g" is not supported (only i)' });
    expect(error('x //')).toMatchObject({ start: 2, end: 4, message: 'empty regex: put a pattern between the slashes' });
    expect(error('x ""')).toMatchObject({ start: 2, end: 4, message: 'empty phrase: put words between the quotes' });
    expect(error('seq:abc')).toEqual({ start: 4, end: 7, message: 'seq: expects a number or a range like 10..200, not "abc"' });
    expect(error('turn:..')).toMatchObject({ start: 5, end: 7 });
    expect(error('step:9..3')).toEqual({ start: 5, end: 9, message: 'step:9..3 is empty: 9 is after 3' });
    expect(error('a is:broken')).toEqual({
      start: 5,
      end: 11,
      message: 'is: does not know "broken" (one of: error, replace, prune, compaction, surface, shadowed, log-only)',
    });
    expect(error('type:')).toMatchObject({ start: 0, end: 5, message: 'type: needs a value right after the colon' });
    expect(error('tool:"x')).toMatchObject({ start: 5, end: 7 });
    expect(error('a - b')).toMatchObject({ start: 2, end: 3 });
    expect(error('x tpye:tool/call')).toEqual({
      start: 2,
      end: 7,
      message: 'unknown field "tpye:" — did you mean type:? (to search the text, quote it: "tpye:")',
    });
  });

  it('formats an error with 1-based columns', () => {
    expect(formatQueryError({ start: 4, end: 9, message: 'm' })).toBe('col 5–9: m');
    expect(formatQueryError({ start: 2, end: 3, message: 'm' })).toBe('col 3: m');
  });
});
