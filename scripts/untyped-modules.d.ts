// The parts the scripts use of two packages that ship no types (and have no @types package installed).

declare module "pngjs" {
  interface PNG {
    width: number;
    height: number;
    data: Buffer;
  }
  const pngjs: {
    PNG: {
      new (options: { width: number; height: number }): PNG;
      sync: {
        read(buffer: Buffer): PNG;
        write(png: PNG, options?: { colorType?: number }): Buffer;
      };
    };
  };
  export default pngjs;
}

declare module "autocannon" {
  interface Histogram {
    p50: number;
    p99: number;
    max: number;
  }
  /** A request as autocannon builds it; `setupRequest` returns the next one to send. */
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request) => Request;
  }
  export interface Result {
    "2xx": number;
    non2xx: number;
    errors: number;
    timeouts: number;
    duration: number;
    latency: Histogram;
    statusCodeStats: Record<string, { count: number }>;
  }
  /** A run's result as `skipAggregateResult` leaves it: its histograms encoded, for aggregateResult. */
  export interface RawResult {
    "2xx": number;
    non2xx: number;
    errors: number;
    timeouts: number;
    duration: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  interface Options {
    url: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    requests?: Request[];
  }
  function autocannon(options: Options & { skipAggregateResult?: false }): Promise<Result>;
  function autocannon(options: Options & { skipAggregateResult: true }): Promise<RawResult>;
  namespace autocannon {
    /** Several runs as one: counts summed, latency histograms added (its `duration` is the first run's). */
    function aggregateResult(results: RawResult[], options: { url: string; connections?: number }): Result;
  }
  export default autocannon;
}
