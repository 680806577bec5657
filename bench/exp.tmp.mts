import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openBytes } from '../src/core/analyze/open';
import { expandPackedRow, isPackedRow, validatePackedRow } from '../src/core/decode/packed';
const file = process.argv[2]!;
function baseline() {
  const text = readFileSync(file, 'utf8'); let n = 0; let s = 0;
  while (s < text.length) { let e = text.indexOf('\n', s); if (e === -1) e = text.length; if (e > s) { const v = JSON.parse(text.slice(s, e)); n += isPackedRow(v) ? expandPackedRow(validatePackedRow(v)).length : 1; } s = e + 1; }
  return n;
}
for (let r = 0; r < 3; r++) {
  let t = performance.now(); baseline(); const b = performance.now() - t;
  t = performance.now();
  const buffer = readFileSync(file);
  await openBytes(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), { name: file });
  const c = performance.now() - t;
  console.log(`baseline ${b.toFixed(0)} check ${c.toFixed(0)} ratio ${(c / b).toFixed(2)}`);
}
