// Signing a quote entry: its `signatureData` is the EIP-712 `Request` as the Reactor checks it, with `types` holding
// `Request` and `Output` only, so viem signs it as-is (the domain type comes from `domain`). Amounts stay decimal
// strings: viem encodes uint256 fields from them.
import type {
  Account,
  Address,
  Chain,
  Hex,
  LocalAccount,
  Transport,
  TypedDataDefinition,
  TypedDataParameter,
  WalletClient,
} from "viem";
import type { SignatureData } from "./api-types.ts";

/** Who signs: a local account (private key, mnemonic) or a wallet client with its account (an injected wallet). */
export type QuoteSigner = LocalAccount | WalletClient<Transport, Chain | undefined, Account>;

/** The swapper's signature of a quote entry's `signatureData`. */
export async function signQuote(signer: QuoteSigner, signatureData: SignatureData): Promise<Hex> {
  // The document types addresses as strings; they are checked `0x…` on the wire.
  const typedData: TypedDataDefinition<Record<string, readonly TypedDataParameter[]>, string> = {
    domain: { ...signatureData.domain, verifyingContract: signatureData.domain.verifyingContract as Address },
    types: signatureData.types,
    primaryType: signatureData.primaryType,
    message: signatureData.value,
  };
  if (isWalletClient(signer)) return signer.signTypedData({ account: signer.account, ...typedData });
  return signer.signTypedData(typedData);
}

/** The address that will sign (the order's swapper must be it). */
export function signerAddress(signer: QuoteSigner): Hex {
  return isWalletClient(signer) ? signer.account.address : signer.address;
}

function isWalletClient(signer: QuoteSigner): signer is WalletClient<Transport, Chain | undefined, Account> {
  return "transport" in signer && "account" in signer;
}
