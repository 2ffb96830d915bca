// The points-engine suite's JSON-RPC node, in a process of its own: the generated history (history.ts) served as a
// chain. Answers eth_chainId, eth_blockNumber, eth_getBlockByNumber/ByHash (headers, no transactions), eth_getLogs
// over a range or of one block by hash (with `blockTimestamp`, as anvil and reth add it; more than MAX_LOGS results
// refused as nodes do),
// eth_call of Multicall3's aggregate3 over the views the engine's scope reading makes, and eth_subscribe newHeads on
// a WebSocket at the same port. Logs are encoded when asked for, from the typed arrays.
//
// Control (not JSON-RPC): POST /bench/append {events} makes a new block at the head with that many deposits and
// announces it to the subscribers; it answers with the block and the moment (epoch ms, sub-millisecond) it did.
//
// argv: the plan as JSON. Prints {"msg":"fake rpc ready","url":…,"lastBlock":…} once listening.
import { createServer, type IncomingMessage } from "node:http";
import {
  type Abi,
  decodeFunctionData,
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionResult,
  type Hex,
  multicall3Abi,
  toFunctionSelector,
} from "viem";
import { type WebSocket, WebSocketServer } from "ws";
import {
  networkRegistryAbi,
  networkRestakeDelegatorAbi,
  operatorSpecificDelegatorAbi,
  optInServiceAbi,
  priceFeedAbi,
  vaultAbi,
  vaultFactoryAbi,
} from "../../src/points-engine/chain/abis.ts";
import { subnetworkOf } from "../../src/points-engine/chain/subnetwork.ts";
import { mulberry32 } from "../../src/shared/seeded-random.ts";
import { CHAIN_ID_FOR_ENGINE, MULTICALL3_ADDRESS } from "./engine-config.ts";
import {
  addressOf,
  BLOCK_SECONDS,
  blockHash,
  blockOfHash,
  collateralOfVault,
  decimalsOfCollateral,
  eventRangeOfBlock,
  FIRST_BLOCK,
  feedDecimals,
  generateHistory,
  type History,
  type HistoryPlan,
  initialPrice,
  KIND,
  LARGE_LIMIT,
  parseAddress,
  SERVICE,
  timestampOf,
  vaultOfStaker,
} from "./history.ts";

const CHAIN_ID = CHAIN_ID_FOR_ENGINE;
const MULTICALL3 = MULTICALL3_ADDRESS;
const MAX_LOGS = 10_000;

const plan = JSON.parse(process.argv[2] ?? "null") as HistoryPlan;
const generatedIn = performance.now();
const history: History = generateHistory(plan);
const generationMs = performance.now() - generatedIn;
let head = history.lastBlock;
/** Blocks appended live: their deposits (staker, whole tokens). */
const appended = new Map<number, { staker: number; amount: number }[]>();
const liveRandom = mulberry32(plan.seed ^ 0x5eed);

// ---- log encoding: topic0 and layouts from viem once; each log by padding words (checked against viem below) ----
const topic0 = (abi: Abi, eventName: string) => encodeEventTopics({ abi, eventName } as never)[0] as Hex;
const T = {
  optIn: topic0(optInServiceAbi as Abi, "OptIn"),
  maxNetworkLimit: topic0(networkRestakeDelegatorAbi as Abi, "SetMaxNetworkLimit"),
  networkLimit: topic0(networkRestakeDelegatorAbi as Abi, "SetNetworkLimit"),
  operatorNetworkShares: topic0(networkRestakeDelegatorAbi as Abi, "SetOperatorNetworkShares"),
  deposit: topic0(vaultAbi as Abi, "Deposit"),
  withdraw: topic0(vaultAbi as Abi, "Withdraw"),
  answerUpdated: topic0(priceFeedAbi as Abi, "AnswerUpdated"),
};
const word = (value: bigint): string => value.toString(16).padStart(64, "0");
const addressWord = (address: string) => `0x${address.slice(2).padStart(64, "0")}` as Hex;
const data = (...values: bigint[]) => `0x${values.map(word).join("")}` as Hex;
const units = (tokens: number, decimals: number) => BigInt(tokens) * 10n ** BigInt(decimals);
const limitOf = (amount: number, vault: number) =>
  amount === 0 ? LARGE_LIMIT : units(amount * 1000, decimalsOfCollateral(collateralOfVault(vault)));
