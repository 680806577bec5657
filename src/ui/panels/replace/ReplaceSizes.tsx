/** Size of what a replacement shadowed and of the replacement, in bytes and estimated tokens. */
import type { ReplaceDetail } from '../../../protocol/protocol';
import { formatBytes, formatCount } from '../../format';

function change(before: number, after: number): string {
  const delta = after - before;
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  const percent = before > 0 ? ` (${sign}${Math.abs(Math.round((delta / before) * 100))}%)` : '';
  return `${sign}${formatCount(Math.abs(delta))}${percent}`;
}

export function ReplaceSizes({ detail }: { detail: ReplaceDetail }) {
  const grew = detail.bytesAfter >= detail.bytesBefore;
  return (
    <section className="ri-section" aria-labelledby={`ri-sizes-${detail.seq}`}>
      <h3 id={`ri-sizes-${detail.seq}`}>Size before and after</h3>
      <table className="ri-sizes">
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">Shadowed ({formatCount(detail.shadowedSeqs.length)})</th>
            <th scope="col">Replacement</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Bytes</th>
            <td className="mono" title={`${formatCount(detail.bytesBefore)} bytes`}>
              {formatBytes(detail.bytesBefore)}
            </td>
            <td className="mono" title={`${formatCount(detail.bytesAfter)} bytes`}>
              {formatBytes(detail.bytesAfter)}
            </td>
            <td className={`mono ${grew ? 'ri-grew' : 'ri-shrank'}`}>{change(detail.bytesBefore, detail.bytesAfter)}</td>
          </tr>
          <tr>
            <th scope="row">Tokens (est.)</th>
            <td className="mono">~{formatCount(detail.tokensBefore)}</td>
            <td className="mono">~{formatCount(detail.tokensAfter)}</td>
            <td className={`mono ${grew ? 'ri-grew' : 'ri-shrank'}`}>{change(detail.tokensBefore, detail.tokensAfter)}</td>
          </tr>
        </tbody>
      </table>
      {grew ? (
        <p className="ri-warning">
          <span aria-hidden="true">▲</span> The replacement is not smaller than what it shadowed.
        </p>
      ) : null}
      <p className="hint">Sizes are the length of the derived message JSON (counted in characters). Tokens are {detail.tokenMethod}.</p>
    </section>
  );
}
