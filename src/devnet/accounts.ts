// The devnet's roles, each one of anvil's dev accounts (its well-known mnemonic, funded with ETH at genesis).
// Their keys are public knowledge, which is fine on a local chain and nowhere else.
import { type HDAccount, type Hex, toHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { DEV_MNEMONIC } from "./deploy.ts";

/** How many dev accounts the devnet's anvil creates (`--accounts`). */
export const DEVNET_ACCOUNT_COUNT = 10;

const ROLE_INDEX = {
  /** Deploys and owns the contracts and test tokens; the faucet mints and sends from it. */
  deployer: 0,
  /** Counter-signs orders and discount swaps (the deployment's protocol signer). */
  protocol: 1,
  /** The adapters' market maker: names the bundled solvers' Executors as fillers. */
  marketMaker: 2,
} as const;

/** The bundled solvers' EOAs (callers of their Executors), in the order of `BUNDLED_SOLVERS`. */
const SOLVER_INDEXES = [3, 4] as const;

/** Demo swappers: funded with tRWA at deployment, printed at start. */
const DEMO_INDEXES = [5, 6, 7, 8, 9] as const;

/**
 * The demo curator: authorized on the tUSD adapter (a filler of its market maker), it signs the discount the devnet
 * publishes at every start. Beyond the accounts anvil funds: it only signs, it never sends a transaction.
 */
const CURATOR_INDEX = DEVNET_ACCOUNT_COUNT;

export interface DevAccount {
  index: number;
  account: HDAccount;
  privateKey: Hex;
}

export function devAccount(index: number): DevAccount {
  const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
  const key = account.getHdKey().privateKey;
  if (!key) throw new Error(`dev account ${index} has no private key`);
  return { index, account, privateKey: toHex(key) };
}

export interface DevnetAccounts {
  deployer: DevAccount;
  protocol: DevAccount;
  marketMaker: DevAccount;
  solvers: DevAccount[];
  demo: DevAccount[];
  curator: DevAccount;
}

export function devnetAccounts(): DevnetAccounts {
  return {
    deployer: devAccount(ROLE_INDEX.deployer),
    protocol: devAccount(ROLE_INDEX.protocol),
    marketMaker: devAccount(ROLE_INDEX.marketMaker),
    solvers: SOLVER_INDEXES.map(devAccount),
    demo: DEMO_INDEXES.map(devAccount),
    curator: devAccount(CURATOR_INDEX),
  };
}
