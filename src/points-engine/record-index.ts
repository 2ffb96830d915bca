// Which vault and receiver a ledger record belongs to, kept as index columns so serving reads one receiver's or one
// vault's records. The ledger names them (`vault`, `receiver` on the record) or keys its per-receiver records
// `<vault>:<receiver>` and its per-vault records `<vault>`.
import type { LedgerRecord } from "./model.ts";

const ADDRESS = /^0x[0-9a-f]{40}$/;

export function recordIndex(record: LedgerRecord): { vault?: string; receiver?: string } {
  const named = record as LedgerRecord & { vault?: string; receiver?: string };
  if (named.vault !== undefined || named.receiver !== undefined)
    return {
      ...(named.vault === undefined ? {} : { vault: named.vault }),
      ...(named.receiver === undefined ? {} : { receiver: named.receiver }),
    };
  const parts = record.key.split(":");
  if (parts.length === 2 && ADDRESS.test(parts[0]!) && ADDRESS.test(parts[1]!) && record.kind !== "optIn")
    return { vault: parts[0]!, receiver: parts[1]! };
  return {};
}
