/**
 * Links between the sessions of a store, for the inspector: the sessions an event names by id
 * (a subagent's result says "started subagent <id>", a relayed report carries
 * `senderSessionId`), the parent of the open session, and for a parent's `subagent` tool call
 * the child that started at or after it.
 */
import type { StoreSessionRow } from '../protocol/store-api';

/** A session the inspector links to. */
export interface SessionLink {
  row: StoreSessionRow;
  relation: 'parent' | 'child' | 'named';
  /** True when the link comes from timing, not from the id written in the event. */
  inferred: boolean;
}

/** How long after a `subagent` tool call its child may start and still be linked to it. */
const CHILD_START_MS = 10 * 60_000;

/**
 * The sessions an event of `open` links to.
 * @param raw the event's raw line (ids are looked for in it)
 * @param event the parsed event (type, time and tool name)
 */
export function sessionLinks(rows: readonly StoreSessionRow[], open: StoreSessionRow, raw: string, event: unknown): SessionLink[] {
  const links: SessionLink[] = [];
  const seen = new Set<string>([open.id]);
  for (const row of rows) {
    if (seen.has(row.id) || row.sessionId === null || row.sessionId.length < 8 || !raw.includes(row.sessionId)) continue;
    seen.add(row.id);
    const relation = row.sessionId === open.parentSession ? 'parent' : row.parentSession === open.sessionId ? 'child' : 'named';
    links.push({ row, relation, inferred: false });
  }
  const e = event as { type?: unknown; time?: unknown; data?: { name?: unknown } } | null;
  const name = e?.data?.name;
  if (
    links.length === 0 &&
    e?.type === 'tool/call' &&
    typeof name === 'string' &&
    name.startsWith('subagent') &&
    typeof e.time === 'number'
  ) {
    const time = e.time;
    const child = rows
      .filter(
        (row) =>
          row.parentSession !== null &&
          row.parentSession === open.sessionId &&
          row.createdAt !== null &&
          row.createdAt >= time &&
          row.createdAt - time <= CHILD_START_MS,
      )
      .sort((a, b) => (a.createdAt as number) - (b.createdAt as number))[0];
    if (child) links.push({ row: child, relation: 'child', inferred: true });
  }
  return links;
}

/** The open session's parent and children in the listing. */
export function familyOf(
  rows: readonly StoreSessionRow[],
  open: StoreSessionRow,
): { parent: StoreSessionRow | null; children: StoreSessionRow[] } {
  const parent = open.parentSession === null ? null : (rows.find((row) => row.sessionId === open.parentSession) ?? null);
  const children =
    open.sessionId === null
      ? []
      : rows.filter((row) => row.parentSession === open.sessionId).sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
  return { parent, children };
}
