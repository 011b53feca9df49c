/** Water-N-Squared (placeholder: the application is being written; see ../api.ts for the contract). */
import type { DsmApp } from '../api';
import { notWritten } from './not-written';

export const waterNsq: DsmApp = notWritten('water-nsq', 'Water-N-Squared');
