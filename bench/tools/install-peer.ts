import { installPeer } from '../peer/install.js';

/** `npx tsx bench/tools/install-peer.ts`: installs the peer of `pnpm bench peer` ahead of a run (the install is slow). */
const peer = await installPeer();
console.log(`peer: Node ${peer.nodeVersion}, Directus ${peer.directusVersion}`);
