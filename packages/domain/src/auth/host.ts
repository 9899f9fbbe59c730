/**
 * The environment a request addresses is the first label of its host name:
 * `acme.example.com` → `acme`, `demo.localhost:3000` → `demo`. A bare host
 * (`localhost`, an IP address) addresses no environment.
 */
export function environmentFromHost(host: string | undefined): string | null {
  if (!host) return null;
  let name = host.trim().toLowerCase();
  if (name.startsWith('[')) return null; // IPv6 literal
  name = name.replace(/:\d+$/, '').replace(/\.$/, '');
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return null;
  const labels = name.split('.');
  if (labels.length < 2) return null;
  const first = labels[0] ?? '';
  return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(first) ? first : null;
}
