/**
 * A process that calls a webhook twice with `sendWebhook`: first with every file descriptor it may
 * open already taken (start it under a low `ulimit -n`), then with them given back. It prints the
 * two outcomes as one JSON line. The receiver's URL comes in argv[2].
 */
import fs from 'node:fs';
import { sendWebhook } from '@/lib/delivery/send-webhook';

const input = {
  url: process.argv[2] ?? '',
  staticHeaders: {},
  signingSecret: 'whsec_bG9jYWwtZmFpbHVyZS10ZXN0LXNlY3JldA==',
  transactionId: 'local-failure-1',
  body: { event_type: 'message.received', chat_id: 'local-failure' },
};
// Warm what the call loads on first use, so the exhausted call fails at its socket and nowhere else.
await sendWebhook({ ...input, url: 'http://127.0.0.1:1/' });

const held: number[] = [];
for (;;) {
  try {
    held.push(fs.openSync('/dev/null', 'r'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EMFILE') break;
    throw err;
  }
}
const exhausted = await sendWebhook(input);
for (const fd of held) fs.closeSync(fd);
const freed = await sendWebhook(input);
process.stdout.write(`${JSON.stringify({ held: held.length, exhausted, freed })}\n`);
process.exit(0);
