// `npm run dev`: the API with reload (tsx watch) on $PORT+1 and Vite on $PORT proxying /api to it.
import { spawn } from 'node:child_process';

const port = Number(process.env.PORT ?? 5000);
const api = spawn('npx', ['tsx', 'watch', 'server/index.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: String(port + 1) },
});
const web = spawn('npx', ['vite', '--port', String(port), '--strictPort'], {
  stdio: 'inherit',
  env: { ...process.env, API_PORT: String(port + 1) },
});
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    api.kill(sig);
    web.kill(sig);
  });
api.on('exit', () => web.kill());
web.on('exit', () => api.kill());
