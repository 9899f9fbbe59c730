/**
 * How a delivery reaches its receiver: one POST of exact bytes to an address
 * that was checked just before. The domain decides what is sent, to which
 * checked address and for how long it may take; apps/worker implements the HTTP
 * (connections kept alive per origin and address, the time-out, a lost kept-alive
 * socket). The domain holds no HTTP client.
 */
export interface WebhookTransport {
  /** the receiver's answer status; rejects when there is none (refused, reset, time-out) */
  post(request: WebhookRequest): Promise<number>;
  /** closes kept-alive connections (a stopping worker, after its deliveries ended) */
  close(): void;
}

export interface WebhookRequest {
  url: URL;
  /** connect to this address (the one the target policy checked), never a fresh lookup of the name */
  address: string;
  family: 4 | 6;
  headers: Record<string, string>;
  body: string;
  /** no answer within this: a time-out */
  timeoutMs: number;
}
