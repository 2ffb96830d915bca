// Reads a tree in the public metadata-repository layout — `{networks,operators,vaults}/<address>/info.json`,
// `curators/<slug>/info.json`, each with an optional `logo.png` — into normalised registry entries and a
// report of what was imported, skipped and repaired.
import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Address } from "viem";
import { isHttpUrl, normalizeInfo } from "./metadata.ts";
import { type MetadataTree, REGISTRY_KINDS, type RegistryKind } from "./registry.ts";
import type { KindReport, SkippedEntry, TreeReport } from "./report.ts";
import type { Metadata } from "./schemas.ts";

/** Raw files of the public metadata repository; icons point there unless another base is configured. */
export const DEFAULT_ICON_BASE_URL = "https://raw.githubusercontent.com/symbioticfi/metadata-mainnet/main";

const ADDRESS_FOLDER = /^0x[0-9a-fA-F]{40}$/;
const SLUG = /^[a-z0-9][a-z0-9._-]*$/;

/** Top-level folders of the repository that hold metadata of something other than a registry. */
const NON_REGISTRY_KINDS: Record<string, string> = {
  tokens: "token metadata, not a registry",
  points: "points-type metadata, not a registry",
};

export class MetadataTreeError extends Error {
  override name = "MetadataTreeError";
}

export interface ReadMetadataTreeOptions {
  /** Base of `meta.icon` URLs: `<base>/<kind>/<folder name as found>/logo.png`. */
  iconBaseUrl?: string;
}

export async function readMetadataTree(
  dir: string,
  options: ReadMetadataTreeOptions = {},
): Promise<{ tree: MetadataTree; report: TreeReport }> {
  const iconBaseUrl = (options.iconBaseUrl ?? DEFAULT_ICON_BASE_URL).replace(/\/+$/, "");
  if (!isHttpUrl(iconBaseUrl))
    throw new MetadataTreeError(`icon base URL is not an http(s) URL: ${iconBaseUrl}`);
  const topLevel = await readDirectory(dir);
  const present = new Set(topLevel.filter((entry) => entry.isDirectory()).map((entry) => entry.name));
  if (!REGISTRY_KINDS.some((kind) => present.has(kind))) {
    throw new MetadataTreeError(
      `${dir} has none of ${REGISTRY_KINDS.map((k) => `${k}/`).join(", ")}: not a metadata tree`,
    );
  }

  const skippedKinds: SkippedEntry[] = topLevel
    .filter((entry) => !(entry.isDirectory() && (REGISTRY_KINDS as readonly string[]).includes(entry.name)))
    .map((entry) => ({
      entry: entry.isDirectory() ? `${entry.name}/` : entry.name,
      reason:
        NON_REGISTRY_KINDS[entry.name] ??
        (entry.isDirectory() ? "not a registry kind" : "not a registry folder"),
    }))
    .sort((a, b) => compare(a.entry, b.entry));

  const read = async (kind: RegistryKind) =>
    present.has(kind) ? readKind(dir, kind, iconBaseUrl) : { entries: [], report: missingKindReport(kind) };
  const [networks, operators, vaults, curators] = await Promise.all(REGISTRY_KINDS.map(read));

  const tree: MetadataTree = {
    networks: networks!.entries.map(({ key, meta }) => ({ address: key as Address, meta })),
    operators: operators!.entries.map(({ key, meta }) => ({ address: key as Address, meta })),
    vaults: vaults!.entries.map(({ key, meta, curatorId }) => ({
      address: key as Address,
      ...(curatorId !== undefined ? { curatorId } : {}),
      meta,
    })),
    curators: curators!.entries.map(({ key, meta }) => ({ id: key, meta })),
  };

  // A dangling curatorId is kept ("keep the data") but pointed out.
  const curatorIds = new Set(tree.curators.map((curator) => curator.id));
  for (const entry of vaults!.entries) {
    if (entry.curatorId !== undefined && !curatorIds.has(entry.curatorId)) {
      vaults!.report.warnings.push({
        entry: entry.folder,
        reason: `curatorId "${entry.curatorId}" names no curator in the tree`,
      });
    }
  }

  return {
    tree,
    report: {
      kinds: {
        networks: networks!.report,
        operators: operators!.report,
        vaults: vaults!.report,
        curators: curators!.report,
      },
      skippedKinds,
    },
  };
}

export interface TreeToken {
  address: Address;
  /** The token's display name (usually its symbol), when its info.json has one. */
  name?: string;
}

/**
 * The tokens of the tree's `tokens/` folder, lowercased and sorted. Not a registry: only the demo overlay
 * reads them, to draw realistic collateral addresses.
 */
export async function readTreeTokens(dir: string): Promise<TreeToken[]> {
  let folders: Dirent[];
  try {
    folders = await readdir(join(dir, "tokens"), { withFileTypes: true });
  } catch {
    return [];
  }
  const tokens = await Promise.all(
    folders
      .filter((folder) => folder.isDirectory() && ADDRESS_FOLDER.test(folder.name))
      .map(async (folder): Promise<TreeToken> => {
        const address = folder.name.toLowerCase() as Address;
        const info = (await readJson(join(dir, "tokens", folder.name, "info.json")).catch(() => undefined))
          ?.value;
        const name = (info as { name?: unknown } | undefined)?.name;
        return typeof name === "string" && name.trim() !== "" ? { address, name: name.trim() } : { address };
      }),
  );
  return tokens.sort((a, b) => compare(a.address, b.address));
}

