// Typed (`as const`) ABIs and bytecodes of the project's contracts, generated into contracts/artifacts by
// `npm run contracts`, plus the view copy of the adapter ABI that off-chain reads use.
import { liquidLaneAdapterAbi } from "../../contracts/artifacts/index.ts";

export {
  adapterFactoryAbi,
  adapterFactoryBytecode,
  executorAbi,
  executorBytecode,
  liquidLaneAdapterAbi,
  liquidLaneAdapterBytecode,
  reactorAbi,
  reactorBytecode,
  testERC20Abi,
  testERC20Bytecode,
  testERC1271WalletAbi,
  testERC1271WalletBytecode,
  testUSDTAbi,
  testUSDTBytecode,
  testVaultAbi,
  testVaultBytecode,
} from "../../contracts/artifacts/index.ts";

type AbiItem = (typeof liquidLaneAdapterAbi)[number];
type AsView<T> = T extends { readonly type: "function"; readonly name: "getMaxAssets" }
  ? Omit<T, "stateMutability"> & { readonly stateMutability: "view" }
  : T;
type ViewCopy<A extends readonly AbiItem[]> = { readonly [K in keyof A]: AsView<A[K]> };

/**
 * The adapter ABI with `getMaxAssets` declared `view`. The reference ABI (and ours) declares it nonpayable although
 * it only reads, so viem would refuse `readContract`/`multicall` on it; this copy lets reads go through `eth_call`.
 */
export const liquidLaneAdapterViewAbi = liquidLaneAdapterAbi.map((item) =>
  item.type === "function" && item.name === "getMaxAssets" ? { ...item, stateMutability: "view" } : item,
) as unknown as ViewCopy<typeof liquidLaneAdapterAbi>;

/** The ERC-20 surface Sluice reads and writes (a subset of the test token's ABI, standard for any token). */
export const erc20Abi = [
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "account", type: "address" }],
    outputs: [{ name: "", type: "uint256" }],
  },
  {
    type: "function",
    name: "allowance",
    stateMutability: "view",
    inputs: [
      { name: "owner", type: "address" },
      { name: "spender", type: "address" },
    ],
    outputs: [{ name: "", type: "uint256" }],
  },
  {
    type: "function",
    name: "approve",
    stateMutability: "nonpayable",
    inputs: [
      { name: "spender", type: "address" },
      { name: "value", type: "uint256" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
  {
    type: "function",
    name: "transfer",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
  {
    type: "function",
    name: "decimals",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "uint8" }],
  },
  {
    type: "function",
    name: "symbol",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "string" }],
  },
  {
    type: "event",
    name: "Transfer",
    inputs: [
      { name: "from", type: "address", indexed: true },
      { name: "to", type: "address", indexed: true },
      { name: "value", type: "uint256", indexed: false },
    ],
  },
  {
    type: "event",
    name: "Approval",
    inputs: [
      { name: "owner", type: "address", indexed: true },
      { name: "spender", type: "address", indexed: true },
      { name: "value", type: "uint256", indexed: false },
    ],
  },
] as const;

/**
 * ERC-20 `transfer` declared `view`, so a multicall can ask through `eth_call` whether the token accepts a transfer to
 * an address (nothing is written: it is only ever simulated).
 */
export const erc20TransferProbeAbi = [
  {
    type: "function",
    name: "transfer",
    stateMutability: "view",
    inputs: [
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
    ],
    outputs: [{ name: "", type: "bool" }],
  },
] as const;

/** `asset()` of an ERC-4626 vault (the adapter's output token is its vault's asset). */
export const erc4626AssetAbi = [
  {
    type: "function",
    name: "asset",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "address" }],
  },
] as const;
