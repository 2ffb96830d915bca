// Sending what Sluice answers as `{to, data, value}` (POST /check_approval's `cancel` and `approval`, POST /cancel's
// `transaction`) with a viem wallet client: the decimal-string `value` becomes the bigint viem wants. Sluice never
// sends anything itself; the wallet's own account pays the gas.
import type { Account, Address, Chain, Hex, Transport, WalletClient } from "viem";

/** A transaction as Sluice answers it. */
export interface TransactionRequest {
  to: string;
  data: string;
  value: string;
}

/** Sends `transaction` from the wallet client's account; resolves with its hash (wait for the receipt yourself). */
export function sendTransactionRequest(
  wallet: WalletClient<Transport, Chain | undefined, Account>,
  transaction: TransactionRequest,
): Promise<Hex> {
  return wallet.sendTransaction({
    account: wallet.account,
    chain: wallet.chain,
    to: transaction.to as Address,
    data: transaction.data as Hex,
    value: BigInt(transaction.value),
  });
}