const sharesOf = (amount: number) => BigInt(amount) * 10n ** 18n;

interface EncodedLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
}

function encodeEvent(i: number): EncodedLog {
  const kind = history.kind[i]!;
  const a = history.a[i]!;
  const b = history.b[i]!;
  const c = history.c[i]!;
  const amount = history.amount[i]!;
  switch (kind) {
    case KIND.networkOptIn:
      return {
        address: addressOf("service", SERVICE.network),
        topics: [T.optIn, addressWord(addressOf("operator", b)), addressWord(addressOf("network", c))],
        data: "0x",
      };
    case KIND.vaultOptIn:
      return {
        address: addressOf("service", SERVICE.vault),
        topics: [T.optIn, addressWord(addressOf("operator", b)), addressWord(addressOf("vault", a))],
        data: "0x",
      };
    case KIND.maxNetworkLimit:
    case KIND.networkLimit:
      return {
        address: addressOf("delegator", a),
        topics: [
          kind === KIND.networkLimit ? T.networkLimit : T.maxNetworkLimit,
          subnetworkOf(addressOf("network", c), 0n),
        ],
        data: data(kind === KIND.maxNetworkLimit ? LARGE_LIMIT : limitOf(amount, a)),
      };
    case KIND.operatorNetworkShares:
      return {
        address: addressOf("delegator", a),
        topics: [
          T.operatorNetworkShares,
          subnetworkOf(addressOf("network", c), 0n),
          addressWord(addressOf("operator", b)),
        ],
        data: data(sharesOf(amount)),
      };
    case KIND.deposit:
    case KIND.withdraw: {
      const raw = units(amount, decimalsOfCollateral(collateralOfVault(a)));
      const staker = addressWord(addressOf("staker", b));
      return kind === KIND.deposit
        ? { address: addressOf("vault", a), topics: [T.deposit, staker, staker], data: data(raw, raw) }
        : { address: addressOf("vault", a), topics: [T.withdraw, staker, staker], data: data(raw, raw, 0n) };
    }
    case KIND.price:
      return {
        address: addressOf("feed", a),
        topics: [T.answerUpdated, `0x${word(BigInt(amount))}`, `0x${word(BigInt(i))}`],
        data: data(0n),
      };
    default:
      throw new Error(`unknown event kind ${kind}`);
  }
}

function encodeDeposit(vault: number, staker: number, amount: number): EncodedLog {
  const raw = units(amount, decimalsOfCollateral(collateralOfVault(vault)));
  const word = addressWord(addressOf("staker", staker));
  return { address: addressOf("vault", vault), topics: [T.deposit, word, word], data: data(raw, raw) };
}

/** The fast encoding above must be viem's: every kind is checked once against encodeEventTopics/encodeAbiParameters. */
function checkEncoding(): void {
  const seen = new Set<number>();
  for (let i = 0; i < history.kind.length && seen.size < 8; i++) {
    const kind = history.kind[i]!;
    if (seen.has(kind)) continue;
    seen.add(kind);
    const log = encodeEvent(i);
    const [abi, eventName, args, dataTypes, dataValues] = viemForm(i, log);
    const topics = encodeEventTopics({ abi, eventName, args } as never);
    const encodedData =
      dataTypes.length === 0 ? "0x" : encodeAbiParameters(dataTypes as never, dataValues as never);
    if (JSON.stringify(topics) !== JSON.stringify(log.topics) || encodedData !== log.data)
      throw new Error(`the fast encoding of event kind ${kind} differs from viem's`);
  }
}

