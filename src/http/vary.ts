// The Vary header as several parts of a reply add to it (CORS's Origin, a prepared answer's Accept-Encoding): each
// adds its field to what is there, never replacing it, so a shared cache keys the answer by every field it depends on.

/** `current` with `field` added, unless it already names it (any case); `*` when it holds `*`. */
export function varyWith(current: unknown, field: string): string {
  if (current === undefined || current === null || current === "") return field;
  const text = Array.isArray(current) ? current.join(", ") : String(current);
  const lower = field.toLowerCase();
  const names = text.split(",").map((name) => name.trim().toLowerCase());
  if (names.includes("*")) return "*";
  return names.includes(lower) ? text : `${text}, ${field}`;
}
