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
  function autocannon(options: {
    url: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    requests?: Request[];
  }): Promise<Result>;
  export default autocannon;
}
