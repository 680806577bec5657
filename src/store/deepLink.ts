/**
 * The URL hash of a deep link: `#step=K&seq=S&fp=FINGERPRINT` (plus `&session=I` in a ZIP); under
 * `surface-lens view`, `#session=ID&step=K&seq=S&fp=…` with the store session's opaque id.
 */

export interface DeepLink {
  step: number | null;
  seq: number | null;
  fingerprint: string | null;
  session: number | null;
  /** The store session's id (`session=` that is not a ZIP index), or null. */
  storeSession: string | null;
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
    storeSession: null,
  };
  const session = params.get('session');
  if (link.session === null && session !== null && /^[A-Za-z0-9_-]{1,64}$/.test(session)) link.storeSession = session;
  return link.step === null && link.seq === null && link.storeSession === null ? null : link;
}

export function formatDeepLink(link: {
  step: number;
  seq: number | null;
  fingerprint: string;
  session: number;
  storeSession?: string | null;
}): string {
  const params = new URLSearchParams();
  if (link.storeSession) params.set('session', link.storeSession);
  params.set('step', String(link.step));
  if (link.seq !== null) params.set('seq', String(link.seq));
  params.set('fp', link.fingerprint);
  if (link.session > 0 && !link.storeSession) params.set('session', String(link.session));
  return `#${params.toString()}`;
}