function viemForm(
  i: number,
  log: EncodedLog,
): [Abi, string, Record<string, unknown>, { type: string }[], unknown[]] {
  const kind = history.kind[i]!;
  const a = history.a[i]!;
  const b = history.b[i]!;
  const c = history.c[i]!;
  const amount = history.amount[i]!;
  const u = [{ type: "uint256" }];
  const sub = subnetworkOf(addressOf("network", c), 0n);
  switch (kind) {
    case KIND.networkOptIn:
      return [
        optInServiceAbi as Abi,
        "OptIn",
        { who: addressOf("operator", b), where: addressOf("network", c) },
        [],
        [],
      ];
    case KIND.vaultOptIn:
      return [
        optInServiceAbi as Abi,
        "OptIn",
        { who: addressOf("operator", b), where: addressOf("vault", a) },
        [],
        [],
      ];
    case KIND.maxNetworkLimit:
      return [networkRestakeDelegatorAbi as Abi, "SetMaxNetworkLimit", { subnetwork: sub }, u, [LARGE_LIMIT]];
    case KIND.networkLimit:
      return [
        networkRestakeDelegatorAbi as Abi,
        "SetNetworkLimit",
        { subnetwork: sub },
        u,
        [limitOf(amount, a)],
      ];
    case KIND.operatorNetworkShares:
      return [
        networkRestakeDelegatorAbi as Abi,
        "SetOperatorNetworkShares",
        { subnetwork: sub, operator: addressOf("operator", b) },
        u,
        [sharesOf(amount)],
      ];
    case KIND.deposit: {
      const raw = BigInt(log.data.slice(0, 66));
      const s = addressOf("staker", b);
      return [vaultAbi as Abi, "Deposit", { depositor: s, onBehalfOf: s }, [...u, ...u], [raw, raw]];
    }
    case KIND.withdraw: {
      const raw = BigInt(log.data.slice(0, 66));
      const s = addressOf("staker", b);
      return [vaultAbi as Abi, "Withdraw", { withdrawer: s, claimer: s }, [...u, ...u, ...u], [raw, raw, 0n]];
    }
    default:
      return [priceFeedAbi as Abi, "AnswerUpdated", { current: BigInt(amount), roundId: BigInt(i) }, u, [0n]];
  }
}

// ---- blocks ----
const hex = (n: number | bigint) => `0x${n.toString(16)}`;
function header(block: number) {
  return {
    number: hex(block),
    hash: blockHash(block),
    parentHash: block === 0 ? `0x${"0".repeat(64)}` : blockHash(block - 1),
    timestamp: hex(timestampOf(block)),
    nonce: "0x0000000000000000",
    difficulty: "0x0",
    totalDifficulty: "0x0",
    gasLimit: hex(30_000_000),
    gasUsed: "0x0",
    miner: `0x${"0".repeat(40)}`,
    extraData: "0x",
    logsBloom: `0x${"0".repeat(512)}`,
    mixHash: `0x${"0".repeat(64)}`,
    sha3Uncles: `0x${"0".repeat(64)}`,
    stateRoot: `0x${"0".repeat(64)}`,
    receiptsRoot: `0x${"0".repeat(64)}`,
    transactionsRoot: `0x${"0".repeat(64)}`,
    baseFeePerGas: "0x1",
    size: "0x200",
    transactions: [],
    uncles: [],
  };
}

function blockNumberParam(tag: unknown): number {
  if (tag === "latest" || tag === "safe" || tag === "finalized" || tag === "pending" || tag === undefined)
    return head;
  if (tag === "earliest") return 0;
  return Number(BigInt(tag as string));
}

