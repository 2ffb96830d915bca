// The devnet's faucet: a fixed bundle of ETH and test tokens, sent from the account that owns the test tokens.
// ERC-20s are minted (the owner may mint), ETH is transferred; both are real transactions, so once `fund`
// resolves the balances are on the chain, as any wallet will see them.
//
// Requests may arrive concurrently: nonces are assigned and transactions sent one request at a time (the chain's
// pending count is the source of truth, so a failed send never leaves a gap), and receipts are awaited outside
// that section, so concurrent requests land in the same block.
import {
  type Address,
  createTestClient,
  type Hash,
  type LocalAccount,
  parseEther,
  type TestClient,
  zeroAddress,
} from "viem";
import { testERC20Abi } from "../chain/abis.ts";
import {
  type ChainPublicClient,
  type ChainWalletClient,
  createChainPublicClient,
  createChainWalletClient,
  createRpcTransport,
} from "../chain/client.ts";
import type { Deployment } from "../deployment/schema.ts";
import { FaucetError } from "./errors.ts";

/** How the native coin appears in the bundle (it has no contract). */
export const NATIVE_TOKEN: Address = zeroAddress;

export interface FaucetAsset {
  token: Address;
  symbol: string;
  name: string;
  decimals: number;
  amount: bigint;
  kind: "native" | "erc20";
}

export interface DevFaucetOptions {
  chainId: number;
  rpcUrl: string;
  /** Owns the test tokens (their `mint` is owner-only) and pays the ETH. */
  owner: LocalAccount;
  assets: readonly FaucetAsset[];
  /** Receipt polling interval (default 200 ms; the devnet mines a block a second). */
  pollingIntervalMs?: number;
}

// A native transfer to a contract with a `receive` needs more than 21,000; mints of a new holder about 70,000.
const NATIVE_GAS = 100_000n;
const MINT_GAS = 150_000n;
// The owner pays every ETH bundle; anvil tops it up (a dev chain has no scarce ETH) before it runs low.
const OWNER_LOW_WATER = parseEther("1000");
const OWNER_TOP_UP = parseEther("10000");

export class DevFaucet {
  readonly assets: readonly FaucetAsset[];
  readonly #publicClient: ChainPublicClient;
  readonly #wallet: ChainWalletClient;
  readonly #testClient: TestClient<"anvil">;
  readonly #pollingIntervalMs: number;
  #sending: Promise<unknown> = Promise.resolve();

  constructor(options: DevFaucetOptions) {
    this.assets = options.assets;
    this.#pollingIntervalMs = options.pollingIntervalMs ?? 200;
    const clientOptions = { chainId: options.chainId, rpcUrls: options.rpcUrl, cacheTimeMs: 0 };
    this.#publicClient = createChainPublicClient(clientOptions);
    this.#wallet = createChainWalletClient({ ...clientOptions, account: options.owner });
    this.#testClient = createTestClient({ mode: "anvil", transport: createRpcTransport(options.rpcUrl) });
  }

  /** The bundle's entry for `token` (`NATIVE_TOKEN` for ETH). */
  asset(token: Address): FaucetAsset | undefined {
    return this.assets.find((asset) => asset.token === token);
  }

  /** Sends `assets` (default: the whole bundle) to `recipient` and waits until every transfer is mined. */
  async fund(
    recipient: Address,
    assets: readonly FaucetAsset[] = this.assets,
  ): Promise<readonly FaucetAsset[]> {
    const sent = await this.#oneAtATime(() => this.#send(recipient, assets));
    const receipts = await Promise.all(
      sent.map(({ hash }) =>
        this.#publicClient.waitForTransactionReceipt({
          hash,
          pollingInterval: this.#pollingIntervalMs,
          timeout: 60_000,
        }),
      ),
    );
    const failed = receipts.flatMap((receipt, index) =>
      receipt.status === "success" ? [] : [sent[index]!.symbol],
    );
    if (failed.length > 0) throw new FaucetError(`funding ${recipient} reverted for ${failed.join(", ")}`);
    return assets;
  }

  async #send(
    recipient: Address,
    assets: readonly FaucetAsset[],
  ): Promise<Array<{ symbol: string; hash: Hash }>> {
    const owner = this.#wallet.account.address;
    const native = assets
      .filter((asset) => asset.kind === "native")
      .reduce((sum, asset) => sum + asset.amount, 0n);
    if (native > 0n) {
      const balance = await this.#publicClient.getBalance({ address: owner });
      if (balance < OWNER_LOW_WATER + native)
        await this.#testClient.setBalance({ address: owner, value: OWNER_TOP_UP + native });
    }
    let nonce = await this.#publicClient.getTransactionCount({ address: owner, blockTag: "pending" });
    const sent: Array<{ symbol: string; hash: Hash }> = [];
    for (const asset of assets) {
      const hash =
        asset.kind === "native"
          ? await this.#wallet.sendTransaction({
              to: recipient,
              value: asset.amount,
              nonce: nonce++,
              gas: NATIVE_GAS,
            })
          : await this.#wallet.writeContract({
              address: asset.token,
              abi: testERC20Abi,
              functionName: "mint",
              args: [recipient, asset.amount],
              nonce: nonce++,
              gas: MINT_GAS,
            });
      sent.push({ symbol: asset.symbol, hash });
    }
    return sent;
  }

  /** Runs `task` after every earlier one has finished (successfully or not). */
  #oneAtATime<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#sending.then(task, task);
    this.#sending = run.catch(() => {});
    return run;
  }
}

/** A bundle of 10 ETH and 10,000 whole units of each of the deployment's tokens (input tokens first). */
export function faucetAssetsFor(deployment: Pick<Deployment, "inputTokens" | "outputTokens">): FaucetAsset[] {
  const tokens = [...deployment.inputTokens, ...deployment.outputTokens];
  return [
    {
      token: NATIVE_TOKEN,
      symbol: "ETH",
      name: "Ether",
      decimals: 18,
      amount: parseEther("10"),
      kind: "native",
    },
    ...tokens.map((token) => ({
      token: token.address,
      symbol: token.symbol,
      name: token.name,
      decimals: token.decimals,
      amount: 10_000n * 10n ** BigInt(token.decimals),
      kind: "erc20" as const,
    })),
  ];
}
