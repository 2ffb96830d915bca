// A Markdown table: readable in a terminal and pasteable into a README as is.
export function markdownTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  return [
    line(headers),
    `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`,
    ...rows.map(line),
  ].join("\n");
}

export function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1e6) return `${formatNumber(bytes / 1e6, 1)} MB`;
  if (bytes >= 1e3) return `${formatNumber(bytes / 1e3, 1)} KB`;
  return `${bytes} B`;
}
