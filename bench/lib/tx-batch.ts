// Sends one account's transactions back to back with consecutive nonces and fixed gas limits (no estimation
// against state that is not mined yet), then waits for them all: building a fixture of hundreds of
// transactions takes seconds on an automining anvil instead of a round trip each.
import { type Abi, type Address, getContractAddress, type Hash, type Hex } from "viem";
import type { ChainPublicClient, ChainWalletClient } from "../../src/chain/client.ts";

export class TxBatch {
  readonly #pending: Array<{ label: string; hash: Hash }> = [];
  #nonce = 0;

  private constructor(
    private readonly wallet: ChainWalletClient,
    private readonly publicClient: ChainPublicClient,
  ) {}

  static async open(wallet: ChainWalletClient, publicClient: ChainPublicClient): Promise<TxBatch> {
    const batch = new TxBatch(wallet, publicClient);
    batch.#nonce = await publicClient.getTransactionCount({
      address: wallet.account.address,
      blockTag: "pending",
    });
    return batch;
  }

  /** Deploys a contract; returns the address it will have. */
  async deploy(label: string, abi: Abi, bytecode: Hex, args: readonly unknown[]): Promise<Address> {
    const address = getContractAddress({ from: this.wallet.account.address, nonce: BigInt(this.#nonce) });
    const hash = await this.wallet.deployContract({
      abi,
      bytecode,
      args,
      nonce: this.#nonce++,
      gas: 5_000_000n,
    } as Parameters<ChainWalletClient["deployContract"]>[0]);
    this.#pending.push({ label, hash });
    return address;
  }

  async write(
    label: string,
    address: Address,
    abi: Abi,
    functionName: string,
    args: readonly unknown[],
    gas = 400_000n,
  ): Promise<void> {
    const hash = await this.wallet.writeContract({
      address,
      abi,
      functionName,
      args,
      nonce: this.#nonce++,
      gas,
    } as Parameters<ChainWalletClient["writeContract"]>[0]);
    this.#pending.push({ label, hash });
  }

  /** Waits for every transaction sent so far; throws naming the ones that reverted. */
  async settle(): Promise<number> {
    const pending = this.#pending.splice(0);
    const receipts = await Promise.all(
      pending.map((tx) =>
        this.publicClient.waitForTransactionReceipt({ hash: tx.hash, pollingInterval: 20, timeout: 120_000 }),
      ),
    );
    const failed = receipts.flatMap((receipt, index) =>
      receipt.status === "success" ? [] : [pending[index]!.label],
    );
    if (failed.length > 0) throw new Error(`fixture transactions reverted: ${failed.join(", ")}`);
    return pending.length;
  }
}
