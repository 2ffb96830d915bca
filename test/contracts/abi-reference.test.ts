// The reference ABIs (fixtures/reference/abi-*.json) are the interface: every function, event and error the flow
// uses must exist in our compiled artifacts with the same name, input types (tuple layouts and field names
// included) and output types; functions with the same state mutability (getMaxAssets stays nonpayable), events
// with the same indexed flags.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { adapterFactoryAbi, executorAbi, liquidLaneAdapterAbi, reactorAbi } from "../../src/chain/abis.ts";

const REFERENCE_DIR = fileURLToPath(new URL("../../fixtures/reference/", import.meta.url));

interface Param {
  name?: string;
  type: string;
  indexed?: boolean;
  components?: readonly Param[];
}
interface Item {
  type: string;
  name?: string;
  inputs?: readonly Param[];
  outputs?: readonly Param[];
  stateMutability?: string;
}

function loadReference(file: string): Item[] {
  const json = JSON.parse(readFileSync(`${REFERENCE_DIR}${file}`, "utf8")) as Item[] | { abi: Item[] };
  return Array.isArray(json) ? json : json.abi;
}

/** Type of a parameter with tuple components spelled out, component names included (they shape viem objects). */
function shape(param: Param): string {
  if (!param.type.startsWith("tuple")) return param.type;
  const inner = (param.components ?? []).map((c) => `${shape(c)} ${c.name ?? ""}`).join(",");
  return `(${inner})${param.type.slice("tuple".length)}`;
}

function signature(item: Item): string {
  const inputs = (item.inputs ?? []).map((p) => `${shape(p)}${p.indexed ? " indexed" : ""}`).join(", ");
  const outputs = (item.outputs ?? []).map(shape).join(", ");
  const mutability = item.type === "function" ? ` ${item.stateMutability}` : "";
  return `${item.type} ${item.name}(${inputs})${item.type === "function" ? ` -> (${outputs})` : ""}${mutability}`;
}

function signaturesOf(abi: readonly Item[], kind: string, name: string): string[] {
  return abi
    .filter((item) => item.type === kind && item.name === name)
    .map(signature)
    .sort();
}

interface Surface {
  functions: string[];
  events: string[];
  errors: string[];
}

const cases: {
  contract: string;
  reference: string;
  abi: readonly Item[];
  used: Surface;
  hasConstructor?: boolean;
}[] = [
  {
    contract: "Reactor",
    reference: "abi-Reactor.json",
    abi: reactorAbi as unknown as Item[],
    hasConstructor: true,
    used: {
      functions: ["fill", "invalidateNonce", "isUsedNonce", "eip712Domain", "LIQUID_LANE_ADAPTER_FACTORY"],
      events: ["Fill", "InvalidateNonce"],
      errors: [
        "InvalidFiller",
        "ExpiredRequest",
        "NonceUsed",
        "InvalidProtocolSignature",
        "InvalidAdapter",
        "InvalidTokenIn",
        "InvalidAmountIn",
        "InvalidOutput",
        "SafeERC20FailedOperation",
      ],
    },
  },
  {
    contract: "Executor",
    reference: "abi-Executor.json",
    abi: executorAbi as unknown as Item[],
    hasConstructor: true,
    used: {
      functions: ["fill", "execute", "setCallers", "callers", "owner"],
      events: ["SetCallers"],
      errors: ["NotCaller", "NotReactor", "OwnableUnauthorizedAccount"],
    },
  },
  {
    contract: "LiquidLaneAdapter",
    reference: "abi-LiquidLaneAdapter.json",
    abi: liquidLaneAdapterAbi as unknown as Item[],
    used: {
      functions: [
        "getMaxAssets",
        "getMaxRate",
        "getAmountOut",
        "minDiscount",
        "setMinDiscount",
        "paused",
        "pause",
        "unpause",
        "owner",
        "marketMaker",
        "setMarketMaker",
        "isFiller",
        "setFiller",
        "tokensToRedeem",
        "getTokensToRedeemLength",
        "addTokenToRedeem",
        "removeTokenToRedeem",
        "limit",
        "setLimit",
        "swap",
        "isUsedNonce",
        "invalidateNonce",
        "vault",
        "eip712Domain",
      ],
      events: [
        "DoSwap",
        "InvalidateNonce",
        "SetFiller",
        "SetMarketMaker",
        "SetMinDiscount",
        "SetLimit",
        "AddTokenToRedeem",
        "RemoveTokenToRedeem",
        "SetVault",
        "Paused",
        "Unpaused",
      ],
      errors: [
        "AlreadyUsedNonce",
        "ExpiredSwap",
        "InvalidCaller",
        "InvalidDiscount",
        "InvalidSignature",
        "InvalidSwapRate",
        "InvalidTokenToRedeem",
        "LimitExceeded",
        "EnforcedPause",
        "ExpectedPause",
        "InvalidOracle",
        "InvalidVault",
        "TooManyTokensToRedeem",
      ],
    },
  },
  {
    contract: "AdapterFactory",
    reference: "abi-IAdapterFactory.json",
    abi: adapterFactoryAbi as unknown as Item[],
    used: {
      functions: ["isEntity", "totalEntities", "entity", "create", "lastVersion"],
      events: ["AddEntity"],
      errors: ["InvalidVersion"],
    },
  },
];

describe.each(cases)("$contract matches $reference", ({ reference, abi, used, hasConstructor }) => {
  const ref = loadReference(reference);

  it.each(used.functions)("function %s", (name) => {
    const expected = signaturesOf(ref, "function", name);
    expect(expected.length, `${name} is not in the reference ABI`).toBeGreaterThan(0);
    // Every reference overload the flow uses exists in ours (the adapter's SignedSwap overload is not used).
    const ours = signaturesOf(abi, "function", name);
    const required = name === "swap" ? expected.filter((s) => !s.includes("caller")) : expected;
    for (const sig of required) expect(ours).toContain(sig);
  });

  it.each(used.events)("event %s", (name) => {
    const expected = signaturesOf(ref, "event", name);
    expect(expected.length, `${name} is not in the reference ABI`).toBeGreaterThan(0);
    expect(signaturesOf(abi, "event", name)).toEqual(expected);
  });

  it.each(used.errors)("error %s", (name) => {
    const expected = signaturesOf(ref, "error", name);
    expect(expected.length, `${name} is not in the reference ABI`).toBeGreaterThan(0);
    expect(signaturesOf(abi, "error", name)).toEqual(expected);
  });

  if (hasConstructor) {
    it("constructor", () => {
      const types = (abi: readonly Item[]) =>
        abi.find((i) => i.type === "constructor")?.inputs?.map((p) => shape(p)) ?? [];
      expect(types(abi)).toEqual(types(ref));
    });
  }
});

describe("getMaxAssets", () => {
  it("stays nonpayable, as in the reference", () => {
    const item = (liquidLaneAdapterAbi as unknown as Item[]).find((i) => i.name === "getMaxAssets");
    expect(item?.stateMutability).toBe("nonpayable");
  });
});
