// The store @fastify/rate-limit counts through: each class's counter (window-counters.ts), picked by the `limitClass`
// of the limiter asking (createRateLimit's options reach `child`).
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { CountedClass } from "./classes.ts";
import type { WindowCounter } from "./window-counters.ts";

export function rateLimitStore(counters: Record<CountedClass, WindowCounter>): FastifyRateLimitStoreCtor {
  const forClass = (counter: WindowCounter): FastifyRateLimitStore => ({
    incr(key, callback, timeWindow) {
      counter.incr(key, timeWindow).then(
        (count) => callback(null, count),
        (error: Error) => callback(error),
      );
    },
    child: () => forClass(counter),
  });
  return class {
    incr(_key: string, callback: (error: Error | null) => void): void {
      callback(new Error("a rate limiter must name its class"));
    }
    child(options: { limitClass?: CountedClass }): FastifyRateLimitStore {
      if (!options.limitClass) throw new Error("a rate limiter must name its class");
      return forClass(counters[options.limitClass]);
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
