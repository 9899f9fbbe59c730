import { type HttpResponse, send } from './http.js';

/** A plain-HTTP stand-in for a browser on one host: keeps cookies, posts forms, follows nothing by itself. */
export class FormClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly port: number,
    readonly host: string,
  ) {}

  private remember(res: HttpResponse): void {
    const set = res.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = line.split(';');
      const i = (pair ?? '').indexOf('=');
      if (i === -1) continue;
      const name = (pair as string).slice(0, i).trim();
      const value = (pair as string).slice(i + 1).trim();
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
    const res = await send(this.port, 'GET', path, { host: this.host, headers: { ...this.cookieHeader(), ...headers } });
    this.remember(res);
    return res;
  }

  async post(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<HttpResponse> {
    const res = await send(this.port, 'POST', path, {
      host: this.host,
      body: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.cookieHeader(), ...headers },
    });
    this.remember(res);
    return res;
  }

  /** the value of a hidden input in a page */
  static hidden(html: string, name: string): string {
    const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
    if (!m) throw new Error(`no hidden ${name} in the page`);
    return m[1] as string;
  }

  /** signs in through the login form */
  async login(email: string, password: string): Promise<HttpResponse> {
    const page = await this.get('/settings/api');
    return this.post('/settings/api/login', { csrf: FormClient.hidden(page.text, 'csrf'), email, password });
  }
}
