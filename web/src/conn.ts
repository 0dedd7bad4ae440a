// One WebSocket to /ws/<table>, kept open: on a drop it reconnects with exponential backoff
// (0.5 s doubling to 10 s, with jitter) and says hello again with the same token, so the server resends
// the seat's state. Requests carry an id; their replies (checked, legal, hint, error) settle a promise.

import type { Frame } from "./api";

export type ConnStatus = "connecting" | "open" | "reconnecting" | "closed";

interface Pending {
  resolve: (frame: Frame) => void;
  timer: number;
}

export class Connection {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private pending = new Map<string, Pending>();
  private attempt = 0;
  private stopped = false;
  private fatal = false;
  private retryTimer = 0;
  private pingTimer = 0;
  status: ConnStatus = "connecting";
  retryAt = 0;

  constructor(
    private table: string,
    private token: string | null,
    private onFrame: (frame: Frame) => void,
    private onStatus: (status: ConnStatus) => void,
  ) {}

  start(): void {
    this.stopped = false;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.retryTimer);
    window.clearInterval(this.pingTimer);
    this.ws?.close();
    this.setStatus("closed");
  }

  private url(): string {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/${encodeURIComponent(this.table)}`;
  }

  private setStatus(status: ConnStatus): void {
    this.status = status;
    this.onStatus(status);
  }

  private open(): void {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token }));
    };
    ws.onmessage = (event) => {
      let frame: Frame;
      try {
        frame = JSON.parse(String(event.data)) as Frame;
      } catch {
        return;
      }
      // A token or table the server does not know: it closes the connection, and retrying cannot help.
      if (frame.type === "error" && (frame.rule === "TOKEN" || frame.rule === "TABLE")) this.fatal = true;
      if (frame.type === "welcome") {
        this.attempt = 0;
        this.setStatus("open");
        window.clearInterval(this.pingTimer);
        this.pingTimer = window.setInterval(() => this.send({ type: "ping" }), 20000);
      }
      const id = (frame as { id?: unknown }).id;
      if (id !== undefined && id !== null && this.pending.has(String(id))) {
        const waiting = this.pending.get(String(id))!;
        this.pending.delete(String(id));
        window.clearTimeout(waiting.timer);
        waiting.resolve(frame);
      }
      this.onFrame(frame);
    };
    ws.onclose = () => {
      window.clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      for (const [key, waiting] of this.pending) {
        window.clearTimeout(waiting.timer);
        waiting.resolve({ type: "error", id: key, rule: "PROTOCOL", message: "the connection dropped" });
      }
      this.pending.clear();
            if (this.stopped || this.fatal) {
        this.setStatus("closed");
        return;
      }
      const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.8 + 0.4 * Math.random());
      this.attempt += 1;
      this.retryAt = Date.now() + delay;
      this.setStatus("reconnecting");
      this.retryTimer = window.setTimeout(() => this.open(), delay);
    };
  }

  /** Reconnect now (the "retry now" button), instead of waiting for the backoff. */
  retryNow(): void {
    if (this.status !== "reconnecting" && this.status !== "closed") return;
    window.clearTimeout(this.retryTimer);
    this.stopped = false;
    this.fatal = false;
    this.open();
  }

  send(message: Record<string, unknown>): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Send a request with a fresh id; resolves with the reply carrying that id (or an error frame). */
  request(message: Record<string, unknown>, timeoutMs = 15000): Promise<Frame> {
    const id = `c${this.nextId++}`;
    return new Promise((resolve) => {
      if (!this.send({ ...message, id })) {
        resolve({ type: "error", id, rule: "PROTOCOL", message: "not connected" });
        return;
      }
      const timer = window.setTimeout(() => {
        this.pending.delete(id);
        resolve({ type: "error", id, rule: "PROTOCOL", message: "no answer from the server" });
      }, timeoutMs);
      this.pending.set(id, { resolve, timer });
    });
  }
}
