// The ABIs of the Symbiotic-style contracts the points engine reads (contracts/src/symbiotic, compiled by
// `npm run contracts`): names, signatures and events as symbioticfi/core's interfaces and Chainlink's feeds
// (test/contracts/symbiotic-abi.test.ts pins each one the engine relies on).
export {
  fullRestakeDelegatorAbi,
  fullRestakeDelegatorBytecode,
  networkRegistryAbi,
  networkRegistryBytecode,
  networkRestakeDelegatorAbi,
  networkRestakeDelegatorBytecode,
  operatorRegistryAbi,
  operatorRegistryBytecode,
  operatorSpecificDelegatorAbi,
  operatorSpecificDelegatorBytecode,
  optInServiceAbi,
  optInServiceBytecode,
  priceFeedAbi,
  priceFeedBytecode,
  vaultAbi,
  vaultBytecode,
  vaultFactoryAbi,
  vaultFactoryBytecode,
  vaultTokenizedAbi,
  vaultTokenizedBytecode,
} from "../../../contracts/artifacts/index.ts";

/** Core's delegator types (`TYPE()`), as symbioticfi/core numbers them. */
export const DELEGATOR_TYPE = { networkRestake: 0n, fullRestake: 1n, operatorSpecific: 2n } as const;
