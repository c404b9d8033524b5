import { z } from 'zod';
import { qrOptionsSchema } from '../qr/options.js';

const templateName = z.string().trim().min(1, 'Name is required').max(255, 'Name must be at most 255 characters');

export const createTemplateBody = z.strictObject({ name: templateName, qrOptions: qrOptionsSchema });
export const updateTemplateBody = z.strictObject({ name: templateName.optional(), qrOptions: qrOptionsSchema.optional() });