function logsOf(from: number, to: number): unknown[] | { error: { code: number; message: string } } {
  const logs: unknown[] = [];
  for (let block = Math.max(from, FIRST_BLOCK); block <= Math.min(to, head); block++) {
    const [first, end] = eventRangeOfBlock(history, block);
    const live = appended.get(block) ?? [];
    if (logs.length + (end - first) + live.length > MAX_LOGS)
      return { error: { code: -32005, message: `query returned more than ${MAX_LOGS} results` } };
    const encoded = [
      ...Array.from({ length: end - first }, (_, k) => encodeEvent(first + k)),
      ...live.map((d) => encodeDeposit(vaultOfStaker(plan, d.staker), d.staker, d.amount)),
    ];
    encoded.forEach((log, index) => {
      logs.push({
        ...log,
        blockNumber: hex(block),
        blockHash: blockHash(block),
        blockTimestamp: hex(timestampOf(block)),
        transactionHash: blockHash(block),
        transactionIndex: "0x0",
        logIndex: hex(index),
        removed: false,
      });
    });
  }
  return logs;
}

// ---- views (through Multicall3's aggregate3) ----
const selectors = new Map<Hex, { abi: Abi; name: string }>();
for (const [abi, name] of [
  [vaultFactoryAbi, "isEntity"],
  [networkRegistryAbi, "isEntity"],
  [vaultAbi, "collateral"],
  [vaultAbi, "delegator"],
  [operatorSpecificDelegatorAbi, "TYPE"],
  [operatorSpecificDelegatorAbi, "operator"],
  [priceFeedAbi, "decimals"],
  [priceFeedAbi, "latestRoundData"],
] as const) {
  const item = (abi as Abi).find((x) => x.type === "function" && x.name === name);
  if (item) selectors.set(toFunctionSelector(item as never), { abi: abi as Abi, name });
}
const erc20DecimalsSelector = toFunctionSelector("function decimals() view returns (uint8)");

/** One view's answer: its return data, or undefined for a revert. */
function view(target: string, callData: Hex): Hex | undefined {
  const who = parseAddress(target);
  if (!who) return undefined;
  const selector = callData.slice(0, 10) as Hex;
  if (selector === erc20DecimalsSelector && who.role === "collateral")
    return encodeAbiParameters([{ type: "uint8" }], [decimalsOfCollateral(who.index)]);
  if (selector === erc20DecimalsSelector && who.role === "feed")
    return encodeAbiParameters([{ type: "uint8" }], [feedDecimals()]);
  const fn = selectors.get(selector);
  if (!fn) return undefined;
  const result = (value: unknown) =>
    encodeFunctionResult({ abi: fn.abi, functionName: fn.name, result: value } as never);
  if (fn.name === "isEntity" && who.role === "registry") {
    const { args } = decodeFunctionData({ abi: fn.abi, data: callData });
    const entity = parseAddress(String(args?.[0]));
    return result(entity !== undefined && (entity.role === "vault" || entity.role === "network"));
  }
  if (who.role === "vault" && fn.name === "collateral")
    return result(addressOf("collateral", collateralOfVault(who.index)));
  if (who.role === "vault" && fn.name === "delegator") return result(addressOf("delegator", who.index));
  if (who.role === "delegator" && fn.name === "TYPE") return result(0n);
  if (who.role === "feed" && fn.name === "latestRoundData")
    return result([1n, BigInt(initialPrice(who.index)) * 10n ** BigInt(feedDecimals()), 0n, 0n, 1n]);
  return undefined; // operator() of a network-restake delegator reverts, as on chain
}

function ethCall(call: {
  to?: string;
  data?: Hex;
  input?: Hex;
}): Hex | { error: { code: number; message: string } } {
  const input = call.data ?? call.input ?? "0x";
  if (call.to?.toLowerCase() !== MULTICALL3)
    return view(call.to ?? "", input) ?? { error: { code: 3, message: "execution reverted" } };
  const { functionName, args } = decodeFunctionData({ abi: multicall3Abi, data: input });
  if (functionName !== "aggregate3") return { error: { code: 3, message: "execution reverted" } };
  const calls = args[0] as readonly { target: string; callData: Hex }[];
  const results = calls.map((c) => {
    const answer = view(c.target, c.callData);
    return { success: answer !== undefined, returnData: answer ?? "0x" };
  });
  return encodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", result: results });
}

// ---- JSON-RPC ----
interface RpcRequest {
  id: number | string | null;
  method: string;
  params?: unknown[];
}

