/** Path parameters of the cafe routes: every one of them checks the cafe first ("Cafe not found"). */
import { nestedResourceParams, resourceParams } from '../../schemas.js';

export const tags = ['cafes'];
export const cafeParams = resourceParams('id', 'Cafe');
export const groupParams = nestedResourceParams(['id', 'groupId'], 'Cafe');
export const categoryParams = nestedResourceParams(['id', 'categoryId'], 'Cafe');
export const itemParams = nestedResourceParams(['id', 'itemId'], 'Cafe');
