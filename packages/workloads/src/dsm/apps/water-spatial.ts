/** Water-Spatial (placeholder: the application is being written; see ../api.ts for the contract). */
import type { DsmApp } from '../api';
import { notWritten } from './not-written';

export const waterSpatial: DsmApp = notWritten('water-spatial', 'Water-Spatial');
