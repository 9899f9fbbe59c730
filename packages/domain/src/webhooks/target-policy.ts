import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Webhook targets may not reach the service's own network: only global unicast
 * addresses are allowed, classified by ipaddr.js. An IPv6 address that carries an
 * IPv4 address (IPv4-mapped, IPv4-compatible, SIIT, 6to4, NAT64, Teredo) is judged
 * by the IPv4 address inside it, so `[::ffff:127.0.0.1]`, `[::7f00:1]` or
 * `[2002:7f00:1::]` are the loopback they wrap. Refused at creation and again at
 * every delivery (a name may resolve elsewhere later), unless private targets are
 * allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS=true).
 */
function v4(a: number, b: number): ipaddr.IPv4 {
  return ipaddr.IPv4.parse([a >> 8, a & 0xff, b >> 8, b & 0xff].join('.'));
}

/** The IPv4 addresses an IPv6 address stands for, or null when it carries none. */
function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = addr.parts;
  const range = addr.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return [v4(p[6] ?? 0, p[7] ?? 0)];
  // IPv4-compatible (deprecated, RFC 4291 §2.5.5.1): ::a.b.c.d; :: and ::1 have ranges of their own
  if (range !== 'unspecified' && range !== 'loopback' && p.slice(0, 6).every((x) => x === 0)) {
    return [v4(p[6] ?? 0, p[7] ?? 0)];
  }
  // NAT64 well-known prefix 64:ff9b::/96 (the local-use 64:ff9b:1::/48 is never global)
  if (range === 'rfc6052' && p[2] === 0) return [v4(p[6] ?? 0, p[7] ?? 0)];
  // 6to4: 2002:AABB:CCDD::/48
  if (range === '6to4') return [v4(p[1] ?? 0, p[2] ?? 0)];
  // Teredo: 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the client's address inverted
  if (range === 'teredo') return [v4(p[2] ?? 0, p[3] ?? 0), v4((p[6] ?? 0) ^ 0xffff, (p[7] ?? 0) ^ 0xffff)];
  return null;
}

/** True unless the address is global unicast (after unwrapping any IPv4 address inside it). */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const addr = ipaddr.parse(address);
  if (addr.kind() === 'ipv4') return addr.range() !== 'unicast';
  const inner = embeddedIPv4(addr as ipaddr.IPv6);
  if (inner) return inner.some((a) => a.range() !== 'unicast');
  return addr.range() !== 'unicast';
}

export type TargetCheck = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

/** Resolves the URL's host and checks every address it resolves to. */
export async function checkTarget(url: URL, allowPrivate: boolean): Promise<TargetCheck> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'the URL must use http or https' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true });
    } catch {
      return { ok: false, reason: `the host ${host} does not resolve` };
    }
  }
  const first = addresses[0];
  if (!first) return { ok: false, reason: `the host ${host} does not resolve` };
  if (!allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return { ok: false, reason: `the host resolves to ${bad.address}, a loopback, private or link-local address` };
  }
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}
