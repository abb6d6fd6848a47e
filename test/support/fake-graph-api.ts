import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the network saw of one request. */
export interface SeenRequest {
  method: string;
  url: string;
  body: unknown;
}

export interface ScriptedAnswer {
  status: number;
  json: unknown;
}

/**
 * A local HTTP server on a free port that plays the Graph API for an app configured with
 * CHANNEL_ADAPTER=http: it records each request and answers the next scripted answer (200 `{}`
 * when none is left). `url` is the GRAPH_API_BASE_URL to configure.
 */
export class FakeGraphApi {
  readonly seen: SeenRequest[] = [];
  private answers: ScriptedAnswer[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v21.0`;
    return this;
  }

  answer(...answers: ScriptedAnswer[]) {
    this.answers.push(...answers);
  }

  reset() {
    this.seen.length = 0;
    this.answers = [];
  }

  /** The Graph API's error body. */
  static error(status: number, message: string, code: number, subcode?: number): ScriptedAnswer {
    return { status, json: { error: { message, type: 'OAuthException', code, ...(subcode !== undefined && { error_subcode: subcode }), fbtrace_id: 'AbCdEf123' } } };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    this.seen.push({ method: req.method ?? '', url: req.url ?? '', body: raw === '' ? undefined : JSON.parse(raw) });
    const next = this.answers.shift() ?? { status: 200, json: {} };
    res.writeHead(next.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(next.json));
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
