/**
 * The Sessions view's tree, from the server's listing: project (the header's `cwd`) → session →
 * its subagent children at any depth (`parentSession`), most recent first; an orphan stays
 * under its project with a note. Filtering keeps the matching sessions and their ancestors.
 */
import type { StoreDetails, StoreSessionRow } from '../protocol/store-api';

/** One visible line of the tree. */
export type SessionTreeItem =
  | { kind: 'project'; key: string; level: 1; label: string; sessions: number; expanded: boolean; modifiedAt: number }
  | {
      kind: 'session';
      key: string;
      level: number;
      row: StoreSessionRow;
      /** Children in the tree (after filtering). */
      children: number;
      expanded: boolean;
      /** The parent named by the header is not in the listing. */
      orphan: boolean;
      /** The row matched the filter itself (not only kept as an ancestor). */
      matched: boolean;
    };

/** The tree, flattened to its visible lines. */
export interface SessionTree {
  items: SessionTreeItem[];
  /** Sessions matching the filter (all when there is none). */
  count: number;
  total: number;
}

interface Node {
  row: StoreSessionRow;
  children: Node[];
  orphan: boolean;
  /** Latest modification in its subtree: a parent with a busy child is recent. */
  recency: number;
}

/**
 * The project a row shows under: its header's `cwd`; a row without a readable header joins the
 * `cwd` of the other sessions in its project directory, else shows the directory's name.
 */
function projectNamer(rows: readonly StoreSessionRow[]): (row: StoreSessionRow) => string {
  const cwdOfDir = new Map<string, string>();
  for (const row of rows) if (row.cwd !== null && !cwdOfDir.has(row.projectDir)) cwdOfDir.set(row.projectDir, row.cwd);
  return (row) => row.cwd ?? cwdOfDir.get(row.projectDir) ?? row.projectDir;
}

function matches(row: StoreSessionRow, details: StoreDetails | undefined, needle: string): boolean {
  if (needle === '') return true;
  const fields = [details?.title, row.sessionId, row.cwd, row.projectDir, row.fileName, row.reason, row.state];
  return fields.some((field) => typeof field === 'string' && field.toLowerCase().includes(needle));
}

/**
 * Builds the visible tree.
 * @param collapsed keys of collapsed projects (`p:<cwd>`) and sessions (the row id)
 */
export function buildSessionTree(
  rows: readonly StoreSessionRow[],
  details: Readonly<Record<string, StoreDetails>>,
  filter: string,
  collapsed: ReadonlySet<string>,
): SessionTree {
  const bySessionId = new Map<string, Node>();
  const nodes: Node[] = rows.map((row) => ({ row, children: [], orphan: false, recency: row.modifiedAt }));
  for (const node of nodes)
    if (node.row.sessionId !== null && !bySessionId.has(node.row.sessionId)) bySessionId.set(node.row.sessionId, node);
  const tops: Node[] = [];
  for (const node of nodes) {
    const parent = node.row.parentSession === null ? undefined : bySessionId.get(node.row.parentSession);
    if (parent && parent !== node) parent.children.push(node);
    else {
      node.orphan = node.row.parentSession !== null;
      tops.push(node);
    }
  }
  // A parent chain that loops (two headers naming each other) never reaches a top: show those as tops.
  const reached = new Set<Node>();
  const reach = (node: Node): number => {
    if (reached.has(node)) return node.recency;
    reached.add(node);
    for (const child of node.children) node.recency = Math.max(node.recency, reach(child));
    return node.recency;
  };
  for (const top of tops) reach(top);
  for (const node of nodes) {
    if (reached.has(node)) continue;
    tops.push(node);
    reach(node);
  }

  const needle = filter.trim().toLowerCase();
  const keep = new Map<Node, boolean>();
  const kept = (node: Node, seen: Set<Node>): boolean => {
    const known = keep.get(node);
    if (known !== undefined) return known;
    seen.add(node);
    let any = matches(node.row, details[node.row.id], needle);
    for (const child of node.children) if (!seen.has(child) && kept(child, seen)) any = true;
    keep.set(node, any);
    return any;
  };
  const byRecency = (a: Node, b: Node): number => b.recency - a.recency || (a.row.sessionId ?? '').localeCompare(b.row.sessionId ?? '');

  const projectOf = projectNamer(rows);
  const projects = new Map<string, Node[]>();
  for (const top of tops) {
    if (!kept(top, new Set())) continue;
    const key = projectOf(top.row);
    const list = projects.get(key) ?? [];
    list.push(top);
    projects.set(key, list);
  }
  const items: SessionTreeItem[] = [];
  let count = 0;
  const countMatched = (node: Node, seen: Set<Node>): number => {
    if (seen.has(node)) return 0;
    seen.add(node);
    let n = matches(node.row, details[node.row.id], needle) ? 1 : 0;
    for (const child of node.children) if (keep.get(child)) n += countMatched(child, seen);
    return n;
  };
  const emit = (node: Node, level: number, seen: Set<Node>): void => {
    if (seen.has(node)) return;
    seen.add(node);
    const children = node.children.filter((child) => keep.get(child)).sort(byRecency);
    const expanded = !collapsed.has(node.row.id);
    items.push({
      kind: 'session',
      key: node.row.id,
      level,
      row: node.row,
      children: children.length,
      expanded,
      orphan: node.orphan,
      matched: matches(node.row, details[node.row.id], needle),
    });
    if (expanded) for (const child of children) emit(child, level + 1, seen);
  };
  const ordered = [...projects.entries()].map(([label, list]) => ({
    label,
    list: list.sort(byRecency),
    recency: Math.max(...list.map((n) => n.recency)),
  }));
  ordered.sort((a, b) => b.recency - a.recency || a.label.localeCompare(b.label));
  for (const project of ordered) {
    const key = `p:${project.label}`;
    const sessions = project.list.reduce((sum, node) => sum + countMatched(node, new Set()), 0);
    count += sessions;
    const expanded = !collapsed.has(key);
    items.push({ kind: 'project', key, level: 1, label: project.label, sessions, expanded, modifiedAt: project.recency });
    if (expanded) for (const node of project.list) emit(node, 2, new Set());
  }
  return { items, count, total: rows.length };
}
