// The import graph of src/ at folder level: which top-level folder imports which. A file directly in src/ counts as
// its own node (its name without the extension).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const IMPORT = /(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;

export interface FolderImport {
  from: string;
  to: string;
  /** One file of `from` that imports one file of `to`, for the message. */
  example: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

function folderOf(srcRoot: string, file: string): string {
  const [first, ...rest] = relative(srcRoot, file).split(sep);
  return rest.length === 0 ? first!.replace(/\.ts$/, "") : first!;
}

/**
 * Every folder → folder edge of `srcRoot`, except imports of the files `allowed` names (relative to srcRoot),
 * e.g. the drizzle schema that re-exports every domain's tables.
 */
export function folderImports(srcRoot: string, allowed: readonly string[] = []): FolderImport[] {
  const edges = new Map<string, FolderImport>();
  for (const file of sourceFiles(srcRoot)) {
    const from = folderOf(srcRoot, file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2]!;
      const target = resolve(dirname(file), specifier);
      const targetRel = relative(srcRoot, target);
      if (targetRel.startsWith("..")) continue;
      if (allowed.includes(relative(srcRoot, file)) || allowed.includes(targetRel)) continue;
      const to = folderOf(srcRoot, target);
      if (to === from) continue;
      const key = `${from}→${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, example: `${relative(srcRoot, file)} → ${targetRel}` });
    }
  }
  return [...edges.values()];
}

/** The import loops among folders: each strongly connected group of more than one folder, sorted. */
export function folderLoops(edges: readonly FolderImport[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const nodes = [...new Set(edges.flatMap((edge) => [edge.from, edge.to]))].sort();
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
