/** The three surface-eligible event types (surface.md §1). Every other type is log-only. */
export const SURFACE_TYPES: ReadonlySet<unknown> = new Set(['user/message', 'assistant/message', 'tool/result']);

/**
 * A refusal by the surface fold. `message` is the exact upstream text; `rule` is our stable id
 * for it (e.g. `surface/contiguity`).
 */
export class SurfaceError extends Error {
  override readonly name = 'SurfaceError';
  readonly rule: string;

  constructor(message: string, rule: string) {
    super(message);
    this.rule = rule;
  }
}
