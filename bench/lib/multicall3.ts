// Multicall3's creation code, for fixtures that deploy it as every public network has it (the deployment's
// `multicall`). viem ships the bytecode for its deployless multicall but does not export it, so it is read from
// viem's own constants module rather than copied here.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Hex } from "viem";

export function multicall3CreationCode(): Hex {
  const viemEntry = createRequire(import.meta.url).resolve("viem");
  const constants = readFileSync(join(dirname(viemEntry), "constants", "contracts.js"), "utf8");
  const match = /multicall3Bytecode\s*=\s*['"](0x[0-9a-fA-F]+)['"]/.exec(constants);
  if (!match?.[1]) throw new Error("Multicall3 bytecode not found in viem's constants");
  return match[1] as Hex;
}
