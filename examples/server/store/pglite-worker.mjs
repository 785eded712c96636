// The embedded database's thread (see worker.ts): a PGlite over the directory it is
// given, answering one message { id, text, values } at a time with { id, rows } or
// { id, error }. Plain JavaScript: a worker thread does not inherit a TypeScript loader
// in every runner (tsx in `npm start`, Vitest's own in the tests).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const db = await PGlite.create(workerData.dataDir);
parentPort.on('message', async (message) => {
  if (message.close === true) {
    await db.close();
    parentPort.close();
    return;
  }
  try {
    const { rows } = await db.query(message.text, message.values);
    parentPort.postMessage({ id: message.id, rows });
  } catch (error) {
    // A plain object: an Error's own fields (Postgres's code) do not survive the copy.
    parentPort.postMessage({ id: message.id, error: { message: String(error?.message ?? error), code: error?.code } });
  }
});
parentPort.postMessage({ ready: true });
