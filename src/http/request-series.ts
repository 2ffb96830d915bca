// The two series every answered request adds to: `sluice_http_requests_total` and
// `sluice_http_request_duration_seconds`, by method, route template and status. A request adds to plain numbers kept
// per (route, method, status) — found by three map lookups on strings and a number, no key built — and prom-client
// sees them only when the registry is read: the request counts are added to the counter then (its `collect`), and the
// duration histogram is this module's own metric, answering prom-client's histogram format. prom-client's own
// `labels(...).inc()` and `.observe()` validate and hash the labels on every call, which every request paid.
import type { Counter, MetricValueWithName, Registry } from "prom-client";

type Labels = { method: string; route: string; status: number };

/** One (method, route, status)'s numbers since the start (durations) and since the last read (requests). */
interface Series {
  labels: Labels;
  /** Requests not yet added to the counter. */
  uncounted: number;
  /** Per bucket (by index of the upper bounds), the observations at or under that bound and over the one before. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

export interface RequestSeriesOptions {
  registry: Registry;
  /** sluice_http_requests_total, labelled method, route, status: this adds each request to it when it is read. */
  requests: Counter<"method" | "route" | "status">;
  name: string;
  help: string;
  /** The duration histogram's upper bounds, in seconds, ascending. */
  buckets: readonly number[];
}

export class RequestSeries {
  readonly #routes = new Map<string, Map<string, Map<number, Series>>>();
  readonly #all: Series[] = [];
  readonly #bounds: readonly number[];

  constructor(private readonly options: RequestSeriesOptions) {
    this.#bounds = options.buckets;
    options.registry.registerMetric(this.#durationMetric() as never);
  }

  /** Counts an answered request and its duration. */
  record(method: string, route: string, status: number, seconds: number): void {
    let methods = this.#routes.get(route);
    if (!methods) {
      methods = new Map();
      this.#routes.set(route, methods);
    }
    let statuses = methods.get(method);
    if (!statuses) {
      statuses = new Map();
      methods.set(method, statuses);
    }
    let series = statuses.get(status);
    if (!series) {
      series = {
        labels: { method, route, status },
        uncounted: 0,
        buckets: new Float64Array(this.#bounds.length),
        sum: 0,
        count: 0,
      };
      statuses.set(status, series);
      this.#all.push(series);
    }
    series.uncounted += 1;
    series.sum += seconds;
    series.count += 1;
    const bounds = this.#bounds;
    for (let index = 0; index < bounds.length; index++) {
      if (seconds <= bounds[index]!) {
        series.buckets[index]! += 1;
        break;
      }
    }
  }

  /** Adds the requests counted since the last read to the counter (its `collect`, run at each read). */
  flush(): void {
    for (const series of this.#all) {
      if (series.uncounted === 0) continue;
      this.options.requests.inc(series.labels, series.uncounted);
      series.uncounted = 0;
    }
  }

  /** The histogram as prom-client's registry reads a metric: prom-client's Histogram's values, in its order. */
  #durationMetric() {
    const { name, help } = this.options;
    const get = async () => {
      // prom-client's values, exemplar slots (empty) included, so its JSON reads the same.
      const values: Array<MetricValueWithName<string> & { exemplar?: null }> = [];
      for (const series of this.#all) {
        let cumulative = 0;
        this.#bounds.forEach((bound, index) => {
          cumulative += series.buckets[index]!;
          values.push({
            metricName: `${name}_bucket`,
            labels: { le: bound, ...series.labels },
            value: cumulative,
            exemplar: null,
          });
        });
        values.push(
          {
            metricName: `${name}_bucket`,
            labels: { le: "+Inf", ...series.labels },
            value: series.count,
            exemplar: null,
          },
          { metricName: `${name}_sum`, labels: { ...series.labels }, value: series.sum },
          { metricName: `${name}_count`, labels: { ...series.labels }, value: series.count },
        );
      }
      return { name, help, type: "histogram", values, aggregator: "sum" };
    };
    const reset = () => {
      for (const series of this.#all) {
        series.buckets.fill(0);
        series.sum = 0;
        series.count = 0;
      }
    };
    return { name, help, type: "histogram", aggregator: "sum", get, reset };
  }
}
