// The Symbiotic-style contracts (contracts/src/symbiotic) expose every function and event the points engine and the
// devnet rely on exactly as symbioticfi/core's interfaces declare them (and Chainlink's AggregatorV2V3Interface for
// the price feed): each expected line below is copied from core's Solidity source (the file named beside it), and
// the compiled artifact must hold an item with the same selector (or event topic), the same indexed flags, the same
// output types and the same read/write kind.
import {
  type AbiEvent,
  type AbiFunction,
  parseAbiItem,
  toEventSelector,
  toEventSignature,
  toFunctionSelector,
  toFunctionSignature,
} from "viem";
import { describe, expect, it } from "vitest";
import {
  fullRestakeDelegatorAbi,
  networkRegistryAbi,
  networkRestakeDelegatorAbi,
  operatorRegistryAbi,
  operatorSpecificDelegatorAbi,
  optInServiceAbi,
  priceFeedAbi,
  vaultAbi,
  vaultFactoryAbi,
  vaultTokenizedAbi,
} from "../../src/points-engine/chain/abis.ts";

const registry = [
  // src/interfaces/common/IRegistry.sol
  "function isEntity(address account) external view returns (bool)",
  "function totalEntities() external view returns (uint256)",
  "function entity(uint256 index) external view returns (address)",
  "event AddEntity(address indexed entity)",
];

const optInService = [
  // src/interfaces/service/IOptInService.sol
  "event OptIn(address indexed who, address indexed where)",
  "event OptOut(address indexed who, address indexed where)",
  "function WHO_REGISTRY() external view returns (address)",
  "function WHERE_REGISTRY() external view returns (address)",
  "function isOptedIn(address who, address where) external view returns (bool)",
  "function optIn(address where) external",
  "function optOut(address where) external",
];

const vault = [
  // src/interfaces/vault/IVaultStorage.sol
  "function collateral() external view returns (address)",
  "function burner() external view returns (address)",
  "function delegator() external view returns (address)",
  "function isDelegatorInitialized() external view returns (bool)",
  "function slasher() external view returns (address)",
  "function isSlasherInitialized() external view returns (bool)",
  "function epochDurationInit() external view returns (uint48)",
  "function epochDuration() external view returns (uint48)",
  "function epochAt(uint48 timestamp) external view returns (uint256)",
  "function currentEpoch() external view returns (uint256)",
  "function currentEpochStart() external view returns (uint48)",
  "function nextEpochStart() external view returns (uint48)",
  "function activeShares() external view returns (uint256)",
  "function activeStake() external view returns (uint256)",
  "function activeSharesOf(address account) external view returns (uint256)",
  "function withdrawals(uint256 epoch) external view returns (uint256)",
  "function withdrawalShares(uint256 epoch) external view returns (uint256)",
  "function withdrawalSharesOf(uint256 epoch, address account) external view returns (uint256)",
  "function isWithdrawalsClaimed(uint256 epoch, address account) external view returns (bool)",
  // src/interfaces/vault/IVault.sol
  "event Deposit(address indexed depositor, address indexed onBehalfOf, uint256 amount, uint256 shares)",
  "event Withdraw(address indexed withdrawer, address indexed claimer, uint256 amount, uint256 burnedShares, uint256 mintedShares)",
  "event Claim(address indexed claimer, address indexed recipient, uint256 epoch, uint256 amount)",
  "event OnSlash(uint256 amount, uint48 captureTimestamp, uint256 slashedAmount)",
  "event SetDelegator(address indexed delegator)",
  "event SetSlasher(address indexed slasher)",
  "function isInitialized() external view returns (bool)",
  "function totalStake() external view returns (uint256)",
  "function activeBalanceOf(address account) external view returns (uint256)",
  "function withdrawalsOf(uint256 epoch, address account) external view returns (uint256)",
  "function slashableBalanceOf(address account) external view returns (uint256)",
  "function deposit(address onBehalfOf, uint256 amount) external returns (uint256 depositedAmount, uint256 mintedShares)",
  "function withdraw(address claimer, uint256 amount) external returns (uint256 burnedShares, uint256 mintedShares)",
  "function claim(address recipient, uint256 epoch) external returns (uint256 amount)",
  "function onSlash(uint256 amount, uint48 captureTimestamp) external returns (uint256 slashedAmount)",
  "function setDelegator(address delegator) external",
  "function setSlasher(address slasher) external",
];

