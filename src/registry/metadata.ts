// Normalises one `info.json` of the metadata repository into the spec's metadata object. The public tree is
// hand-edited, so it is repaired where the intent is clear (a link with name and url swapped), trimmed of
// what the spec does not allow (unknown keys, malformed links), and every change is reported.
import type { Metadata, MetadataLink } from "./schemas.ts";

/** Keys of `info.json` that become metadata; `icon` is not among them, it comes from `logo.png`. */
const METADATA_KEYS = ["name", "description", "tags", "links"] as const;

export type NormalizedInfo = { ok: true; meta: Metadata; changes: string[] } | { ok: false; reason: string };

/**
 * Turns a parsed `info.json` into metadata. `extraKeys` are keys the caller consumes itself (a vault's
 * `curatorId`), so they are neither kept in the metadata nor reported as dropped.
 */
export function normalizeInfo(
  info: unknown,
  options: { extraKeys?: readonly string[]; icon?: string } = {},
): NormalizedInfo {
  if (typeof info !== "object" || info === null || Array.isArray(info)) {
    return { ok: false, reason: "info.json is not a JSON object" };
  }
  const record = info as Record<string, unknown>;
  const changes: string[] = [];

  if (typeof record.name !== "string" || record.name.trim() === "") {
    return { ok: false, reason: "no usable name" };
  }
  const name = record.name.trim();
  if (name !== record.name) changes.push("trimmed whitespace around name");
  const meta: Metadata = { name };

  if (record.description !== undefined) {
    if (typeof record.description === "string") meta.description = record.description;
    else changes.push("dropped description: not a string");
  }

  if (options.icon !== undefined) meta.icon = options.icon;

  if (record.tags !== undefined) {
    const tags = normalizeTags(record.tags, changes);
    if (tags) meta.tags = tags;
  }

  if (record.links !== undefined) {
    const links = normalizeLinks(record.links, changes);
    if (links) meta.links = links;
  }

  const known = new Set<string>([...METADATA_KEYS, ...(options.extraKeys ?? [])]);
  for (const key of Object.keys(record)) {
    if (!known.has(key)) changes.push(`dropped unknown key "${key}"`);
  }

  return { ok: true, meta, changes };
}

function normalizeTags(value: unknown, changes: string[]): string[] | undefined {
  if (!Array.isArray(value)) {
    changes.push("dropped tags: not an array");
    return undefined;
  }
  const tags = value.filter((tag): tag is string => typeof tag === "string" && tag.trim() !== "");
  if (tags.length !== value.length) changes.push("dropped tags that are not non-empty strings");
  return tags;
}

function normalizeLinks(value: unknown, changes: string[]): MetadataLink[] | undefined {
  if (!Array.isArray(value)) {
    changes.push("dropped links: not an array");
    return undefined;
  }
  const links: MetadataLink[] = [];
  value.forEach((raw, index) => {
    const link = normalizeLink(raw, index, changes);
    if (link) links.push(link);
  });
  return links;
}

function normalizeLink(raw: unknown, index: number, changes: string[]): MetadataLink | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    changes.push(`dropped link #${index}: not an object`);
    return undefined;
  }
  const { name, type, url, ...rest } = raw as Record<string, unknown>;
  if (!isNonEmptyString(name) || !isNonEmptyString(type) || !isNonEmptyString(url)) {
    changes.push(`dropped link #${index}: name, type and url must be non-empty strings`);
    return undefined;
  }
  const unknownKeys = Object.keys(rest);
  if (unknownKeys.length > 0) {
    changes.push(
      `dropped unknown key${unknownKeys.length > 1 ? "s" : ""} ${unknownKeys.map((k) => `"${k}"`).join(", ")} of link "${name}"`,
    );
  }
  if (isHttpUrl(url)) return { name, type, url };
  // A url in the name field and prose in the url field is a swap, not two bad values.
  if (isHttpUrl(name)) {
    changes.push(`swapped name and url of link "${url}"`);
    return { name: url, type, url: name };
  }
  changes.push(`dropped link "${name}": no valid http(s) url`);
  return undefined;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/** An absolute http(s) URL with no whitespace. */
export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}
