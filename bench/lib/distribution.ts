// Nearest-rank percentiles of a bench's measured latencies, where a sample that never came counts as missed.

export interface Distribution {
  samples: number;
  /** Samples that never came (null or undefined). */
  missed: number;
  min: number;
  p50: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of the present values; an absent value counts as missed. */
export function distribution(values: ReadonlyArray<number | null | undefined>): Distribution {
  const present = values.filter((value): value is number => value != null).sort((x, y) => x - y);
  const at = (q: number) =>
    present[Math.min(present.length - 1, Math.ceil(q * present.length) - 1)] ?? Number.NaN;
  return {
    samples: present.length,
    missed: values.length - present.length,
    min: present[0] ?? Number.NaN,
    p50: at(0.5),
    p99: at(0.99),
    max: present.at(-1) ?? Number.NaN,
  };
}
