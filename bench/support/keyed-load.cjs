// The load generator with one header unique per request (an Idempotency-Key), which autocannon's
// command line cannot do: its API, in a process of its own like the command line. Prints autocannon's JSON result.
const { randomUUID } = require('node:crypto');
const autocannon = require(process.env.AUTOCANNON_PATH);

const o = JSON.parse(process.argv[2]);
autocannon(
  {
    url: o.url,
    connections: o.connections,
    duration: o.seconds,
    method: o.method,
    headers: o.headers,
    requests: [
      {
        setupRequest: (req) => {
          const id = randomUUID();
          return {
            ...req,
            headers: { ...req.headers, [o.uniqueHeader]: id },
            body: o.body.replaceAll('[<id>]', id),
          };
        },
      },
    ],
  },
  (err, result) => {
    if (err) {
      console.error(err);
      process.exit(1);
    }
    process.stdout.write(JSON.stringify(result));
  },
);
