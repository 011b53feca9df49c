/** Node worker_threads entry: thin adapter around core-worker.ts. */
import { parentPort, workerData } from 'node:worker_threads';
import { runWorker } from './core-worker';

parentPort!.postMessage(runWorker(workerData));