const vaultTokenized = [
  ...vault,
  // src/interfaces/vault/IVaultTokenized.sol is IVault + OpenZeppelin's ERC-20 (IERC20, IERC20Metadata)
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
  "function totalSupply() external view returns (uint256)",
  "function balanceOf(address account) external view returns (uint256)",
  "function transfer(address to, uint256 value) external returns (bool)",
  "function allowance(address owner, address spender) external view returns (uint256)",
  "function approve(address spender, uint256 value) external returns (bool)",
  "function transferFrom(address from, address to, uint256 value) external returns (bool)",
  "function name() external view returns (string)",
  "function symbol() external view returns (string)",
  "function decimals() external view returns (uint8)",
];

const baseDelegator = [
  // src/interfaces/common/IEntity.sol
  "function TYPE() external view returns (uint64)",
  // src/interfaces/delegator/IBaseDelegator.sol
  "event SetMaxNetworkLimit(bytes32 indexed subnetwork, uint256 amount)",
  "function VERSION() external view returns (uint64)",
  "function NETWORK_REGISTRY() external view returns (address)",
  "function VAULT_FACTORY() external view returns (address)",
  "function OPERATOR_VAULT_OPT_IN_SERVICE() external view returns (address)",
  "function OPERATOR_NETWORK_OPT_IN_SERVICE() external view returns (address)",
  "function vault() external view returns (address)",
  "function maxNetworkLimit(bytes32 subnetwork) external view returns (uint256)",
  "function stake(bytes32 subnetwork, address operator) external view returns (uint256)",
  "function setMaxNetworkLimit(uint96 identifier, uint256 amount) external",
];

const cases = [
  {
    contract: "NetworkRegistry",
    abi: networkRegistryAbi,
    // src/interfaces/INetworkRegistry.sol
    expected: [...registry, "function registerNetwork() external"],
  },
  {
    contract: "OperatorRegistry",
    abi: operatorRegistryAbi,
    // src/interfaces/IOperatorRegistry.sol
    expected: [...registry, "function registerOperator() external"],
  },
  {
    contract: "VaultFactory",
    abi: vaultFactoryAbi,
    expected: [
      ...registry,
      // src/interfaces/common/IMigratablesFactory.sol (IVaultFactory is IMigratablesFactory)
      "function lastVersion() external view returns (uint64)",
      "function create(uint64 version, address owner, bytes calldata data) external returns (address)",
    ],
  },
  { contract: "OptInService", abi: optInServiceAbi, expected: optInService },
  { contract: "Vault", abi: vaultAbi, expected: vault },
  { contract: "VaultTokenized", abi: vaultTokenizedAbi, expected: vaultTokenized },
  {
    contract: "NetworkRestakeDelegator",
    abi: networkRestakeDelegatorAbi,
    expected: [
      ...baseDelegator,
      // src/interfaces/delegator/INetworkRestakeDelegator.sol
      "event SetNetworkLimit(bytes32 indexed subnetwork, uint256 amount)",
      "event SetOperatorNetworkShares(bytes32 indexed subnetwork, address indexed operator, uint256 shares)",
      "function networkLimit(bytes32 subnetwork) external view returns (uint256)",
      "function totalOperatorNetworkShares(bytes32 subnetwork) external view returns (uint256)",
      "function operatorNetworkShares(bytes32 subnetwork, address operator) external view returns (uint256)",
      "function setNetworkLimit(bytes32 subnetwork, uint256 amount) external",
      "function setOperatorNetworkShares(bytes32 subnetwork, address operator, uint256 shares) external",
    ],
  },
  {
    contract: "FullRestakeDelegator",
    abi: fullRestakeDelegatorAbi,
    expected: [
      ...baseDelegator,
      // src/interfaces/delegator/IFullRestakeDelegator.sol
      "event SetNetworkLimit(bytes32 indexed subnetwork, uint256 amount)",
      "event SetOperatorNetworkLimit(bytes32 indexed subnetwork, address indexed operator, uint256 amount)",
      "function networkLimit(bytes32 subnetwork) external view returns (uint256)",
      "function operatorNetworkLimit(bytes32 subnetwork, address operator) external view returns (uint256)",
      "function setNetworkLimit(bytes32 subnetwork, uint256 amount) external",
      "function setOperatorNetworkLimit(bytes32 subnetwork, address operator, uint256 amount) external",
    ],
  },
  {
    contract: "OperatorSpecificDelegator",
    abi: operatorSpecificDelegatorAbi,
    expected: [
      ...baseDelegator,
      // src/interfaces/delegator/IOperatorSpecificDelegator.sol
      "event SetNetworkLimit(bytes32 indexed subnetwork, uint256 amount)",
      "function OPERATOR_REGISTRY() external view returns (address)",
      "function operator() external view returns (address)",
      "function networkLimit(bytes32 subnetwork) external view returns (uint256)",
      "function setNetworkLimit(bytes32 subnetwork, uint256 amount) external",
    ],
  },
  {
    contract: "PriceFeed",
    abi: priceFeedAbi,
    expected: [
      // Chainlink's AggregatorInterface and AggregatorV3Interface (AggregatorV2V3Interface)
      "event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt)",
      "event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt)",
      "function latestAnswer() external view returns (int256)",
      "function latestTimestamp() external view returns (uint256)",
      "function latestRound() external view returns (uint256)",
      "function getAnswer(uint256 roundId) external view returns (int256)",
      "function getTimestamp(uint256 roundId) external view returns (uint256)",
      "function decimals() external view returns (uint8)",
      "function description() external view returns (string memory)",
      "function version() external view returns (uint256)",
      "function getRoundData(uint80 _roundId) external view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
      "function latestRoundData() external view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
    ],
  },
] as const;

