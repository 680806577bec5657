/** The URL hash of a deep link: `#step=K&seq=S&fp=FINGERPRINT` (plus `&session=I` in a ZIP). */

export interface DeepLink {
  step: number | null;
  seq: number | null;
  fingerprint: string | null;
  session: number | null;
}

function nonNegativeInt(value: string | null): number | null {
  if (value === null || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

/** Parses a hash (with or without `#`); unknown or malformed keys are ignored. */
export function parseDeepLink(hash: string): DeepLink | null {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text === '') return null;
  const params = new URLSearchParams(text);
  const link: DeepLink = {
    step: nonNegativeInt(params.get('step')),
    seq: nonNegativeInt(params.get('seq')),
    fingerprint: params.get('fp') || null,
    session: nonNegativeInt(params.get('session')),
  };
  return link.step === null && link.seq === null ? null : link;
}

export function formatDeepLink(link: { step: number; seq: number | null; fingerprint: string; session: number }): string {
  const params = new URLSearchParams();
  params.set('step', String(link.step));
  if (link.seq !== null) params.set('seq', String(link.seq));
  params.set('fp', link.fingerprint);
  if (link.session > 0) params.set('session', String(link.session));
  return `#${params.toString()}`;
}
