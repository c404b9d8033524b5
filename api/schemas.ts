/** Schemas shared by several routes. Resource schemas live with their domain module in shared/. */
import { z } from 'zod';

export const idParams = z.object({ id: z.string().max(200) });
export const messageResponse = z.object({ message: z.string() });
