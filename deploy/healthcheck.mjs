// The container's health check: GET /api/health on this machine. Exit 0 while the service answers, 1
// otherwise. It tries https first when MUSTER_HTTPS or MUSTER_TLS_CERT say so, else http, then the other
// (https may also be set in the config file, which this script does not read). A "degraded" service (a
// camera reconnecting, say) still answers 200, so it is kept running: a restart would not fix the camera.
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';

const port = Number(process.env.MUSTER_PORT || 8080);
const httpsFirst = ['1', 'true', 'yes', 'on'].includes(String(process.env.MUSTER_HTTPS).toLowerCase()) || Boolean(process.env.MUSTER_TLS_CERT);

function check(https) {
  return new Promise((resolve) => {
    // The certificate is the service's own (often self-signed): this check is about answering, not identity.
    const get = https ? httpsGet : httpGet;
    const req = get({ host: '127.0.0.1', port, path: '/api/health', timeout: 4000, ...(https ? { rejectUnauthorized: false } : {}) }, (res) => {
      res.resume();
      resolve(res.statusCode === 200 ? null : `status ${res.statusCode}`);
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 4 s')));
    req.on('error', (err) => resolve(err.message));
  });
}

const first = await check(httpsFirst);
const problem = first === null ? null : await check(!httpsFirst);
if (problem !== null) console.error(`health check: ${first}; ${problem}`);
process.exit(problem === null ? 0 : 1);