const readsOnly = (mutability: string) => mutability === "view" || mutability === "pure";

describe.each(cases)("$contract", ({ abi, expected }) => {
  const items = abi as unknown as readonly (AbiFunction | AbiEvent | { type: string })[];
  const functions = items.filter((item): item is AbiFunction => item.type === "function");
  const events = items.filter((item): item is AbiEvent => item.type === "event");

  it.each(expected.filter((line) => line.startsWith("function ")))("%s", (line) => {
    const wanted = parseAbiItem(line) as AbiFunction;
    const selector = toFunctionSelector(wanted);
    const ours = functions.find((item) => toFunctionSelector(item) === selector);
    expect(ours, `no ${toFunctionSignature(wanted)} (selector ${selector})`).toBeDefined();
    expect(ours!.outputs.map((o) => o.type)).toEqual(wanted.outputs.map((o) => o.type));
    expect(readsOnly(ours!.stateMutability)).toBe(readsOnly(wanted.stateMutability));
  });

  it.each(expected.filter((line) => line.startsWith("event ")))("%s", (line) => {
    const wanted = parseAbiItem(line) as AbiEvent;
    const topic = toEventSelector(wanted);
    const ours = events.find((item) => toEventSelector(item) === topic);
    expect(ours, `no ${toEventSignature(wanted)} (topic ${topic})`).toBeDefined();
    expect(ours!.inputs.map((p) => Boolean(p.indexed))).toEqual(wanted.inputs.map((p) => Boolean(p.indexed)));
    expect(ours!.inputs.map((p) => p.name)).toEqual(wanted.inputs.map((p) => p.name));
  });
});

describe("topics the points engine filters logs by", () => {
  // Written out once by hand from the signatures, so a typo in both the contract and the list above still fails.
  it.each([
    ["Deposit(address,address,uint256,uint256)", vaultAbi, "Deposit"],
    ["Withdraw(address,address,uint256,uint256,uint256)", vaultAbi, "Withdraw"],
    ["OnSlash(uint256,uint48,uint256)", vaultAbi, "OnSlash"],
    ["Transfer(address,address,uint256)", vaultTokenizedAbi, "Transfer"],
    ["OptIn(address,address)", optInServiceAbi, "OptIn"],
    ["OptOut(address,address)", optInServiceAbi, "OptOut"],
    ["SetMaxNetworkLimit(bytes32,uint256)", networkRestakeDelegatorAbi, "SetMaxNetworkLimit"],
    ["SetNetworkLimit(bytes32,uint256)", networkRestakeDelegatorAbi, "SetNetworkLimit"],
    [
      "SetOperatorNetworkShares(bytes32,address,uint256)",
      networkRestakeDelegatorAbi,
      "SetOperatorNetworkShares",
    ],
    ["SetNetworkLimit(bytes32,uint256)", operatorSpecificDelegatorAbi, "SetNetworkLimit"],
    ["AnswerUpdated(int256,uint256,uint256)", priceFeedAbi, "AnswerUpdated"],
  ] as const)("%s", (signature, abi, name) => {
    const event = (abi as readonly { type: string; name?: string }[]).find(
      (item) => item.type === "event" && item.name === name,
    ) as AbiEvent;
    expect(toEventSignature(event)).toBe(signature);
    expect(toEventSelector(event)).toBe(toEventSelector(signature));
  });
});
