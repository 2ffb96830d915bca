// Folders import each other in one direction only: a loop between two domain folders means neither can be read,
// tested or replaced without the other. The drizzle schema file, which re-exports every domain's tables for
// drizzle-kit, is the one file allowed to import upwards.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { folderImports, folderLoops } from "./folder-graph.ts";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

describe("the folders of src/", () => {
  it("import each other without a loop", () => {
    const edges = folderImports(SRC, ["db/schema.ts"]);
    const loops = folderLoops(edges).map((loop) =>
      [
        loop.join(" ↔ "),
        ...edges
          .filter((edge) => loop.includes(edge.from) && loop.includes(edge.to))
          .map((edge) => `  ${edge.example}`),
      ].join("\n"),
    );
    expect(loops).toEqual([]);
  });

  it("finds a loop when there is one (the check itself works)", () => {
    const loops = folderLoops([
      { from: "a", to: "b", example: "a/x.ts → b/y.ts" },
      { from: "b", to: "c", example: "b/y.ts → c/z.ts" },
      { from: "c", to: "a", example: "c/z.ts → a/x.ts" },
      { from: "c", to: "d", example: "c/z.ts → d/w.ts" },
    ]);
    expect(loops).toEqual([["a", "b", "c"]]);
  });

  it("keeps domain folders out of the HTTP layer and the composition root", () => {
    const upward = folderImports(SRC, ["db/schema.ts"]).filter(
      (edge) => (edge.to === "http" || edge.to === "app") && !["app", "cli", "http"].includes(edge.from),
    );
    expect(upward.map((edge) => edge.example)).toEqual([]);
  });

  it("keeps packages/client standalone: it imports only its own files and viem (@sluice/client ships alone)", () => {
    const clientDir = fileURLToPath(new URL("../../packages/client/src", import.meta.url));
    const outside = readdirSync(clientDir)
      .filter((name) => name.endsWith(".ts"))
      .flatMap((name) =>
        [...readFileSync(join(clientDir, name), "utf8").matchAll(SPECIFIER)]
          .map((match) => match[1] ?? match[2]!)
          .filter((specifier) => !/^\.\/[^/]+$/.test(specifier) && !/^viem(\/|$)/.test(specifier))
          .map((specifier) => `client/${name} → ${specifier}`),
      );
    expect(outside).toEqual([]);
  });
});

/** Every module specifier of a file: `import/export … from "x"`, `import "x"` and `import("x")`. */
const SPECIFIER = /(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\s*\(?\s*["']([^"']+)["']/g;
