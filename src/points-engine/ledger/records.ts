// The ledger's persisted record kinds and how a record's fields are read back. Every piece of state that is not
// derivable (rates, totals and lookups are rebuilt on restore) is one keyed record.
import type { LedgerRecord } from "../model.ts";
import { LedgerRecordError } from "./errors.ts";

export const RECORD_KINDS = {
  position: "position",
  vault: "vault",
  networkLimit: "networkLimit",
  operatorShares: "operatorShares",
  staker: "staker",
  operatorPoints: "operatorPoints",
  networkPoints: "networkPoints",
  optIn: "optIn",
  price: "price",
} as const;

/** A piece of ledger state that persists as one record. */
export interface Persisted {
  /** Listed in the change set since the last take. */
  pending: boolean;
  record(): LedgerRecord;
}

/** The state objects changed since the last take: a flag and a list, cheaper than a set on the hot path. */
export class ChangeSet {
  #pending: Persisted[] = [];

  add(changed: Persisted): void {
    if (changed.pending) return;
    changed.pending = true;
    this.#pending.push(changed);
  }

  take(): LedgerRecord[] {
    const records = this.#pending.map((changed) => {
      changed.pending = false;
      return changed.record();
    });
    this.#pending = [];
    return records;
  }

  clear(): void {
    for (const changed of this.#pending) changed.pending = false;
    this.#pending = [];
  }
}

export function bigintField(record: LedgerRecord, field: string): bigint {
  const value = record.value[field];
  if (typeof value !== "string" || !/^-?\d+$/.test(value)) {
    throw new LedgerRecordError(`Ledger record ${record.kind} ${record.key} has no integer ${field}`, {
      kind: record.kind,
      key: record.key,
      field,
    });
  }
  return BigInt(value);
}

export function optionalBigintField(record: LedgerRecord, field: string): bigint | null {
  return record.value[field] === null || record.value[field] === undefined
    ? null
    : bigintField(record, field);
}

export function booleanField(record: LedgerRecord, field: string): boolean {
  const value = record.value[field];
  if (typeof value !== "boolean") {
    throw new LedgerRecordError(`Ledger record ${record.kind} ${record.key} has no boolean ${field}`, {
      kind: record.kind,
      key: record.key,
      field,
    });
  }
  return value;
}

/** The parts of a `a:b:c` record key, checked for their count. */
export function keyParts(record: LedgerRecord, count: number): string[] {
  const parts = record.key.split(":");
  if (parts.length !== count) {
    throw new LedgerRecordError(`Ledger record ${record.kind} has a malformed key ${record.key}`, {
      kind: record.kind,
      key: record.key,
    });
  }
  return parts;
}
