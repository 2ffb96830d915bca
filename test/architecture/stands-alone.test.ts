// A clone of Sluice must run and test with nothing beside it: no code, script or document may reach outside the
// repository (the project's shared materials were copied into docs/reference and fixtures/). Checked here on the
// tracked files; CI also runs the README's commands in a clone with nothing beside it (.ci/run).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Relative paths that reach files, by the form that names them. */
const PATH_FORMS: Array<{ form: string; pattern: RegExp; base: "file" | "root" }> = [
  {
    form: "new URL(…, import.meta.url)",
    pattern: /new URL\(\s*"([^"]+)",\s*import\.meta\.url/g,
    base: "file",
  },
  { form: "packagePath(…)", pattern: /packagePath\(([^)]*)\)/g, base: "root" },
  { form: "markdown link", pattern: /\]\((\.{1,2}\/[^)#\s]*)/g, base: "file" },
];

function trackedFiles(): string[] {
  return (
    execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" })
      .split("\n")
      .filter((file) => /\.(ts|mjs|js|md|json|sh)$/.test(file) || file.startsWith(".ci/"))
      .filter((file) => !file.startsWith("fixtures/") && !file.startsWith("docs/reference/"))
      // This file names such paths to show that the check finds them.
      .filter((file) => file !== "test/architecture/stands-alone.test.ts")
  );
}

/** Each place in `text` (a file at `file`) whose relative path resolves outside the repository. */
function pathsOutside(file: string, text: string): string[] {
  const found: string[] = [];
  for (const { form, pattern, base } of PATH_FORMS) {
    for (const match of text.matchAll(pattern)) {
      const raw = match[1]!;
      const target =
        base === "file"
          ? resolve(ROOT, dirname(file), raw)
          : resolve(ROOT, ...[...raw.matchAll(/"([^"]*)"/g)].map((part) => part[1]!));
      if (relative(ROOT, target).startsWith("..")) found.push(`${file}: ${form} ${raw}`);
    }
  }
  // Prose and comments that send the reader to the shared materials beside the clone.
  for (const match of text.matchAll(/(?:\.\.\/)+shared\/(?:spec|reference|fixtures|DESIGN|hooks)\S*/g))
    found.push(`${file}: ${match[0]}`);
  return found;
}

describe("the repository", () => {
  it("reaches nothing outside itself", () => {
    const outside = trackedFiles().flatMap((file) =>
      pathsOutside(file, readFileSync(join(ROOT, file), "utf8")),
    );
    expect(outside).toEqual([]);
  });

  it("finds a path outside when there is one (the check itself works)", () => {
    expect(
      pathsOutside("test/x/a.ts", 'new URL("../../../shared/fixtures/x", import.meta.url)'),
    ).toHaveLength(2);
    expect(pathsOutside("src/demo/seed.ts", 'packagePath("..", "shared", "fixtures")')).toHaveLength(1);
    expect(pathsOutside("docs/a.md", "see [the spec](../../spec.md)")).toHaveLength(1);
    expect(
      pathsOutside("docs/a.md", "see [the spec](reference/api-spec.md) and ../shared/DESIGN.md"),
    ).toEqual(["docs/a.md: ../shared/DESIGN.md"]);
    expect(pathsOutside("test/x/a.ts", 'new URL("../../fixtures/reference/", import.meta.url)')).toEqual([]);
  });
});