function answer(request: RpcRequest): unknown {
  const params = request.params ?? [];
  const ok = (result: unknown) => ({ jsonrpc: "2.0", id: request.id, result });
  const fail = (error: { code: number; message: string }) => ({ jsonrpc: "2.0", id: request.id, error });
  switch (request.method) {
    case "eth_chainId":
      return ok(hex(CHAIN_ID));
    case "eth_blockNumber":
      return ok(hex(head));
    case "eth_getBlockByNumber": {
      const block = blockNumberParam(params[0]);
      return ok(block <= head ? header(block) : null);
    }
    case "eth_getBlockByHash": {
      const block = blockOfHash(String(params[0]));
      return ok(block !== undefined && block <= head ? header(block) : null);
    }
    case "eth_getLogs": {
      const filter = params[0] as { fromBlock?: string; toBlock?: string; blockHash?: string };
      if (filter.blockHash !== undefined) {
        // One block by its hash, as the engine reads blocks not yet final: a hash the node lacks is refused.
        const block = blockOfHash(filter.blockHash);
        if (block === undefined || block > head)
          return fail({ code: -32000, message: `unknown block ${filter.blockHash}` });
        const logs = logsOf(block, block);
        return Array.isArray(logs) ? ok(logs) : fail(logs.error);
      }
      const logs = logsOf(blockNumberParam(filter.fromBlock), blockNumberParam(filter.toBlock));
      return Array.isArray(logs) ? ok(logs) : fail(logs.error);
    }
    case "eth_call": {
      const result = ethCall(params[0] as { to?: string; data?: Hex });
      return typeof result === "string" ? ok(result) : fail(result.error);
    }
    default:
      return fail({ code: -32601, message: `method ${request.method} not served by the bench node` });
  }
}

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const subscribers = new Map<WebSocket, string>();
let subscriptionId = 0;

function append(events: number): { block: number; announcedAt: number } {
  const block = head + 1;
  const deposits = Array.from({ length: events }, () => {
    const staker = Math.floor(liveRandom() * plan.stakers);
    return { staker, amount: 1 + Math.floor(liveRandom() * 1000) };
  });
  appended.set(block, deposits);
  head = block;
  const announcedAt = performance.timeOrigin + performance.now();
  const notification = header(block);
  for (const [socket, id] of subscribers)
    socket.send(
      JSON.stringify({
        jsonrpc: "2.0",
        method: "eth_subscription",
        params: { subscription: id, result: notification },
      }),
    );
  return { block, announcedAt };
}

const server = createServer(async (request, response) => {
  const text = await body(request);
  if (request.url === "/bench/append") {
    const { events } = JSON.parse(text || "{}") as { events?: number };
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(append(events ?? 5)));
    return;
  }
  const parsed = JSON.parse(text) as RpcRequest | RpcRequest[];
  const result = Array.isArray(parsed) ? parsed.map(answer) : answer(parsed);
  response.setHeader("content-type", "application/json");
  response.end(JSON.stringify(result));
});
const sockets = new WebSocketServer({ server });
sockets.on("connection", (socket) => {
  socket.on("message", (raw) => {
    const request = JSON.parse(raw.toString()) as RpcRequest;
    if (request.method === "eth_subscribe" && request.params?.[0] === "newHeads") {
      const id = hex(++subscriptionId);
      subscribers.set(socket, id);
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: id }));
    } else if (request.method === "eth_unsubscribe") {
      subscribers.delete(socket);
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: true }));
    } else socket.send(JSON.stringify(answer(request)));
  });
  socket.on("close", () => subscribers.delete(socket));
});

checkEncoding();
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.stdout.write(
    `${JSON.stringify({
      msg: "fake rpc ready",
      url: `http://127.0.0.1:${port}`,
      lastBlock: history.lastBlock,
      events: history.kind.length,
      generationMs: Math.round(generationMs),
      blockSeconds: BLOCK_SECONDS,
    })}\n`,
  );
});
process.on("SIGTERM", () => process.exit(0));
