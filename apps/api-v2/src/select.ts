/**
 * v2 `select`: keeps only the named fields. `a.b` keeps b inside a, `a.` keeps
 * all of a; `id` and the resource's always-selected fields stay; unknown paths
 * are ignored. Lists inside a record are projected element by element.
 */
type Tree = Map<string, Tree | true>;

export function buildSelectTree(paths: string[]): Tree {
  const root: Tree = new Map();
  for (const raw of paths) {
    // `a.` and `a` both keep the whole of a; `a.b` keeps only b inside a
    const segments = raw.trim().replace(/\.$/, '').split('.').filter(Boolean);
    let node: Tree | true = root;
    segments.forEach((seg, i) => {
      if (node === true) return;
      if (i === segments.length - 1) {
        node.set(seg, true);
        return;
      }
      const existing: Tree | true | undefined = node.get(seg);
      if (existing === undefined) {
        const child: Tree = new Map();
        node.set(seg, child);
        node = child;
      } else node = existing;
    });
  }
  return root;
}

function projectValue(value: unknown, tree: Tree): unknown {
  if (Array.isArray(value)) return value.map((v) => projectValue(v, tree));
  if (value && typeof value === 'object') return projectRecord(value as Record<string, unknown>, tree);
  return value;
}

function projectRecord(record: Record<string, unknown>, tree: Tree): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, sub] of tree) {
    if (!(key in record)) continue;
    out[key] = sub === true ? record[key] : projectValue(record[key], sub);
  }
  return out;
}

export function applySelect(
  record: Record<string, unknown>,
  select: string[] | undefined,
  always: string[] = [],
): Record<string, unknown> {
  if (!select || select.length === 0) return record;
  const tree = buildSelectTree([...select, 'id', ...always]);
  return projectRecord(record, tree);
}