interface KindEntry {
  /** Lowercased address or slug. */
  key: string;
  /** The folder name as found. */
  folder: string;
  meta: Metadata;
  curatorId?: string;
}

async function readKind(
  dir: string,
  kind: RegistryKind,
  iconBaseUrl: string,
): Promise<{ entries: KindEntry[]; report: KindReport }> {
  const report: KindReport = { kind, imported: 0, skipped: [], repaired: [], warnings: [] };
  const folders = (await readDirectory(join(dir, kind))).sort((a, b) => compare(a.name, b.name));
  const outcomes = await Promise.all(folders.map((folder) => readEntry(dir, kind, folder, iconBaseUrl)));

  const entries: KindEntry[] = [];
  const claimedBy = new Map<string, string>();
  for (const outcome of outcomes) {
    if (!outcome.ok) {
      report.skipped.push({ entry: outcome.folder, reason: outcome.reason });
      continue;
    }
    const { entry, changes } = outcome;
    const first = claimedBy.get(entry.key);
    if (first !== undefined) {
      report.skipped.push({
        entry: entry.folder,
        reason: `duplicate of ${first} (names compare case-insensitively)`,
      });
      continue;
    }
    claimedBy.set(entry.key, entry.folder);
    entries.push(entry);
    if (changes.length > 0) report.repaired.push({ entry: entry.folder, changes });
  }
  report.imported = entries.length;
  return { entries, report };
}

type EntryOutcome =
  | { ok: true; entry: KindEntry; changes: string[] }
  | { ok: false; folder: string; reason: string };

async function readEntry(
  dir: string,
  kind: RegistryKind,
  folder: Dirent,
  iconBaseUrl: string,
): Promise<EntryOutcome> {
  const name = folder.name;
  if (!folder.isDirectory()) return { ok: false, folder: name, reason: "not a folder" };

  const key = name.toLowerCase();
  const changes: string[] = [];
  if (kind === "curators") {
    if (!SLUG.test(key)) return { ok: false, folder: name, reason: "folder name is not a slug" };
    if (key !== name) changes.push("lowercased slug");
  } else {
    if (!ADDRESS_FOLDER.test(name))
      return { ok: false, folder: name, reason: "folder name is not an address" };
    if (key !== name) changes.push("lowercased address");
  }

  const path = join(dir, kind, name);
  let info: unknown;
  try {
    const read = await readJson(join(path, "info.json"));
    info = read.value;
    if (read.byteOrderMark) changes.push("removed a byte-order mark from info.json");
  } catch (error) {
    return { ok: false, folder: name, reason: describeReadError(error) };
  }

  const hasLogo = await stat(join(path, "logo.png")).then(
    (logo) => logo.isFile(),
    () => false,
  );
  const icon = hasLogo ? `${iconBaseUrl}/${kind}/${encodeURIComponent(name)}/logo.png` : undefined;
  const extraKeys = kind === "vaults" ? ["curatorId"] : [];
  const normalized = normalizeInfo(info, { extraKeys, ...(icon !== undefined ? { icon } : {}) });
  if (!normalized.ok) return { ok: false, folder: name, reason: normalized.reason };
  changes.push(...normalized.changes);

  const entry: KindEntry = { key, folder: name, meta: normalized.meta };
  if (kind === "vaults") {
    const curatorId = normalizeCuratorId((info as Record<string, unknown>).curatorId, changes);
    if (curatorId !== undefined) entry.curatorId = curatorId;
  }
  return { ok: true, entry, changes };
}

function normalizeCuratorId(value: unknown, changes: string[]): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    changes.push("dropped curatorId: not a string");
    return undefined;
  }
  const slug = value.trim().toLowerCase();
  if (!SLUG.test(slug)) {
    changes.push(`dropped curatorId "${value}": not a slug`);
    return undefined;
  }
  if (slug !== value) changes.push(`lowercased curatorId "${value}"`);
  return slug;
}

function missingKindReport(kind: RegistryKind): KindReport {
  return {
    kind,
    imported: 0,
    skipped: [],
    repaired: [],
    // The entry is the kind's folder itself: reported as `<kind>/`.
    warnings: [{ entry: "", reason: "folder missing from the tree; none imported" }],
  };
}

async function readDirectory(path: string): Promise<Dirent[]> {
  try {
    return await readdir(path, { withFileTypes: true });
  } catch (error) {
    throw new MetadataTreeError(`cannot read directory ${path}: ${(error as Error).message}`);
  }
}

/** A file's JSON; editors on some systems start UTF-8 files with a byte-order mark, which JSON.parse refuses. */
async function readJson(path: string): Promise<{ value: unknown; byteOrderMark: boolean }> {
  const text = await readFile(path, "utf8");
  const byteOrderMark = text.startsWith("\uFEFF");
  try {
    return { value: JSON.parse(byteOrderMark ? text.slice(1) : text), byteOrderMark };
  } catch (error) {
    // V8 quotes the offending text, line breaks and all: one report line per problem.
    throw new InvalidJsonError((error as Error).message.replace(/\r?\n/g, "\\n"));
  }
}

class InvalidJsonError extends Error {
  override name = "InvalidJsonError";
}

function describeReadError(error: unknown): string {
  if (error instanceof InvalidJsonError) return `info.json is not valid JSON (${error.message})`;
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return "no info.json";
  return `cannot read info.json (${(error as Error).message})`;
}

/** Code-unit order: the same on every machine, whatever the locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
